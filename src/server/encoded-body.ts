// Answers kept per state, compressed once per encoding (docs/api.md "Endpoints", docs/performance.md "Compression"):
// at 10,000 skills gzip of the 10 MB `GET /skills` body costs 200 ms and of the `GET /agents` matrix tens of ms, which
// every request of a client that accepts gzip (Node's fetch does, by default) would otherwise pay again. Compressed off
// the event loop; kept as long as the answer object the caller names is.

import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type AnswerEncoding, answerEncoding, COMPRESS_THRESHOLD_BYTES } from './plugins/compression.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
// The quality @fastify/compress uses for br: 11, brotli's default, takes seconds on a 10 MB answer.
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const encodedBodies = new WeakMap<object, Map<AnswerEncoding, Promise<Buffer>>>();

/** The encoding a 200 with this body goes in for this `Accept-Encoding`: none below the threshold. */
export function bodyEncoding(bytes: number, acceptEncoding: string | undefined): AnswerEncoding | undefined {
  const encoding = answerEncoding(acceptEncoding);
  return encoding === undefined || bytes < COMPRESS_THRESHOLD_BYTES ? undefined : encoding;
}

/**
 * `body` in `encoding`, compressed on first use and kept with `answer` (the kept answer it is the body of); concurrent
 * first requests share the one compression.
 */
export function encodedBody(answer: object, body: Buffer | string, encoding: AnswerEncoding): Promise<Buffer> {
  let bodies = encodedBodies.get(answer);
  if (bodies === undefined) {
    bodies = new Map();
    encodedBodies.set(answer, bodies);
  }
  let encoded = bodies.get(encoding);
  if (encoded === undefined) {
    encoded = encoding === 'gzip' ? gzipAsync(body) : brotliAsync(body, BROTLI_OPTIONS);
    const cached = bodies;
    // A failed compression is not kept: the next request tries again.
    encoded.catch(() => cached.delete(encoding));
    bodies.set(encoding, encoded);
  }
  return encoded;
}
