// The poll fast path's request line (docs/api.md §Starting it: one line per request at `info`), written without pino's
// per-call formatting. pino builds every line from the same pieces: the level, the time, the logger's bindings, each
// field serialised in turn, the message. Fastify's request logger is a child with the binding `reqId`, which a plain
// pino logger prints right after its own bindings: where the first field of an object goes when the parent logs it.
// For `GET /skills` only the time, the request id, the status and the response time change, so the line is cut once
// per status into fixed text around those four values, by pino's own `asJson` (through `pino.symbols`, pino's
// documented hooks for integrations), and checked against a line pino formats whole. A logger whose lines could
// differ (a mixin, a log formatter, hooks, a message prefix, a nested key, a stream that wants metadata) is not cut:
// its lines are written as Fastify writes them. What remains per line is the concatenation and the destination's
// write (docs/performance.md, HTTP).

import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { logRequestLine, REQUEST_COMPLETED, requestLine } from './request-log.js';

/** pino has `isLevelEnabled`; the silent logger Fastify uses without one does not (and logs nothing). */
export type AppLogger = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/** Writes the completion line of one request at `info`; the caller checks that `info` is enabled. */
export type CompletedLineWriter = (reqId: string, statusCode: number, responseTimeMs: number) => void;

const { asJsonSym, formattersSym, hooksSym, mixinSym, needsMetadataGsym, nestedKeySym, streamSym, timeSym } =
  pino.symbols;

// Exported by pino at runtime, missing from its typings.
const msgPrefixSym = (pino.symbols as unknown as Record<string, symbol | undefined>).msgPrefixSym;

const INFO = 30;
// Markers that no logger option can produce: they only ever stand for the values cut out of the template.
const TIME_MARK = '\u0001skillsd-time\u0001';
const ID_MARK = 'skillsd-request-id-mark';
const MS_MARK = 'skillsd-response-time-mark';

type PinoInternals = Record<symbol, unknown>;

interface Template {
  head: string;
  afterTime: string;
  afterId: string;
  tail: string;
}

export function completedLineWriter(log: AppLogger, method: string, path: string): CompletedLineWriter {
  // The request id where a child logger's binding goes, then the line's own fields (request-log.ts).
  const fields = (reqId: string, statusCode: number, responseTimeMs: number | string) => ({
    reqId,
    ...requestLine(method, path, statusCode, responseTimeMs),
  });
  // Fastify's own way: a child logger with the `reqId` binding (a mixin, for one, goes between the two).
  const viaPino: CompletedLineWriter = (reqId, statusCode, responseTimeMs) =>
    logRequestLine(log.child({ reqId }), requestLine(method, path, statusCode, responseTimeMs));
  if (!formatsPlainly(log)) return viaPino;

  const internals = log as unknown as PinoInternals;
  const asJson = internals[asJsonSym] as (obj: object, msg: string, level: number, time: string) => string;
  const now = internals[timeSym] as () => string;
  const stream = internals[streamSym] as { write(line: string): unknown };
  const templates = new Map<number, Template | undefined>();

  const templateFor = (statusCode: number): Template | undefined => {
    if (templates.has(statusCode)) return templates.get(statusCode);
    const template = cut(asJson.call(log, fields(ID_MARK, statusCode, MS_MARK), REQUEST_COMPLETED, INFO, TIME_MARK));
    // The template must give, for sample values, exactly the line pino formats whole; otherwise pino writes.
    const sample = { time: ',"time":1796000000000', reqId: 'req-1z', responseTimeMs: 12.3 };
    const whole = asJson.call(
      log,
      fields(sample.reqId, statusCode, sample.responseTimeMs),
      REQUEST_COMPLETED,
      INFO,
      sample.time,
    );
    const checked =
      template !== undefined && fill(template, sample.time, sample.reqId, sample.responseTimeMs) === whole
        ? template
        : undefined;
    templates.set(statusCode, checked);
    return checked;
  };

  return (reqId, statusCode, responseTimeMs) => {
    const template = templateFor(statusCode);
    if (template === undefined) viaPino(reqId, statusCode, responseTimeMs);
    else stream.write(fill(template, now.call(log), reqId, responseTimeMs));
  };
}

/** True when pino's line for an object is `asJson` of that object and nothing else touches it on the way out. */
function formatsPlainly(log: AppLogger): boolean {
  const internals = log as unknown as PinoInternals;
  const formatters = internals[formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const stream = internals[streamSym] as Record<symbol, unknown> | undefined;
  return (
    typeof internals[asJsonSym] === 'function' &&
    typeof internals[timeSym] === 'function' &&
    typeof (stream as { write?: unknown } | undefined)?.write === 'function' &&
    formatters !== undefined &&
    formatters.log === undefined &&
    hooks !== undefined &&
    hooks.logMethod === undefined &&
    hooks.streamWrite === undefined &&
    !internals[mixinSym] &&
    msgPrefixSym !== undefined &&
    typeof internals[msgPrefixSym] !== 'string' &&
    !internals[nestedKeySym] &&
    stream?.[needsMetadataGsym] !== true
  );
}

/** Splits a line formatted with the markers; undefined when a marker is not where a plain value would be. */
function cut(line: string): Template | undefined {
  const time = line.split(TIME_MARK);
  const id = (time[1] ?? '').split(`"${ID_MARK}"`);
  const ms = (id[1] ?? '').split(`"${MS_MARK}"`);
  if (time.length !== 2 || id.length !== 2 || ms.length !== 2) return undefined;
  return { head: time[0] ?? '', afterTime: `${id[0] ?? ''}"`, afterId: `"${ms[0] ?? ''}`, tail: ms[1] ?? '' };
}

/** Request ids are `req-<base 36>` (request-ids.ts): nothing in them needs JSON escaping. */
function fill(template: Template, time: string, reqId: string, responseTimeMs: number): string {
  return template.head + time + template.afterTime + reqId + template.afterId + responseTimeMs + template.tail;
}
