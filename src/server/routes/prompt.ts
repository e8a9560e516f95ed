// `GET /prompt`: the system-prompt skills block of docs/discovery.md §8, ready to paste into a prompt.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { promptBlock } from '../../answers/prompt-answer.js';
import { requestLocations } from '../request-locations.js';
import { errorResponses } from '../schemas/common.js';
import { PromptOk, PromptQuery } from '../schemas/prompt.js';

export const promptRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/prompt',
    {
      schema: {
        operationId: 'getPrompt',
        summary: 'The skills block of the system prompt',
        description:
          'Empty unless `tools` contains `read`; `format=xml` gives the Agent Skills form. Both forms are sent as ' +
          '`text/markdown`: the block is meant to be pasted into a markdown prompt.',
        querystring: PromptQuery,
        response: { 200: PromptOk, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { cwd, paths, ...query } = request.query;
      const { snapshot } = await app.workspaceView(cwd);
      const locations = requestLocations(request, paths, app.getSettings().server.publicUrl);
      const block = promptBlock(snapshot, query, locations);
      return reply.type('text/markdown; charset=utf-8').header('cache-control', 'no-cache').send(block);
    },
  );
};
