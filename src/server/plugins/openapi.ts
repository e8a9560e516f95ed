// The OpenAPI document, generated from the routes' TypeBox schemas (@fastify/swagger), served as `/openapi.json`
// with its UI at `/docs`. `scripts/write-openapi.ts` writes the same document to `openapi/openapi.json`.

import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export interface OpenApiOptions {
  /** Serve the UI at `/docs` (default true). */
  ui?: boolean;
}

const openApi: FastifyPluginAsync<OpenApiOptions> = async (app, options) => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'skillsd',
        version,
        description:
          'Discovers AI coding agents’ skills and serves a hot-reloaded index. Every route takes an optional ' +
          '`cwd` query parameter selecting the workspace. Errors are `{ statusCode, code, error, message }`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Needed when the daemon has a token' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: documentWildcard,
  });
  if (options.ui !== false) {
    await app.register(fastifySwaggerUi, {
      routePrefix: '/docs',
      // The page may run only its own scripts (hashes of its inline ones), and no other site may frame it: a framed
      // `/docs` could be clicked into sending requests (clickjacking). It calls the daemon on its own origin, which
      // the Origin guard allows. Plain HTTP on loopback cannot be upgraded, and the UI's validator badge would send
      // the document's URL to a third party: both are left out.
      staticCSP: true,
      transformStaticCSP: (header: string) =>
        header
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
          .replace(' validator.swagger.io', '')
          .replace(/ ?upgrade-insecure-requests;/, ''),
    });
  }
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};

/**
 * `/skill/:name/*` is documented as `/skill/{name}/{path}` (API.md names it `{path…}`): the router's `*` is no
 * parameter name a client generator can use.
 */
function documentWildcard({ schema, url }: { schema: FastifySchema; url: string }): {
  schema: FastifySchema;
  url: string;
} {
  if (!url.endsWith('/*')) return { schema, url };
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const { '*': wildcard, ...properties } = params?.properties ?? {};
  return {
    url: `${url.slice(0, -1)}:path`,
    schema: {
      ...schema,
      params: {
        ...params,
        properties: { ...properties, path: wildcard },
        required: [...(params?.required ?? []), 'path'],
      },
    },
  };
}

export const openApiPlugin = fp(openApi, { name: 'skillsd-openapi', fastify: '5.x' });
