// `GET /events`: the Server-Sent Events stream (docs/api.md §GET /events). Each event type's `data` has a named
// schema, and the stream is documented as the union of its frames (`{ id, event, data }` with `data` parsed), so a
// generated client gets one type per event instead of plain strings. With `agent=`, the stream of that agent's view:
// the same frames, its `hello` naming the agent and its log holding `index` and `collision` events of that view.

import { type TSchema, Type } from 'typebox';
import { AgentCollisionSchema } from './agents.js';
import { CwdProperty } from './common.js';
import { FindingSchema } from './doctor.js';
import { CollisionSchema } from './skill.js';

const Generation = Type.Integer({ description: 'The workspace’s index generation' });
const Names = Type.Array(Type.String());
const ConfigFile = Type.String({ description: 'The config file' });

/** The `data` of every event type, by type, in the order docs/api.md lists them. */
export const EVENT_PAYLOADS = {
  hello: Type.Object(
    {
      generation: Generation,
      skills: Type.Integer({ description: 'Skills loaded (a count), in the view the stream follows' }),
      agent: Type.Optional(Type.String({ description: 'The agent whose view the stream follows (`agent=`)' })),
    },
    { title: 'HelloEvent', description: 'First on every connection, whatever `types` says' },
  ),
  index: Type.Object(
    {
      generation: Generation,
      added: Names,
      removed: Names,
      changed: Names,
      views: Type.Optional(
        Type.Array(Type.String(), {
          description:
            'Default stream only: the agent views in use that changed (then `added`, `removed` and `changed` are empty)',
        }),
      ),
    },
    {
      title: 'IndexEvent',
      description: 'The index changed: skill names added, removed and changed (in the agent’s view with `agent=`)',
    },
  ),
  collision: Type.Object(
    {
      name: Type.String(),
      state: Type.Enum(['new', 'changed', 'resolved']),
      collision: Type.Union([CollisionSchema, AgentCollisionSchema], {
        description: 'As in `GET /skills`, or in `GET /skills?agent=` on an agent’s stream',
      }),
    },
    { title: 'CollisionEvent', description: 'A collision appeared, changed or went away (as it last was)' },
  ),
  warning: Type.Object(
    { skillPath: Type.String(), message: Type.String() },
    { title: 'WarningEvent', description: 'A reference warning that was not there before' },
  ),
  settings: Type.Object(
    { source: ConfigFile, generation: Generation },
    { title: 'SettingsEvent', description: 'The config file was re-applied' },
  ),
  'settings-error': Type.Object(
    { source: ConfigFile, message: Type.String() },
    { title: 'SettingsErrorEvent', description: 'An edit of the config file was refused; the last good one stays' },
  ),
  reset: Type.Object(
    { generation: Generation },
    { title: 'ResetEvent', description: 'The resumed id is too old to replay: fetch `GET /skills` again' },
  ),
  diagnostic: Type.Object(
    { state: Type.Enum(['new', 'resolved']), finding: FindingSchema },
    { title: 'DiagnosticEvent', description: 'A doctor finding (error or warning) appeared or went away' },
  ),
} satisfies Record<string, TSchema>;

export type EventType = keyof typeof EVENT_PAYLOADS;

export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as EventType[];

export const EventsQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  types: Type.Optional(
    Type.String({
      pattern: `^(${EVENT_TYPES.join('|')})(,(${EVENT_TYPES.join('|')}))*$`,
      description: 'Comma-separated event types to receive (`hello` is always sent)',
    }),
  ),
  lastEventId: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,16}$', description: 'Resume after this event id (like `Last-Event-ID`)' }),
  ),
  token: Type.Optional(Type.String({ description: 'The bearer token, for clients that cannot set headers' })),
  agent: Type.Optional(
    Type.String({
      description:
        'The stream of one agent’s view (claude-code, codex, …, musepi, omp, xcsh; docs/api.md "Agent views"), with ' +
        'its own ids',
    }),
  ),
});

/** Request headers of the stream. Read by the handler; declared so that clients can send them. */
export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ description: 'The last event id received: the stream replays what came after it' }),
  ),
});

/** One event as a client reads it: the `id:` and `event:` fields, and `data:` parsed as JSON. */
export const ServerSentEvent = Type.Union(
  EVENT_TYPES.map((type) =>
    Type.Object({
      id: Type.String({
        pattern: '^[0-9]+$',
        description: 'Names the index state the event leads to; send it back to resume (only equality means anything)',
      }),
      event: Type.Literal(type),
      data: EVENT_PAYLOADS[type],
    }),
  ),
  { title: 'ServerSentEvent' },
);

export const EventsOk = {
  description:
    'An event stream: `hello` first, then `index`, `collision`, `warning`, `settings`, `settings-error`, `reset` and ' +
    '`diagnostic` events, each with an `id` and one line of JSON data; `: ping` comments keep it alive. An agent’s ' +
    'stream (`agent=`) sends `index` and `collision` events of that view, and `reset`',
  content: { 'text/event-stream': { schema: ServerSentEvent } },
};
