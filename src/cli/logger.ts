// The daemon's pino logger: JSON lines on stdout (docs/api.md §Logs), or lines for people with `--log-format pretty`. Request lines never carry a token: `/events`
// accepts `?token=` because EventSource cannot set headers, and logs are often shared (FINDINGS: local-daemon security).

import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { BatchedLogDestination } from './log-destination.js';
import type { LogFormat, LogLevel } from './parse-args.js';

const TOKEN_PARAM = /([?&]token=)[^&#]*/gi;

export function createLogger(
  level: LogLevel,
  destination?: pino.DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const options: pino.LoggerOptions = { level, serializers: { req: serializeRequest } };
  if (format === 'pretty') return pino(options, prettyDestination(destination));
  return pino(options, destination ?? stdoutDestination());
}

/**
 * `--log-format pretty`: pino-pretty in this thread (no worker to start or to lose lines at exit), writing each line
 * as it comes: a person reads them as they happen, and a daemon's own lines are few next to its request lines, which
 * people reading a terminal do not send by the thousand. Colours follow the terminal and `NO_COLOR`. The lines are
 * built from the same JSON the default format writes, so they carry the same fields.
 */
function prettyDestination(destination: pino.DestinationStream | undefined): pino.DestinationStream {
  // Required here, synchronously, and only for this format: the default JSON lines never pay for pino-pretty and its
  // colour and time libraries (docs/performance.md "Idle memory").
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pinoPretty({
    destination: (destination as NodeJS.WritableStream | undefined) ?? 1,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
}

/**
 * Asynchronous, batched writes (one request line per request must not cost a write each: log-destination.ts,
 * docs/performance.md). A line waits at most 25 ms; what is still pending when the process exits (after a signal, a
 * failed start, `process.exit`) is written synchronously from the `exit` event (test/e2e/serve.test.ts).
 */
function stdoutDestination(): pino.DestinationStream {
  const destination = new BatchedLogDestination(1);
  process.on('exit', () => destination.flushSync());
  return destination;
}

/**
 * Waits until every line logged so far is written, or `timeoutMs`: true when written. The daemon's close ends with it.
 * A chunk handed to the thread pool before the process exits may be written after the lines the `exit` event writes
 * synchronously, or, still queued behind file-system work, not at all: the last lines came out of order or went
 * missing under load (test/e2e/serve.test.ts). A stdout nobody reads cannot hold the exit past the bound.
 */
export function drainLogs(logger: Pick<Logger, 'flush'>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
    logger.flush(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export function redactUrl(url: string): string {
  return url.replace(TOKEN_PARAM, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request fields, with the token query parameter hidden. */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
