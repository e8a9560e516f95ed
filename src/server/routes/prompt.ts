// `GET /prompt`: the system-prompt skills block of docs/discovery.md §8, ready to paste into a prompt.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { renderSkillsPrompt } from '../../discovery/skills-prompt.js';
import type { Skill } from '../../discovery/types.js';
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
      const { cwd, tools = 'read', format = 'markdown', paths } = request.query;
      const { snapshot } = await app.workspaceView(cwd);
      const block = renderSkillsPrompt(snapshot.skills as Skill[], {
        tools: tools
          .split(',')
          .map((tool) => tool.trim())
          .filter((tool) => tool !== ''),
        profile: snapshot.profile,
        format,
        locations: requestLocations(request, paths, app.getSettings().server.publicUrl),
      });
      return reply.type('text/markdown; charset=utf-8').header('cache-control', 'no-cache').send(block);
    },
  );
};
