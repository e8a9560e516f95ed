// The rules that make the OpenAPI document fit for client generators, applied to the whole document after
// @fastify/swagger has built it, so that a route gets them by being registered:
// - every operation has a unique `operationId`: the route's own (`schema.operationId`), else one derived from the
//   method and the path (`GET /doctor/{name}` → `getDoctorByName`); a HEAD twin of a GET takes the GET's id with
//   `head` for `get`;
// - every operation has one tag, from the first path segment (table below; an unknown segment is its own tag);
// - security: `bearer` applies to every operation (document level); the routes the security plugin leaves open need
//   no token (`[{}]` first: the token is optional there), and the routes that also take `?token=` say so.
// The document-level parts (servers, schemes, license) are in src/server/plugins/openapi.ts.

import { OPEN_ROUTES, PAGE_ROUTES, QUERY_TOKEN_ROUTES } from './plugins/security.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}

export interface OpenApiObject {
  paths?: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  [key: string]: unknown;
}

interface TagRule {
  tag: string;
  description: string;
}

/** Tag of each first path segment. Each tag's description is given once, where it first appears. */
const TAGS: Record<string, TagRule> = {
  skills: { tag: 'skills', description: 'The index: loaded skills, warnings, collisions, diagnostics' },
  collisions: { tag: 'skills', description: '' },
  search: { tag: 'skills', description: '' },
  skill: { tag: 'files', description: 'The files of a skill: the HTTP face of `skill://`' },
  events: { tag: 'events', description: 'Live changes of the index as Server-Sent Events' },
  prompt: { tag: 'agent-text', description: 'Texts an agent puts in front of its model' },
  invocations: { tag: 'agent-text', description: '' },
  'context-files': { tag: 'agent-text', description: '' },
  doctor: { tag: 'doctor', description: 'Why the index is what it is' },
  agents: { tag: 'agents', description: 'What each other agent would load from the same folders, and its catalog' },
  catalog: { tag: 'agents', description: '' },
  health: { tag: 'operations', description: 'Probes and counters for people, supervisors and orchestrators' },
  metrics: { tag: 'operations', description: '' },
  mcp: { tag: 'mcp', description: 'The Model Context Protocol face (Streamable HTTP)' },
  ui: { tag: 'page', description: 'The read-only web page at `/ui` and what only it reads' },
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function applyOpenApiConventions(document: OpenApiObject): OpenApiObject {
  const paths: Record<string, Record<string, Operation>> = {};
  const tags = new Set<string>();
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const out: Record<string, Operation> = {};
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) {
        out[method] = value;
        continue;
      }
      // GET and HEAD of one route share one object: give each its own before changing it.
      const operation: Operation = { ...value };
      operation.operationId = operationIdOf(method, path, operation.operationId);
      const seen = ids.get(operation.operationId);
      if (seen !== undefined) {
        throw new Error(`OpenAPI: operationId "${operation.operationId}" of ${label(method, path)} is also ${seen}'s`);
      }
      ids.set(operation.operationId, label(method, path));
      const tag = tagOf(path);
      operation.tags = [tag];
      tags.add(tag);
      const security = securityOf(path);
      if (security !== undefined) operation.security = security;
      out[method] = operation;
    }
    paths[path] = out;
  }
  return {
    ...document,
    tags: [...tags].sort().map((name) => {
      const rule = Object.values(TAGS).find((entry) => entry.tag === name && entry.description !== '');
      return rule === undefined
        ? { name, description: `The \`/${name}\` routes` }
        : { name, description: rule.description };
    }),
    paths,
  };
}

/** The route's own id (a HEAD twin: `get…` → `head…`), else `<method><Segments>[By<Param>…]`. */
export function operationIdOf(method: string, path: string, own: string | undefined): string {
  if (own !== undefined) {
    if (method !== 'head') return own;
    return own.startsWith('get') ? `head${own.slice(3)}` : `head${capitalise(own)}`;
  }
  const words = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param === null ? pascal(segment) : `By${pascal(param[1] as string)}`;
    });
  return `${method}${words.join('')}`;
}

function tagOf(path: string): string {
  const first = path.split('/')[1] ?? '';
  return TAGS[first]?.tag ?? (first.replace(/[^A-Za-z0-9-]/g, '') || 'root');
}

/**
 * Open routes answer without a token (`{}` first: no requirement), though the bearer token still works there (and
 * their `?cwd=` form needs it); routes that take `?token=` accept either scheme. Others inherit the document's `bearer`.
 */
function securityOf(path: string): Record<string, string[]>[] | undefined {
  const route = routePattern(path);
  if (OPEN_ROUTES.has(route)) return [{}, { bearer: [] }];
  // The page and its files hold no data: a browser opens them without a token (docs/api.md "GET /ui").
  if (PAGE_ROUTES.has(route)) return [{}];
  if (QUERY_TOKEN_ROUTES.has(route)) return [{ bearer: [] }, { queryToken: [] }];
  return undefined;
}

/** `/skill/{name}/{path}` → `/skill/:name/*`: the router's pattern, as the security plugin sees routes. */
function routePattern(path: string): string {
  return path.replace(/\/\{path\}$/, '/*').replace(/\{([^}]+)\}/g, ':$1');
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map(capitalise)
    .join('');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function label(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
