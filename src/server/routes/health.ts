// `GET /health`: answers even before the first index (status `starting`), and without a token, so that liveness
// probes work (the security plugin leaves this route open).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isSkillsdError } from '../../discovery/errors.js';
import { CwdQuery, errorResponses } from '../schemas/common.js';
import { HealthResponse } from '../schemas/health.js';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness, and the state of the default workspace (or of `cwd`)',
        querystring: CwdQuery,
        response: { 200: HealthResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const cwd = request.query.cwd;
      const overloaded = app.isUnderPressure();
      const server = { eventStreams: app.eventStreams.size, overloaded };
      // While every other route answers 503 `Overloaded`, `ok` would be untrue: the status says so too.
      const truthful = <T extends { status: string }>(health: T) =>
        overloaded && health.status === 'ok' ? { ...health, status: 'overloaded' as const } : health;
      if (cwd === undefined) return { ...truthful(app.registry.health()), ...server };
      // A workspace opened by this very request gets the usual short wait; still building → `starting`.
      await app.workspaceView(cwd).catch((error: unknown) => {
        if (!isSkillsdError(error) || error.code !== 'NotReady') throw error;
      });
      return { ...truthful(app.registry.health(await app.registry.get(cwd))), ...server };
    },
  );
};
