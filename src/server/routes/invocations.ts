// `POST /invocations`: turns what the user typed into the `/skill:<name>` message of SKILLS.md §7.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invokeSkill } from '../../discovery/skill-invocation.js';
import type { Skill } from '../../discovery/types.js';
import { errorResponses } from '../schemas/common.js';
import { InvocationBody, InvocationResponse, InvocationsQuery } from '../schemas/invocations.js';

export const invocationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/invocations',
    {
      schema: {
        summary: 'Expand a `/skill:<name>` command',
        querystring: InvocationsQuery,
        body: InvocationBody,
        response: { 200: InvocationResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { snapshot } = await app.workspaceView(request.query.cwd);
      // The skill list and the profile are the snapshot's; the command switch is the settings in force.
      const settings = { ...app.getSettings(), profile: snapshot.profile };
      return invokeSkill(request.body.text, snapshot.skills as Skill[], settings);
    },
  );
};
