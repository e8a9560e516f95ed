// `GET /events`: the index's changes as Server-Sent Events (docs/api.md §GET /events).
//
// Order on connect: `hello` (with `retry:`), then either the replay of every held event after `Last-Event-ID`
// (header or `lastEventId` query) or, when that id is too old or unknown, `reset`; then live events. Reading the
// snapshot, computing the replay and subscribing happen in one synchronous step, so no event falls between them.
//
// Ids are derived from the index's content (event-log.ts), so an id from another replica serving the same files
// resumes here: replayed when this daemon holds that position, `reset` when it does not. `hello` carries the
// position the stream continues from (the resumed id, or the workspace's current position), which is also the right
// value for a client to send back as `Last-Event-ID`; `reset` carries the current position.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { SkillsdError } from '../../discovery/errors.js';
import type { IndexEvent } from '../../live-index/event-log.js';
import { errorResponses } from '../schemas/common.js';
import { EventsHeaders, EventsOk, EventsQuery, type EventType } from '../schemas/events.js';

/** A client this far behind is cut off; it resumes with `Last-Event-ID` once it reads again. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const EVENT_ID = /^[0-9]{1,16}$/;

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events',
    {
      sse: { kind: 'only', heartbeat: false },
      // HEAD is answered below, at once: a HEAD served by this handler would open a stream that never ends.
      exposeHeadRoute: false,
      schema: {
        operationId: 'streamEvents',
        summary: 'Index changes as Server-Sent Events',
        description:
          '`hello` is sent first (and `reset` when the resumed id is too old), whatever `types` says. ' +
          'Resume with `Last-Event-ID` or `lastEventId`: at least the last 1000 events of a workspace are held.',
        querystring: EventsQuery,
        headers: EventsHeaders,
        response: { 200: EventsOk, ...errorResponses(406) },
      },
      // @fastify/sse answers a client that refuses text/event-stream itself: give that answer our error shape.
      preSerialization: async (_request, reply, payload: unknown) => {
        if (reply.statusCode !== 406 || typeof payload !== 'object' || payload === null) return payload;
        return { ...(payload as Record<string, unknown>), code: 'NotAcceptable' };
      },
    },
    async (request, reply) => {
      const { cwd, types, lastEventId } = request.query;
      const { workspace } = await app.workspaceView(cwd);
      // Closed while this request waited (evicted, or refused by a new allow-list): nothing would ever arrive.
      if (workspace.closed) throw new SkillsdError('NotReady', `The workspace ${workspace.cwd} was closed; retry`);
      const wanted = types === undefined ? null : new Set(types.split(',') as EventType[]);
      const resumeFrom = lastEventId ?? headerValue(request.headers['last-event-id']);

      // A stream is quiet between events and pings by design: the idle timeout that closes silent sockets
      // (connection-limits.ts) does not apply to it. The 1 MiB cap below still bounds a client that stopped reading.
      request.raw.socket.setTimeout(0);

      // A stream owns its connection: when it ends (client gone, daemon closing) the socket goes too, instead of
      // idling in a keep-alive pool that would hold `app.close()` until the client drops it.
      reply.header('connection', 'close');

      // One synchronous step from here to `subscribe`: nothing can be logged in between.
      const log = workspace.events;
      const snapshot = workspace.snapshot!;
      const resumeId =
        resumeFrom === undefined ? undefined : EVENT_ID.test(resumeFrom) ? Number(resumeFrom) : Number.NaN;
      const replay = resumeId === undefined ? undefined : log.since(resumeId);
      const write = writer(reply);
      const helloId = replay?.kind === 'replay' ? resumeId! : log.headId;
      write(
        helloId,
        'hello',
        JSON.stringify({ generation: snapshot.generation, skills: snapshot.skills.length }),
        app.eventStreams.retryMs,
      );
      if (replay?.kind === 'reset') {
        write(log.headId, 'reset', JSON.stringify({ generation: snapshot.generation }));
      } else if (replay !== undefined) {
        for (const event of replay.events) if (accepts(wanted, event)) write(event.id, event.type, event.json);
      }
      const unsubscribe = log.subscribe((event) => {
        if (accepts(wanted, event)) write(event.id, event.type, event.json);
      });

      const ping = setInterval(() => {
        if (reply.sse.isConnected) reply.raw.write(': ping\n\n');
      }, app.eventStreams.heartbeatMs);
      ping.unref();
      const close = () => reply.sse.close();
      // Kept now: the response lets go of its socket once it ends.
      const socket = request.raw.socket;
      const untrack = app.eventStreams.track(close);
      const unwatchClose = workspace.onClose(close);
      let cleaned = false;
      const cleanup = () => {
        if (cleaned) return;
        cleaned = true;
        clearInterval(ping);
        unsubscribe();
        untrack();
        unwatchClose();
        workspace.touch();
        // The connection served this stream only; left open it would idle until the client drops it.
        socket.destroySoon();
      };
      reply.sse.onClose(cleanup);
      // A client gone while this request waited for its workspace: its close has already fired.
      if (!reply.sse.isConnected) cleanup();
      reply.sse.keepAlive();
    },
  );
};

/** `HEAD /events`: the headers a stream would start with, and no stream (nothing is opened or watched). */
export const eventsHeadRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.head('/events', { schema: { hide: true, querystring: EventsQuery } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache').type('text/event-stream').code(200);
    return reply.send();
  });
};

/** Writes one event; a client that stopped reading is disconnected rather than buffered without bound. */
function writer(reply: FastifyReply) {
  return (id: number, event: string, data: string, retry?: number) => {
    if (!reply.sse.isConnected) return;
    if (reply.raw.writableLength > MAX_BUFFERED_BYTES) {
      reply.sse.close();
      return;
    }
    if (reply.raw.writableNeedDrain) {
      // Backed up: @fastify/sse's send() would add a 'drain' and an 'error' listener per event until the client reads
      // (thousands of small events for a stalled client). The same frame goes straight into the buffer instead; the
      // cap above still bounds it. `data` is one line of JSON.
      reply.raw.write(`id: ${id}\nevent: ${event}\ndata: ${data}\n${retry === undefined ? '' : `retry: ${retry}\n`}\n`);
      return;
    }
    const message = retry === undefined ? { id: String(id), event, data } : { id: String(id), event, data, retry };
    reply.sse.send(message).catch(() => reply.sse.close());
  };
}

function accepts(wanted: Set<EventType> | null, event: IndexEvent): boolean {
  return wanted === null || wanted.has(event.type);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
