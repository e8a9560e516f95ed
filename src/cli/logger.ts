// The daemon's pino logger: JSON lines on stdout (API.md §Starting it). Request lines never carry a token: `/events`
// accepts `?token=` because EventSource cannot set headers, and logs are often shared (FINDINGS: local-daemon security).

import pino, { type Logger } from 'pino';
import type { LogLevel } from './parse-args.js';

const TOKEN_PARAM = /([?&]token=)[^&#]*/gi;

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level, serializers: { req: serializeRequest } };
  return pino(options, destination ?? stdoutDestination());
}

/**
 * Asynchronous writes (one request line per request must not cost a blocking write each: docs/performance.md), with
 * no minimum length, so a line such as `listening on` is handed to the kernel in the same turn. pino flushes what is
 * still pending synchronously when the process exits, so `process.exit` after a signal or a failed start loses no
 * line (test/e2e/serve.test.ts).
 */
function stdoutDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false });
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
