// Compressed answers (docs/api.md "Endpoints"): the JSON answers of the routes whose size grows with the number of
// skills, from COMPRESS_THRESHOLD_BYTES on, in gzip or br for a client that accepts one (`Accept-Encoding`). Smaller
// answers, 304s (no body), the event stream, the MCP route (hijacked: it writes its own answers) and the files of a
// skill (their bytes and lengths as on disk) stay as they are. Request bodies are never decompressed.
// `GET /skills` without `agent=` sends each state's answer compressed once instead (skills-list-answer.ts): at 10,000
// skills, gzip of its 10 MB took 200 ms per request (docs/performance.md "Compression").

import negotiate from '@fastify/accept-negotiator';
import fastifyCompressModule, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance, FastifyPluginAsync, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

// The package is CommonJS: Node's default import is `module.exports`, the fastify-plugin-wrapped function.
const fastifyCompress = fastifyCompressModule as unknown as FastifyPluginAsync<FastifyCompressOptions>;

/** Answers smaller than this go as they are: below it, a compressed answer saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** In the server's order of preference: gzip is the cheaper to compress of the two. */
export const ANSWER_ENCODINGS = ['gzip', 'br'] as const;
export type AnswerEncoding = (typeof ANSWER_ENCODINGS)[number];

/** The routes compressed: the JSON answers that grow with the skills (docs/performance.md). */
const COMPRESSED_ROUTES: ReadonlySet<string> = new Set([
  '/skills',
  '/agents',
  '/catalog',
  '/collisions',
  '/search',
  '/doctor',
  '/openapi.json',
]);
const JSON_TYPE = /^application\/json(?:;|$)/u;
// `*` and `x-gzip` stand for gzip, as the plugin reads them.
const GZIP_ALIASES = /\*|x-gzip/gu;

/** The encoding an answer goes in for this `Accept-Encoding`, or undefined for identity. */
export function answerEncoding(acceptEncoding: string | undefined): AnswerEncoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined;
  const header = acceptEncoding.toLowerCase().replace(GZIP_ALIASES, 'gzip');
  return negotiate(header, [...ANSWER_ENCODINGS]) ?? undefined;
}

const compression: FastifyPluginAsync = async (app) => {
  // Before the plugin's own `onRoute` hook: every route not in the list is left alone by it.
  app.addHook('onRoute', (route) => {
    if (route.compress !== undefined) return;
    if (COMPRESSED_ROUTES.has(route.url)) route.handler = awaitingCompressedSend(route.handler);
    else route.compress = false;
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: [...ANSWER_ENCODINGS],
    customTypes: JSON_TYPE,
    globalDecompression: false,
  });
};

/**
 * A compressed answer above the plugin's synchronous bound is streamed: `reply.send` returns before anything is
 * written, and an async handler that sent without returning `reply` (Fastify's rule for handlers that call
 * `reply.send`) would then have Fastify send an empty answer over it. The handler's promise is made to wait for the
 * answer it started, as if it had returned `reply`.
 */
function awaitingCompressedSend(handler: RouteHandlerMethod): RouteHandlerMethod {
  return function (this: FastifyInstance, request, reply) {
    const result: unknown = handler.call(this, request, reply);
    if (!(result instanceof Promise)) return result;
    return result.then((value: unknown) =>
      value === undefined && !reply.sent && reply.hasHeader('content-encoding') ? reply : value,
    );
  };
}

export const compressionPlugin = fp(compression, { name: 'skillsd-compression', fastify: '5.x' });
