// An AbortSignal that aborts when the client of a request goes away before its answer is written: the work done for
// that request alone (a walk of a skill's files, docs/api.md "Limits on walks") stops instead of running on for
// nobody.

import type { FastifyReply, FastifyRequest } from 'fastify';

export function requestSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
  };
  if (request.raw.socket?.destroyed) gone();
  else reply.raw.once('close', gone);
  return controller.signal;
}
