// `GET /health`: answers even before the first index (status `starting`), and without a token, so that liveness
// probes work (the security plugin leaves this route open).
// `GET /health/ready` and `GET /health/live`: the probes of an orchestrator (docs/deploy.md §Probes), open and cheap
// (no workspace is opened, nothing is read from disk). Ready: the default workspace has its first index, its watcher
// (or poller) runs, and the daemon is not shedding load; a Service sends no traffic to a pod before that. Live: the
// process answers; it stays 200 under load, so that an overloaded pod is drained, not restarted.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isSkillsdError, SkillsdError } from '../../discovery/errors.js';
import { CwdQuery, errorResponses } from '../schemas/common.js';
import { HealthResponse, LiveResponse, ReadyResponse } from '../schemas/health.js';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness, and the state of the default workspace (or of `cwd`)',
        querystring: CwdQuery,
        response: { 200: HealthResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const cwd = request.query.cwd;
      const overloaded = app.isUnderPressure();
      const server = { eventStreams: app.eventStreams.size, overloaded };
      // Server-wide, like the two above: a client comparing generations (`skillsd wait`) needs to know what they are.
      const generationMode = app.registry.settings.server.generation ?? 'counter';
      // While every other route answers 503 `Overloaded`, `ok` would be untrue: the status says so too.
      const truthful = <T extends { status: string }>(health: T) =>
        overloaded && health.status === 'ok' ? { ...health, status: 'overloaded' as const } : health;
      if (cwd === undefined) return { ...truthful(app.registry.health()), generationMode, ...server };
      // A workspace opened by this very request gets the usual short wait; still building → `starting`.
      await app.workspaceView(cwd).catch((error: unknown) => {
        if (!isSkillsdError(error) || error.code !== 'NotReady') throw error;
      });
      return { ...truthful(app.registry.health(await app.registry.get(cwd))), generationMode, ...server };
    },
  );

  app.get(
    '/health/ready',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: first index built, watcher running, not shedding load (503 `NotReady` otherwise)',
        response: { 200: ReadyResponse, ...errorResponses(503) },
      },
    },
    async () => {
      const reason =
        app.registry.notReadyReason() ?? (app.isUnderPressure() ? 'the daemon is shedding load' : undefined);
      if (reason !== undefined) throw new SkillsdError('NotReady', `Not ready: ${reason}`);
      const health = app.registry.health();
      return {
        status: 'ready' as const,
        generation: health.generation,
        skills: health.skills,
        watchMode: health.watchMode,
      };
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers',
        // Open, and never shed: only the Host, Origin and peer guards refuse it.
        response: { 200: LiveResponse, 403: errorResponses()[403] },
      },
    },
    async () => ({ status: 'live' as const, uptimeS: Math.floor(process.uptime()) }),
  );
};
