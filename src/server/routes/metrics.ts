// `GET /metrics`: the Prometheus text exposition of the daemon's metrics (metrics.ts, docs/deploy.md §Metrics). Behind
// the token unless `server.metrics` is `public` (the security plugin decides).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../schemas/common.js';

export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics (text exposition format 0.0.4)',
        description:
          'Requests by route and status, latency histograms, index size, reloads, SSE and MCP sessions, watcher ' +
          'mode, shed requests, and the process figures. Needs the token unless `server.metrics` is `public`.',
        response: {
          // The exposition format's own media type; errors are JSON like everywhere else.
          200: {
            description: 'The metrics, `text/plain; version=0.0.4`',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...errorResponses(),
        },
      },
    },
    async (_request, reply) => {
      const { body, contentType } = await app.metrics.scrape();
      reply.header('cache-control', 'no-store').type(contentType);
      return body;
    },
  );
};
