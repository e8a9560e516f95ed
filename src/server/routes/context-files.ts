// `GET /context-files`: the AGENTS.md files an agent started in the workspace would read (docs/discovery.md §9).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ContextFileDiagnostic, findContextFiles } from '../../discovery/context-files.js';
import { CwdQuery, errorResponses } from '../schemas/common.js';
import { ContextFilesResponse } from '../schemas/context-files.js';

export const contextFilesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/context-files',
    {
      schema: {
        operationId: 'listContextFiles',
        summary: 'The AGENTS.md walk from the workspace upward, closest first',
        querystring: CwdQuery,
        response: { 200: ContextFilesResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { workspace, snapshot } = await app.workspaceView(request.query.cwd);
      const diagnostics: ContextFileDiagnostic[] = [];
      const files = await findContextFiles({
        home: app.registry.home,
        cwd: workspace.cwd,
        profile: snapshot.profile,
        symlinks: app.getSettings().symlinks,
        diagnostics,
      });
      return { files, diagnostics };
    },
  );
};
