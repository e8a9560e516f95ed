// `POST /invocations`: turns what the user typed into the `/skill:<name>` message of docs/discovery.md §7.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invocationAnswer } from '../../answers/invocation-answer.js';
import { SkillsdError } from '../../discovery/errors.js';
import { requestLocations } from '../request-locations.js';
import { errorResponses } from '../schemas/common.js';
import { InvocationBody, InvocationResponse, InvocationsQuery } from '../schemas/invocations.js';

export const invocationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/invocations',
    {
      schema: {
        operationId: 'expandInvocation',
        summary: 'Expand a `/skill:<name>` command',
        querystring: InvocationsQuery,
        body: InvocationBody,
        response: { 200: InvocationResponse, ...errorResponses(404, 409, 413) },
      },
      // The app's validator coerces types, as query strings need (`?hidden=false`); a JSON body has real types, and
      // coercing would take `{"text":["/skill:pdf"]}` or `{"text":null}` for text. Checked before validation runs.
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null | undefined;
        if (typeof body === 'object' && body !== null && 'text' in body && typeof body.text !== 'string') {
          throw new SkillsdError('BadRequest', 'body/text must be string');
        }
      },
    },
    async (request) => {
      const { snapshot } = await app.workspaceView(request.query.cwd);
      const settings = app.getSettings();
      const locations = requestLocations(request, request.query.paths, settings.server.publicUrl);
      return invocationAnswer(request.body.text, snapshot, settings, locations);
    },
  );
};
