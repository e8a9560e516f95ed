// `GET /collisions`: every name more than one candidate claimed (docs/api.md).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CwdQuery, errorResponses } from '../schemas/common.js';
import { CollisionsResponse } from '../schemas/skills.js';

export const collisionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/collisions',
    {
      schema: {
        operationId: 'listCollisions',
        summary: 'Names claimed by more than one candidate, with the winner and the losers',
        querystring: CwdQuery,
        response: { 200: CollisionsResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { snapshot } = await app.workspaceView(request.query.cwd);
      return { generation: snapshot.generation, collisions: [...snapshot.collisions] };
    },
  );
};
