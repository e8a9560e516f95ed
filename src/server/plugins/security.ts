// The request guards of docs/api.md §Security defaults, as onRequest hooks run before routing reaches any handler:
// 1. Host allow-list (DNS rebinding), 2. local peer (another user of this machine, without a token),
// 3. Origin allow-list, Fetch Metadata and CORS (other web pages reading the daemon or making it act),
// 4. bearer token (other local users and remote clients). Each refusal throws a SkillsdError that the app's error
// handler turns into `{ statusCode, code, error, message }`.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SkillsdError } from '../../discovery/errors.js';
import { bearerToken, quote, type SecurityChecks, type SecurityOptions, securityChecks } from '../security-checks.js';

export type { SecurityOptions } from '../security-checks.js';

// DELETE and the Mcp-* headers: a page an allowed origin serves may speak MCP over Streamable HTTP (`/mcp`).
const ALLOW_METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';
const ALLOW_HEADERS =
  'Authorization, Content-Type, Accept, If-None-Match, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version';
const EXPOSE_HEADERS = 'ETag, Last-Modified, Retry-After, X-Skill-Source-Path';
const PREFLIGHT_MAX_AGE_S = '600';
/**
 * Routes that answer without a token: liveness probes (Docker HEALTHCHECK, Kubernetes probes) cannot carry one. Only
 * their plain form is open: `/health?cwd=DIR` would let anyone make the daemon index a directory and report on it.
 */
export const OPEN_ROUTES = new Set(['/health', '/health/ready', '/health/live']);
/**
 * The page at `/ui` and its files: static, holding no workspace's data, and opened by a browser that cannot send a
 * token with a navigation. The page sends the token it was given (in the URL fragment) on each request for data,
 * where it is checked as usual (docs/api.md "GET /ui").
 */
export const PAGE_ROUTES = new Set(['/ui', '/ui/', '/ui/skill/:name', '/ui/assets/:file']);
/** `/metrics` is open only when `server.metrics` is `public` (a Prometheus that scrapes without credentials). */
const METRICS_ROUTE = '/metrics';
/** EventSource cannot set headers, so the SSE route also takes `?token=`. */
export const QUERY_TOKEN_ROUTES = new Set(['/events']);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The checks these hooks run, for the poll fast path (poll-fast-path.ts): one instance, so both paths judge a
     * request by the same Host policy, allow-list and token digest.
     */
    securityChecks: SecurityChecks;
  }
  interface FastifyRequest {
    /** The request's Origin when it is allowed: responses then carry CORS headers for it. */
    corsOrigin?: string;
  }
}

const security: FastifyPluginAsync<SecurityOptions> = async (app, options) => {
  const checks = securityChecks(options);
  app.decorate('securityChecks', checks);
  app.decorateRequest('corsOrigin', undefined);

  // Callback-style hooks: no promise per request on the polling hot path (docs/performance.md).
  app.addHook('onRequest', (request, _reply, done) => {
    done(checks.hostRefusal(request.headers.host, request.raw.url ?? ''));
  });

  app.addHook('onRequest', (request, _reply, done) => {
    done(checks.peerRefusal(request.raw.socket));
  });

  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    const secFetchSite = request.headers['sec-fetch-site'];
    if (origin === undefined) {
      // A page's `<img src=…>` or `<script src=…>` sends no Origin, but the browser marks it cross-site.
      done(checks.fetchSiteRefusal(secFetchSite));
      return;
    }
    // The daemon's own pages (`/docs` trying `POST /invocations`): the Host already passed the allow-list, and an
    // origin naming that same authority is the daemon itself. Same-origin: no CORS headers are needed.
    if (isOwnOrigin(origin, request.headers.host)) {
      done();
      return;
    }
    if (!isAllowedOrigin(origin, options.getServerSettings().allowedOrigins)) {
      done(new SkillsdError('ForbiddenOrigin', `Origin ${quote(origin)} is not allowed`));
      return;
    }
    request.corsOrigin = origin;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    // The CORS preflight: browsers never send credentials with it, so it is answered before the token check (a hook
    // that sends does not call `done`: the request goes no further).
    reply.header('access-control-allow-methods', ALLOW_METHODS);
    reply.header('access-control-allow-headers', ALLOW_HEADERS);
    reply.header('access-control-max-age', PREFLIGHT_MAX_AGE_S);
    // Chrome's Private Network Access asks before a public page may call a loopback address: an origin the user
    // listed in server.allowedOrigins may.
    if (request.headers['access-control-request-private-network'] === 'true') {
      reply.header('access-control-allow-private-network', 'true');
    }
    reply.code(204).send();
  });

  if (checks.tokenRequired) {
    app.addHook('onRequest', async (request, reply) => {
      if (reply.sent) return;
      const route = request.routeOptions.url;
      if (route !== undefined && OPEN_ROUTES.has(route) && !hasQueryKey(request, 'cwd')) return;
      if (route !== undefined && PAGE_ROUTES.has(route)) return;
      if (route === METRICS_ROUTE && options.getServerSettings().metrics === 'public') return;
      const presented = presentedToken(request, route);
      if (presented === undefined) {
        reply.header('www-authenticate', 'Bearer');
        throw new SkillsdError('Unauthorized', 'A bearer token is required: send "Authorization: Bearer <token>"');
      }
      if (!checks.tokenMatches(presented)) {
        reply.header('www-authenticate', 'Bearer');
        throw new SkillsdError('Unauthorized', 'The bearer token is wrong');
      }
    });
  }

  // Shared caches must not serve one origin's answer to another; appended last so a route's own Vary survives.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.corsOrigin !== undefined) reply.header('vary', withVaryOrigin(reply.getHeader('vary')));
    done(null, payload);
  });
};

export const securityPlugin = fp(security, { name: 'skillsd-security', fastify: '5.x' });

/** `http://<Host>` or `https://<Host>` (behind a TLS proxy that keeps the Host). */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || host === '') return false;
  const wanted = origin.toLowerCase();
  const authority = host.toLowerCase();
  return wanted === `http://${authority}` || wanted === `https://${authority}`;
}

/** `Origin: null` (sandboxed iframes, file://, redirects) matches nothing: it could be any page. */
function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  if (origin === 'null') return false;
  const wanted = origin.toLowerCase();
  return allowed.some((entry) => entry.trim().replace(/\/+$/, '').toLowerCase() === wanted);
}

function presentedToken(request: FastifyRequest, route: string | undefined): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) return bearerToken(header);
  if (route !== undefined && QUERY_TOKEN_ROUTES.has(route)) {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token === 'string') return token;
  }
  return undefined;
}

function hasQueryKey(request: FastifyRequest, key: string): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query !== undefined && query !== null && Object.hasOwn(query, key);
}

function withVaryOrigin(current: ReturnType<FastifyReply['getHeader']>): string {
  const values = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (!values.some((value) => value.toLowerCase() === 'origin' || value === '*')) values.push('Origin');
  return values.join(', ');
}
