// The Fastify app as a plugin tree: the hooks every answer goes through (nosniff, closing, metrics), the one error
// handler, then the guards (security, pressure), the services (workspaces, event streams, file digests, OpenAPI), and
// one route file per resource. Nothing here creates the HTTP server or touches a socket: the instance, its server
// options and the defences of its sockets are listen.ts's; listening and signals belong to the CLI.

import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { capEcho } from '../answers/echo.js';
import { SkillsdError } from '../discovery/errors.js';
import type { Settings } from '../discovery/types.js';
import { DEFAULT_READY_WAIT_MS } from '../live-index/ready-wait.js';
import type { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import type { ConnectionLimits } from './connection-limits.js';
import { EncodingPollFastPath } from './encoding-poll-fast-path.js';
import { errorBody, isDescriptorShortage, toErrorResponse } from './errors.js';
import { SkillsdMetrics } from './metrics.js';
import { compressionPlugin } from './plugins/compression.js';
import { eventStreamsPlugin } from './plugins/event-streams.js';
import { fileDigestsPlugin } from './plugins/file-digests.js';
import { openApiPlugin } from './plugins/openapi.js';
import { defaultPressureOptions, type PressureOptions, pressurePlugin } from './plugins/pressure.js';
import { type SecurityOptions, securityPlugin } from './plugins/security.js';
import { workspacesPlugin } from './plugins/workspaces.js';
import type { PollFastPath } from './poll-fast-path.js';
import { pathOf } from './request-log.js';
import { agentsRoutes } from './routes/agents.js';
import { collisionsRoutes } from './routes/collisions.js';
import { contextFilesRoutes } from './routes/context-files.js';
import { doctorRoutes } from './routes/doctor.js';
import { eventsHeadRoute, eventsRoutes } from './routes/events.js';
import { healthRoutes } from './routes/health.js';
import { invocationsRoutes } from './routes/invocations.js';
import { type McpHttpOptions, mcpHttpPlugin } from './routes/mcp.js';
import { metricsRoutes } from './routes/metrics.js';
import { promptRoutes } from './routes/prompt.js';
import { searchRoutes } from './routes/search.js';
import { skillFilesRoutes } from './routes/skill-files.js';
import { skillsRoutes } from './routes/skills.js';
import { uiRoutes } from './routes/ui.js';

export interface AppOptions {
  registry: WorkspaceRegistry;
  /** The settings in force; read per request. */
  getSettings: () => Settings;
  /** Host/Origin/token guards (docs/api.md §Security defaults); omitted only by callers that guard elsewhere. */
  security?: SecurityOptions;
  logger?: FastifyServerOptions['logger'] | Logger;
  /** How long a request waits for a workspace's first index before 503 `NotReady` (default 2000 ms). */
  readyWaitMs?: number;
  /** SSE `: ping` interval (default 15000 ms). */
  heartbeatMs?: number;
  /** SSE `retry:` value (default 3000 ms). */
  retryMs?: number;
  /** Serve the OpenAPI UI at `/docs` (default true). */
  docs?: boolean;
  /** Load-shedding thresholds over `defaultPressureOptions()` (SECURITY.md §Overload). */
  pressure?: Partial<PressureOptions>;
  /** Answer `GET /skills` polls before Fastify's pipeline (poll-fast-path.ts; default true). */
  pollFastPath?: boolean;
  /** Timeouts and the connection cap over `defaultConnectionLimits()` (SECURITY.md §4, exhaustion). */
  connections?: Partial<ConnectionLimits>;
  /** Session bounds and page size of the MCP face at `/mcp` (docs/mcp.md). */
  mcp?: Omit<McpHttpOptions, 'readyWaitMs'>;
  /** The metrics `GET /metrics` exposes (default: a new set for this app). */
  metrics?: SkillsdMetrics;
}

/** What the instance gives the tree besides the caller's options. */
export interface AppPluginOptions extends AppOptions {
  /** The request id sequence of the instance (listen.ts), shared with the poll fast path. */
  nextRequestId: () => string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The daemon's Prometheus metrics. */
    metrics: SkillsdMetrics;
    /** The `GET /skills` poll fast path, or undefined when it is switched off. */
    pollFastPath: PollFastPath | undefined;
  }
}

export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_RETRY_MS = 3000;
/** How long `close()` lets requests in flight finish before it drops their connections. */
export const CLOSE_GRACE_MS = 1500;
export const NOSNIFF = 'nosniff';
/** Seconds a client should wait after a 503 `NotReady`. */
const RETRY_AFTER_S = '1';
/** Seconds a client should wait after running the daemon out of descriptors. */
const OVERLOAD_RETRY_AFTER_S = '5';

