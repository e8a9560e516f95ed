// One Server-Sent Events stream over an event log, for `GET /events` and `GET /events?agent=` alike (docs/api.md
// §GET /events): the same ids, resume, filtering, pings, cap on a client that stopped reading, and ending with the
// workspace or the daemon, whichever log it follows.
//
// Order on connect: `hello` (with `retry:`), then either the replay of every held event after `Last-Event-ID`
// (header or `lastEventId` query) or, when that id is too old or unknown, `reset`; then live events. Reading the
// state, computing the replay and subscribing happen in one synchronous step, so no event falls between them.
//
// `hello` carries the position the stream continues from (the resumed id, or the log's current position), which is
// also the right value for a client to send back as `Last-Event-ID`; `reset` carries the current position.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SkillsdError } from '../discovery/errors.js';
import type { EventLog, IndexEvent } from '../live-index/event-log.js';
import type { WorkspaceIndex } from '../live-index/workspace-index.js';
import type { EventType } from './schemas/events.js';

/** A client this far behind is cut off; it resumes with `Last-Event-ID` once it reads again. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const EVENT_ID = /^[0-9]{1,16}$/;

/** What a stream follows, read at the moment it starts. */
export interface StreamState {
  log: EventLog;
  /** The data of `hello`. */
  hello: Record<string, unknown>;
  /** The generation a `reset` names. */
  generation: number;
  /** Runs once when the stream ends, whatever ends it. */
  release?: () => void;
}

export interface StreamRequest {
  workspace: WorkspaceIndex;
  /** The event types asked for (`types=`); undefined: all of them. */
  types: string | undefined;
  /** `lastEventId` of the query; the `Last-Event-ID` header counts when it is absent. */
  lastEventId: string | undefined;
  /** Reads the state; called once, in the synchronous step that subscribes, unless the workspace closed. */
  state(): StreamState;
}

/** Serves the stream on `reply` until the client goes, the workspace closes or the daemon does. */
export function serveEventStream(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  stream: StreamRequest,
): void {
  const { workspace } = stream;
  // Closed while this request waited (evicted, or refused by a new allow-list): nothing would ever arrive.
  if (workspace.closed) throw new SkillsdError('NotReady', `The workspace ${workspace.cwd} was closed; retry`);
  const wanted = stream.types === undefined ? null : new Set(stream.types.split(',') as EventType[]);
  const resumeFrom = stream.lastEventId ?? headerValue(request.headers['last-event-id']);

  // A stream is quiet between events and pings by design: the idle timeout that closes silent sockets
  // (connection-limits.ts) does not apply to it. The 1 MiB cap below still bounds a client that stopped reading.
  request.raw.socket.setTimeout(0);

  // A stream owns its connection: when it ends (client gone, daemon closing) the socket goes too, instead of
  // idling in a keep-alive pool that would hold `app.close()` until the client drops it.
  reply.header('connection', 'close');

  // One synchronous step from here to `subscribe`: nothing can be logged in between.
  const { log, hello, generation, release } = stream.state();
  const resumeId = resumeFrom === undefined ? undefined : EVENT_ID.test(resumeFrom) ? Number(resumeFrom) : Number.NaN;
  const replay = resumeId === undefined ? undefined : log.since(resumeId);
  const write = writer(reply);
  const helloId = replay?.kind === 'replay' ? resumeId! : log.headId;
  write(helloId, 'hello', JSON.stringify(hello), app.eventStreams.retryMs);
  if (replay?.kind === 'reset') {
    write(log.headId, 'reset', JSON.stringify({ generation }));
  } else if (replay !== undefined) {
    for (const event of replay.events) if (accepts(wanted, event)) write(event.id, event.type, event.json);
  }
  flushNow(reply);
  const unsubscribe = log.subscribe((event) => {
    if (!accepts(wanted, event)) return;
    write(event.id, event.type, event.json);
    flushNow(reply);
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
    release?.();
    workspace.touch();
    // The connection served this stream only; left open it would idle until the client drops it.
    socket.destroySoon();
  };
  reply.sse.onClose(cleanup);
  // A client gone while this request waited for its workspace: its close has already fired.
  if (!reply.sse.isConnected) cleanup();
  reply.sse.keepAlive();
}

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

/**
 * Sends what was written now. Node's HTTP response corks on a write and uncorks on the next tick, and the next tick
 * comes only once the microtask queue is empty: an event logged in the middle of a chain of promise continuations (an
 * update of the views going on, another request's answer being made) left only after them, tens of milliseconds later
 * at 10,000 skills. Node 24 corks the response itself (its chunks wait in the response), Node 20 and 22 its socket:
 * each is uncorked here if it is corked, and the tick's own uncork then finds nothing to do.
 */
function flushNow(reply: FastifyReply): void {
  const response = reply.raw;
  if (response.writableCorked > 0) response.uncork();
  const socket = response.socket;
  if (socket !== null && socket.writableCorked > 0) socket.uncork();
}

function accepts(wanted: Set<EventType> | null, event: IndexEvent): boolean {
  return wanted === null || wanted.has(event.type);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
