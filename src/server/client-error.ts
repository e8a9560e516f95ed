// Requests that Node's HTTP parser refuses before Fastify sees them (a request head over the size limit, bytes that
// are not HTTP, a head that never arrives) are answered here, in the error shape of docs/api.md §Errors: Fastify's own
// answer for them has no `code`, so a client could not tell them apart from the daemon's other errors.

import type { Socket } from 'node:net';
import { errorBody } from './errors.js';

// From the runtime, not an ES module import, which would load undici on Node 22 and later (src/client/http-fetch.ts).
const { maxHeaderSize, STATUS_CODES } = process.getBuiltinModule('node:http');

type ConnectionError = Error & { code?: string };

/** Fastify's `clientErrorHandler`: one JSON answer, then the connection is closed (the parser cannot go on). */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  // The peer is gone already: there is nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = clientErrorBody(error);
  const body = JSON.stringify(answer);
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  // Ended, not destroyed: a socket closed with request bytes still unread is reset by the kernel, and the reset can
  // reach the client before the answer does (a 64 KB request target lost its 431 that way). What is left of the
  // request is read and dropped for at most LINGER_MS; then the socket is destroyed, so it cannot hold a descriptor.
  socket.on('data', discard);
  socket.end(
    `HTTP/1.1 ${answer.statusCode} ${STATUS_CODES[answer.statusCode]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

const LINGER_MS = 2000;

function discard(): void {
  // Bytes of a request already refused.
}

function clientErrorBody(error: ConnectionError) {
  switch (error.code) {
    // Node counts the request line with the headers, so a very long URL ends here too, not in the router.
    case 'HPE_HEADER_OVERFLOW':
      return errorBody(
        431,
        'BadRequest',
        `The request line and headers together exceed the ${maxHeaderSize} bytes the server reads`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorBody(408, 'BadRequest', 'The request was not received in time');
    default:
      return errorBody(400, 'BadRequest', 'The request could not be parsed as HTTP');
  }
}