async function skillsdApp(app: FastifyInstance, options: AppPluginOptions): Promise<void> {
  const { nextRequestId } = options;
  // Every answer says what it is and may not be sniffed into something else (HTML from a JSON error that echoes a
  // path, for one). Set on the raw response so that every way out (errors, SSE, the swagger UI) carries it.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader('x-content-type-options', NOSNIFF);
    done();
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Requests in flight get a grace period; then every connection goes, so closing is bounded (docs/api.md: SIGTERM
    // exits within 5 s) even when a client holds a connection open without using it.
    const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
    force.unref();
    app.server.once('close', () => clearTimeout(force));
  });
  // Callback-style hooks (here and in the guards) run without a promise per request: `GET /skills` polls are the hot
  // path (docs/performance.md).
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new SkillsdError('NotReady', 'The daemon is shutting down') : undefined);
  });

  app.setErrorHandler((error, request, reply) => {
    const body = toErrorResponse(error);
    if (isDescriptorShortage(error)) {
      // Out of descriptors is overload: shed load until it passes (pressure.ts), never a crash or a bare 500.
      app.reportDescriptorShortage();
      request.log.warn({ err: error }, 'out of file descriptors: refusing a request');
      reply.header('retry-after', OVERLOAD_RETRY_AFTER_S);
    } else if (body.statusCode >= 500 && body.code !== 'NotReady') {
      request.log.error({ err: error }, 'request failed');
    }
    if (body.code === 'NotReady') reply.header('retry-after', RETRY_AFTER_S);
    if (body.code === 'Unauthorized') reply.header('www-authenticate', 'Bearer');
    reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.raw.url ?? '');
    reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(errorBody(404, 'NotFound', `Route ${capEcho(request.method)} ${capEcho(path)} not found`));
  });

  const metrics = options.metrics ?? new SkillsdMetrics();
  app.decorate('metrics', metrics);
  // Every answer Fastify sends, by route pattern (bounded labels); unmatched paths share one label.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  const stopCountingBuilds = options.registry.onBuild((seconds, changed) => metrics.observeReload(seconds, changed));
  app.addHook('onClose', (_app, done) => {
    stopCountingBuilds();
    done();
  });

  if (options.security !== undefined) await app.register(securityPlugin, options.security);
  // After the guards: a refused Host or token is answered as such, even under load.
  await app.register(pressurePlugin, {
    ...defaultPressureOptions(),
    ...options.pressure,
    onShed: () => metrics.countShed(),
  });
  await app.register(workspacesPlugin, {
    registry: options.registry,
    getSettings: options.getSettings,
    readyWaitMs: options.readyWaitMs ?? DEFAULT_READY_WAIT_MS,
  });
  await app.register(eventStreamsPlugin, {
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    retryMs: options.retryMs ?? DEFAULT_RETRY_MS,
  });
  await app.register(fileDigestsPlugin);
  // Before every route: it decides, as each route is added, whether that route's answers are compressed.
  await app.register(compressionPlugin);
  await app.register(openApiPlugin, { ui: options.docs });

  await app.register(skillsRoutes);
  await app.register(searchRoutes);
  await app.register(skillFilesRoutes);
  await app.register(collisionsRoutes);
  await app.register(promptRoutes);
  await app.register(invocationsRoutes);
  await app.register(contextFilesRoutes);
  await app.register(healthRoutes);
  await app.register(eventsRoutes);
  await app.register(eventsHeadRoute);
  await app.register(mcpHttpPlugin, { ...options.mcp, readyWaitMs: options.readyWaitMs ?? DEFAULT_READY_WAIT_MS });
  await app.register(doctorRoutes);
  await app.register(agentsRoutes);
  await app.register(metricsRoutes);
  await app.register(uiRoutes);
  metrics.attach({
    eventStreams: () => app.eventStreams.size,
    mcpSessions: () => app.mcpSessionCount(),
    index: () => {
      const health = options.registry.health();
      return {
        skills: health.skills,
        watchMode: health.watchMode,
        workspaces: health.workspaces,
        ready: health.status === 'ok',
      };
    },
  });

  const fastPath =
    options.pollFastPath === false
      ? undefined
      : new EncodingPollFastPath({
          log: app.log,
          nextRequestId,
          isClosing: () => closing,
          isUnderPressure: () => app.isUnderPressure(),
          // The security plugin's own checks (plugins/security.ts), not a second copy of them.
          security: options.security === undefined ? undefined : app.securityChecks,
          readyDefaultView: () => app.readyDefaultView(undefined),
          onAnswered: (status, seconds) => metrics.observeRequest('GET', '/skills', status, seconds),
        });
  app.decorate('pollFastPath', fastPath);
}

/** Registered on the instance itself (not encapsulated): its decorations, hooks and handlers are the instance's. */
export const appPlugin = fp(skillsdApp, { name: 'skillsd-app', fastify: '5.x' });
