// One digest cache for the daemon: the archive route's ETags and the MCP face's `resources[].digest` read each
// unchanged file once (file-digests.ts).

import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { createFileDigests, type FileDigests } from '../../discovery/files/file-digests.js';

declare module 'fastify' {
  interface FastifyInstance {
    fileDigests: FileDigests;
  }
}

const fileDigests: FastifyPluginAsync = async (app) => {
  app.decorate('fileDigests', createFileDigests());
};

export const fileDigestsPlugin = fp(fileDigests, { name: 'skillsd-file-digests', fastify: '5.x' });
