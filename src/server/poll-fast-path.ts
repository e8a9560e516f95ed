// `GET /skills` polls answered before Fastify's pipeline. Editors and agents poll the unfiltered list of the default
// workspace with `If-None-Match`, and for that request Fastify's fixed per-request work (a Request and a Reply, a
// child logger, the onRequest hooks, querystring validation, the onSend hook) cost more than half of what a bare
// node:http server spends on the same answer (docs/performance.md, HTTP). This handler sits in front of Fastify's
// own request handler and answers such a poll itself, byte for byte as the `/skills` route would (status, headers,
// body) and with the same log line, but only when every guard on Fastify's path would let the request through:
// - the exact target `/skills` (no query string, no absolute form) and method GET, no request body;
// - no `Origin` header (the Origin allow-list, CORS headers and `Vary` stay with the security plugin), and no
//   `Sec-Fetch-Site` marking another site's page;
// - no `Accept-Version` header (Fastify's router reads it as a version constraint: left to it);
// - not closing (503 `NotReady`), not shedding load (503 `Overloaded`, the pressure plugin's own state);
// - the Host allow-list, the local peer check and the bearer token pass, by the same functions the security hooks
//   call;
// - the default workspace is open and indexed (otherwise the route waits for it or answers 503).
// Anything else goes to Fastify untouched, so every refusal keeps its exact docs/api.md answer.

import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { WorkspaceView } from './plugins/workspaces.js';
import { type AppLogger, type CompletedLineWriter, completedLineWriter } from './request-line.js';
import { logRequestLine, requestLine, roundMs } from './request-log.js';
import { bearerToken, type SecurityChecks } from './security-checks.js';
import { SKILLS_CACHE_CONTROL, SKILLS_CONTENT_TYPE, skillsListAnswer } from './skills-list-answer.js';

export interface PollFastPathOptions {
  /** The app's logger (`app.log`): Fastify's request loggers are its children with a `reqId` binding. */
  log: AppLogger;
  /** The request id sequence Fastify's `genReqId` also draws from. */
  nextRequestId: () => string;
  isClosing: () => boolean;
  isUnderPressure: () => boolean;
  /** The security plugin's checks; undefined when the app runs without that plugin. */
  security: SecurityChecks | undefined;
  /** The default workspace when it is open and indexed (the workspaces plugin's `readyDefaultView`). */
  readyDefaultView: () => WorkspaceView | undefined;
  /** Told of every answer this path gives (status, seconds), as the app's metrics count Fastify's. */
  onAnswered?: (status: number, seconds: number) => void;
}

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

const POLL_TARGET = '/skills';
/** The poll is of the unfiltered list. */
const NO_FILTER = {};

export class PollFastPath {
  /** How many requests this path answered (the rest went to Fastify). */
  answered = 0;

  private readonly writeCompleted: CompletedLineWriter;

  constructor(private readonly options: PollFastPathOptions) {
    this.writeCompleted = completedLineWriter(options.log, 'GET', POLL_TARGET);
  }

  /** Answers `request` and returns true, or returns false having touched neither the request nor the response. */
  tryAnswer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.url !== POLL_TARGET || request.method !== 'GET') return false;
    const started = performance.now();
    const headers = request.headers;
    if (headers.origin !== undefined || headers['accept-version'] !== undefined || hasBody(headers)) return false;
    const options = this.options;
    if (options.isClosing() || options.isUnderPressure()) return false;
    if (options.security !== undefined && !admitted(options.security, request, POLL_TARGET)) return false;
    const view = options.readyDefaultView();
    if (view === undefined) return false;

    this.answered++;
    const reqId = options.nextRequestId();
    const answer = skillsListAnswer(view.snapshot, NO_FILTER, headers['if-none-match']);
    // Header names, values and order as the app's first hook, the route's `reply.header(...)` calls and Fastify's
    // `send` produce them, all given to `writeHead`: with no header set before it, node:http writes them as given
    // instead of storing each one through `setHeader` first.
    if (answer.notModified) {
      response.writeHead(304, {
        'x-content-type-options': 'nosniff',
        etag: answer.etag,
        'cache-control': SKILLS_CACHE_CONTROL,
      });
      response.end();
    } else {
      response.writeHead(200, {
        'x-content-type-options': 'nosniff',
        etag: answer.etag,
        'cache-control': SKILLS_CACHE_CONTROL,
        'content-type': SKILLS_CONTENT_TYPE,
        'content-length': String(answer.body.length),
      });
      response.end(answer.body);
    }
    options.onAnswered?.(response.statusCode, (performance.now() - started) / 1000);
    const log = options.log;
    if (typeof log.isLevelEnabled === 'function' && log.isLevelEnabled('info')) {
      // Fastify writes the line on 'finish', which comes a tick after the kernel took the last byte. When it already
      // has (nothing left in the socket's buffer: a 304 or a small body, always on a poll), the answer is finished in
      // all but the event, and the line is written now, without two listeners and a closure per request.
      if (response.socket?.writableLength === 0) {
        this.writeCompleted(reqId, response.statusCode, roundMs(performance.now() - started));
      } else {
        logWhenFinished(log, this.writeCompleted, response, reqId, started);
      }
    }
    return true;
  }
}

/**
 * Puts the fast path in front of the server's request handler (Fastify's, the one listener it registered), so
 * the server, its options (timeouts, header limits) and its `clientError` handler stay exactly as Fastify set them.
 * (Fastify's `serverFactory` option would do the same but gives up the second server Fastify opens for a
 * `localhost` bind, on the other address family; that second server keeps Fastify's handler alone.)
 */
export function installPollFastPath(server: Server, fastPath: PollFastPath): void {
  const listeners = server.listeners('request');
  const fastify = listeners[0] as RequestHandler | undefined;
  if (listeners.length !== 1 || fastify === undefined) {
    throw new Error(`expected one request handler on the HTTP server, found ${listeners.length}`);
  }
  server.removeListener('request', fastify);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!fastPath.tryAnswer(request, response)) fastify(request, response);
  });
}

function admitted(security: SecurityChecks, request: IncomingMessage, target: string): boolean {
  const headers = request.headers;
  if (security.hostRefusal(headers.host, target) !== undefined) return false;
  if (security.peerRefusal(request.socket) !== undefined) return false;
  if (security.fetchSiteRefusal(headers['sec-fetch-site']) !== undefined) return false;
  if (!security.tokenRequired) return true;
  const authorization = headers.authorization;
  return authorization !== undefined && security.tokenMatches(bearerToken(authorization));
}

/** A GET with a body is rare and never a poll: Fastify decides what to do with it. */
function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The line Fastify's log controller writes (request-log.ts), when the response has finished, as Fastify does. */
function logWhenFinished(
  log: AppLogger,
  writeCompleted: CompletedLineWriter,
  response: ServerResponse,
  reqId: string,
  started: number,
): void {
  const done = (error?: Error) => {
    response.removeListener('finish', done);
    response.removeListener('error', done);
    const responseTimeMs = roundMs(performance.now() - started);
    if (!error) {
      writeCompleted(reqId, response.statusCode, responseTimeMs);
      return;
    }
    logRequestLine(log.child({ reqId }), requestLine('GET', POLL_TARGET, response.statusCode, responseTimeMs), error);
  };
  response.on('finish', done);
  response.on('error', done);
}
