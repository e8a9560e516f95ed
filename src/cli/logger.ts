// The daemon's pino logger: JSON lines on stdout (API.md §Starting it). Request lines never carry a token: `/events`
// accepts `?token=` because EventSource cannot set headers, and logs are often shared (FINDINGS: local-daemon security).

import pino, { type Logger } from 'pino';
import type { LogLevel } from './parse-args.js';

const TOKEN_PARAM = /([?&]token=)[^&#]*/gi;

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level, serializers: { req: serializeRequest } };
  return destination === undefined ? pino(options) : pino(options, destination);
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
