// `GET /events`: the Server-Sent Events stream (API.md §GET /events).

import { Type } from 'typebox';
import { CwdProperty } from './common.js';

export const EVENT_TYPES = [
  'hello',
  'index',
  'collision',
  'warning',
  'diagnostic',
  'settings',
  'settings-error',
  'reset',
] as const;

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
});

export const EventsOk = {
  description:
    'An event stream: `hello` first, then `index`, `collision`, `warning`, `diagnostic`, `settings`, ' +
    '`settings-error`, `reset` ' +
    'events, each with an `id` and one line of JSON data; `: ping` comments keep it alive',
  content: { 'text/event-stream': { schema: Type.String() } },
};
