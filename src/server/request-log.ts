// Fastify's request log lines (docs/api.md: one line per request at `info`), without query strings: the SSE token may
// travel as `?token=`, and Fastify's own lines print `req.url` whole. Request ids stay on every line.

import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** The `msg` of the line per request; the poll fast path (poll-fast-path.ts) writes the same line from here. */
export const REQUEST_COMPLETED = 'request completed';
export const REQUEST_ERRORED = 'request errored';

/** The fields of the line per request, in their order (request-line.ts cuts its template from this very object). */
export interface RequestLine<Ms = number> {
  method: string;
  path: string;
  statusCode: number;
  responseTimeMs: Ms;
}

export function requestLine<Ms = number>(
  method: string,
  path: string,
  statusCode: number,
  responseTimeMs: Ms,
): RequestLine<Ms> {
  return { method, path, statusCode, responseTimeMs };
}

/** Writes the line per request on a request's logger (one with the `reqId` binding): completed, or errored. */
export function logRequestLine(
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  line: RequestLine,
  error?: Error | null,
): void {
  if (error) log.error({ ...line, err: error }, REQUEST_ERRORED);
  else log.info(line, REQUEST_COMPLETED);
}

export class PathOnlyLogController extends LogController {
  /** One line per request is enough: the completion line carries everything. */
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const { method, path } = describe(request);
    logRequestLine(reply.log, requestLine(method, path, reply.statusCode, roundMs(reply.elapsedTime)), error);
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const line = { ...describe(request), statusCode: reply.statusCode, err: error };
    if (reply.statusCode >= 500) reply.log.error(line, error?.message);
    else reply.log.info(line, error?.message);
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info(describe(request), 'route not found');
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ ...describe(request), err: error }, error?.message);
  }

  override serializerError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.error({ ...describe(request), err: error }, 'the response could not be serialised');
  }
}

/** The request target without its query string or fragment. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

function describe(request: FastifyRequest): { method: string; path: string } {
  return { method: request.method, path: pathOf(request.raw.url ?? '') };
}

/** Response times to a tenth of a millisecond: finer digits are noise in a log line. */
export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}
