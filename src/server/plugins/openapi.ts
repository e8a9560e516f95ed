// The OpenAPI document, generated from the routes' TypeBox schemas (@fastify/swagger), served as `/openapi.json`
// with its UI at `/docs`, both loaded on first use. `scripts/write-openapi.ts` writes the same document to `openapi/openapi.json`.

import { readFileSync } from 'node:fs';
import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type RouteOptions,
} from 'fastify';
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI document of every route registered (built on the first call, then kept). */
    openApiDocument(): Promise<unknown>;
  }
}

/** What of a route the document is built from: @fastify/swagger reads its method, URL, schema, config and links. */
type RecordedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config' | 'constraints'> & { links?: unknown };

/** Headers of the UI's answers that the daemon's own reply sets for itself. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * The document generator (@fastify/swagger, which brings `yaml`) and the UI (@fastify/swagger-ui with
 * @fastify/static) are loaded on the first request for `/openapi.json` or `/docs`, not at start (docs/performance.md
 * "Idle memory"). Every route is recorded as it is registered, as @fastify/swagger itself does; on first use they are
 * registered again, with their schemas and without handlers, in a separate app that holds the generator and the UI:
 * the document is the one a generator registered at start would have built. `/docs` forwards to that app.
 */
const openApi: FastifyPluginAsync<OpenApiOptions> = async (app, options) => {
  const routes: RecordedRoute[] = [];
  app.addHook('onRoute', (route) => {
    // Hidden routes are not documented; `/docs` and `/openapi.json` are among them.
    if ((route.schema as { hide?: boolean } | undefined)?.hide === true) return;
    const { method, url, schema, config, constraints } = route;
    const links = (route as { links?: unknown }).links;
    routes.push({ method, url, schema, config, constraints, ...(links === undefined ? {} : { links }) });
  });
  const ui = options.ui !== false;
  let documentApp: Promise<FastifyInstance> | undefined;
  const loaded = (): Promise<FastifyInstance> => {
    documentApp ??= buildDocumentApp(routes, ui).catch((error: unknown) => {
      documentApp = undefined;
      throw error;
    });
    return documentApp;
  };
  app.addHook('onClose', async () => {
    if (documentApp !== undefined) await (await documentApp.catch(() => undefined))?.close();
  });
  app.decorate('openApiDocument', async () => (await loaded()).swagger());
  app.get('/openapi.json', { schema: { hide: true } }, async () => (await loaded()).swagger());
  if (ui) {
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = await (await loaded()).inject({
        method: request.method as 'GET' | 'HEAD',
        url: request.url,
        headers: request.headers,
      });
      reply.code(answer.statusCode);
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !OWN_HEADERS.has(name)) reply.header(name, value);
      }
      return reply.send(answer.rawPayload);
    };
    app.get('/docs', { schema: { hide: true } }, forward);
    app.get('/docs/*', { schema: { hide: true } }, forward);
  }
};

/** The app that holds the generator (and the UI) over the recorded routes; nothing listens on it. */
async function buildDocumentApp(routes: readonly RecordedRoute[], ui: boolean): Promise<FastifyInstance> {
  const [{ default: fastifySwagger }, fastifySwaggerUi] = await Promise.all([
    import('@fastify/swagger'),
    ui ? import('@fastify/swagger-ui').then((module) => module.default) : undefined,
  ]);
  const documentApp = Fastify({ logger: false });
  // The schemas are read, never used: no validator or serializer is compiled for them.
  documentApp.setValidatorCompiler(() => () => true);
  documentApp.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await documentApp.register(fastifySwagger, swaggerOptions());
  if (fastifySwaggerUi !== undefined) {
    await documentApp.register(fastifySwaggerUi, {
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
  const unanswered = async () => undefined;
  // HEAD routes were recorded as the app registered them, Fastify's own included: none is added again here.
  for (const route of routes)
    documentApp.route({ ...route, exposeHeadRoute: false, handler: unanswered } as RouteOptions);
  await documentApp.ready();
  return documentApp;
}

function swaggerOptions(): SwaggerOptions {
  return {
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
  };
}

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
