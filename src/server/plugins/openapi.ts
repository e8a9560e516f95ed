// The OpenAPI document, generated from the routes' TypeBox schemas (@fastify/swagger), served as `/openapi.json`
// with its UI at `/docs`. `scripts/write-openapi.ts` writes the same document to `openapi/openapi.json`.

import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { applyOpenApiConventions, type OpenApiObject } from '../openapi-conventions.js';
import { hoistNamedSchemas } from '../openapi-named-schemas.js';

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
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Discovers AI coding agents’ skills and serves a hot-reloaded index. Every route takes an optional ' +
          '`cwd` query parameter selecting the workspace. Errors are `{ statusCode, code, error, message }`. ' +
          'The contract in words: docs/api.md.',
      },
      // Relative, so it resolves against the address the document was fetched from: the page at `/docs` then calls
      // the daemon that served it on any host and port (`--port 0`, `localhost`), as docs/api.md "GET /openapi.json"
      // says. A generated client is given the daemon's address as its base.
      servers: [{ url: '/', description: 'The daemon that serves this document' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Needed when the daemon has a token (`--token-file`); always needed off loopback',
          },
          queryToken: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'The same token as a query parameter, for EventSource clients that cannot set headers',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: documentRoute,
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const finished = hoistNamedSchemas(applyOpenApiConventions(documentObject.openapiObject as OpenApiObject));
      return finished as typeof documentObject.openapiObject;
    },
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
 * `/skill/:name/*` is documented as `/skill/{name}/{path}` (docs/api.md names it so): the router's `*` is no parameter
 * name a client generator can use. A route without the wildcard that shares its params schema with one
 * (`/skill/:name`) documents only the parameters its path has.
 */
function documentRoute({ schema, url }: { schema: FastifySchema; url: string }): {
  schema: FastifySchema;
  url: string;
} {
  const params = schema?.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const { '*': wildcard, ...properties } = params?.properties ?? {};
  if (!url.endsWith('/*')) {
    if (wildcard === undefined) return { schema, url };
    const required = params?.required?.filter((key) => key !== '*');
    return { url, schema: { ...schema, params: { ...params, properties, ...(required ? { required } : {}) } } };
  }
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
