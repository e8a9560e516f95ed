// Fastify's request log lines (API.md: one line per request at `info`), without query strings: the SSE token may
// travel as `?token=`, and Fastify's own lines print `req.url` whole. Request ids stay on every line.

import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export class PathOnlyLogController extends LogController {
  /** One line per request is enough: the completion line carries everything. */
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { ...describe(request), statusCode: reply.statusCode, responseTimeMs: round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
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

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
