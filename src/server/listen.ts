// The daemon's Fastify instance and its sockets: the server options (timeouts, the answers of the HTTP parser and
// the router in the shape of docs/api.md, request ids, the request log), the app's plugin tree (app.ts), and what
// lives below Fastify on the socket: the server guard (guard-server.ts), mirrors for the other addresses of a host
// name (mirror-server.ts) and the `GET /skills` poll fast path (poll-fast-path.ts). Ready, not yet listening: the
// caller listens (src/cli/listen-daemon.ts, or a test on port 0).

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { capEcho } from '../answers/echo.js';
import { type AppOptions, appPlugin, CLOSE_GRACE_MS, NOSNIFF } from './app.js';
import { answerClientError } from './client-error.js';
import { defaultConnectionLimits } from './connection-limits.js';
import { errorBody, toErrorResponse } from './errors.js';
import { guardServer } from './guard-server.js';
import { lazySchemaCompilers, type SchemaCompilers } from './lazy-schema-compilers.js';
import { connectionShare, createMirrorServer } from './mirror-server.js';
import { installPollFastPath } from './poll-fast-path.js';
import { requestIdSequence } from './request-ids.js';
import { PathOnlyLogController, pathOf } from './request-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Once listening, listens on one more address (another address of the same host name) with a mirror of the
     * server (mirror-server.ts); the connection cap is then split between them. Resolves to the address bound.
     */
    listenAlso(host: string, port: number): Promise<AddressInfo>;
  }
}

/**
 * `schemaCompilers`: how route schemas are compiled; on first use by default (lazy-schema-compilers.ts). Tests pass
 * eager ones (every schema compiled at start-up) or `null`, Fastify's own, to compare answers with.
 */
export async function buildApp(
  options: AppOptions,
  schemaCompilers: SchemaCompilers | null = lazySchemaCompilers(),
): Promise<FastifyInstance> {
  // One id sequence for Fastify and the poll fast path.
  const nextRequestId = requestIdSequence();
  const limits = { ...defaultConnectionLimits(), ...options.connections };
  const app = Fastify({
    ...loggerOption(options.logger),
    genReqId: nextRequestId,
    // Fastify's request lines print the query string, where the SSE token may be: logged by path only instead.
    logController: new PathOnlyLogController(),
    // Closing ends the event streams in preClose; idle keep-alive sockets are closed, busy ones finish.
    forceCloseConnections: 'idle',
    // Requests arriving while closing get our own 503 body (app.ts) instead of Fastify's.
    return503OnClosing: false,
    routerOptions: { maxParamLength: 1024 },
    // Bounded times (Fastify leaves them off): a socket that sends nothing, or a body that trickles, is closed instead
    // of holding a descriptor. `/events` streams switch the idle timeout off for their socket.
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    // What Node's HTTP parser refuses (a head over 16 KB, bytes that are not HTTP) is answered in the shape of docs/api.md.
    clientErrorHandler: answerClientError,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
    // Validators and serializers are compiled when a route first needs them, by Fastify's default compilers with the
    // options above: an idle daemon does not hold Ajv (docs/performance.md "Idle memory"). With compilers of its own
    // Fastify hands header schemas over as written instead of lower-casing their names first: ours are written in
    // lower case (a test holds them to it).
    ...(schemaCompilers === null ? {} : { schemaController: { compilersFactory: schemaCompilers } }),
    // The router refuses malformed percent-encoding before any hook runs: answer in the shape of docs/api.md.
    frameworkErrors: (error, request, reply) => {
      const path = pathOf(request.raw.url ?? '');
      const skillPath = path.startsWith('/skill/');
      const body =
        error.code === 'FST_ERR_BAD_URL'
          ? errorBody(
              400,
              skillPath ? 'InvalidPath' : 'BadRequest',
              `Malformed percent-encoding in URL: ${capEcho(path)}`,
            )
          : toErrorResponse(error);
      reply.raw.setHeader('x-content-type-options', NOSNIFF);
      (reply as FastifyReply).code(body.statusCode).type('application/json; charset=utf-8').send(body);
    },
  });

  await app.register(appPlugin, { ...options, nextRequestId });

  const mirrors: Server[] = [];
  app.decorate('listenAlso', async (host: string, port: number): Promise<AddressInfo> => {
    const share = connectionShare(limits.maxConnections, mirrors.length + 2);
    const mirror = createMirrorServer(app.server, {
      limits,
      maxConnections: share,
      log: app.log,
      onShortage: () => app.reportDescriptorShortage(),
    });
    await new Promise<void>((resolve, reject) => {
      mirror.once('error', reject);
      mirror.listen({ host, port }, () => {
        mirror.off('error', reject);
        resolve();
      });
    });
    mirrors.push(mirror);
    app.server.maxConnections = share;
    for (const each of mirrors) each.maxConnections = share;
    return mirror.address() as AddressInfo;
  });
  // The mirrors close with the app, as the first server does: no new connections, idle ones at once, the others
  // after the same grace.
  app.addHook('preClose', (done) => {
    for (const mirror of mirrors) {
      mirror.close();
      mirror.closeIdleConnections();
      const force = setTimeout(() => mirror.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      mirror.once('close', () => clearTimeout(force));
    }
    done();
  });
  app.addHook('onClose', async () => {
    await Promise.all(
      mirrors.map((mirror) =>
        mirror.listening ? new Promise((resolve) => mirror.once('close', resolve)) : Promise.resolve(),
      ),
    );
  });

  await app.ready();
  guardServer(app.server, {
    maxConnections: limits.maxConnections,
    log: app.log,
    onShortage: () => app.reportDescriptorShortage(),
  });
  if (app.pollFastPath !== undefined) installPollFastPath(app.server, app.pollFastPath);
  return app;
}

/** A ready pino instance goes in as `loggerInstance` (Fastify 5); options or booleans as `logger`. */
function loggerOption(logger: AppOptions['logger']): Pick<FastifyServerOptions, 'logger' | 'loggerInstance'> {
  if (logger === undefined) return { logger: false };
  if (isLoggerInstance(logger)) return { loggerInstance: logger as FastifyServerOptions['loggerInstance'] };
  return { logger };
}

function isLoggerInstance(logger: unknown): logger is Logger {
  return typeof logger === 'object' && logger !== null && typeof (logger as Logger).child === 'function';
}
