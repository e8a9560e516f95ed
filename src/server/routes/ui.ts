// `GET /ui`, `/ui/skill/{name}`, `/ui/assets/{file}`: the read-only page of docs/api.md "GET /ui", and
// `GET /ui/render/{name}`: a skill's SKILL.md body as sanitised HTML for it.
//
// The page and its assets hold no data of any workspace, so they answer without the token (a browser cannot send
// one when it opens a URL): the page takes the token from the URL fragment and sends it on every request for data,
// which the usual guards check. The Host, peer and Origin guards apply to the page as to every route.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { isSkillsdError, SkillsdError } from '../../discovery/errors.js';
import { openSkillFile, resolveSkillResource } from '../../discovery/files/resolve-skill-url.js';
import { MAX_SKILL_FILE_BYTES } from '../../discovery/scan/read-skill-file.js';
import { stripFrontmatter } from '../../discovery/skill-invocation.js';
import type { Skill } from '../../discovery/types.js';
import { renderedHtmlJson } from '../render-cache.js';
import { CwdQuery, errorResponses } from '../schemas/common.js';
import {
  UiAssetOk,
  UiAssetParams,
  UiPageOk,
  UiPageQuery,
  UiRenderParams,
  UiRenderResponse,
  UiSkillPageParams,
} from '../schemas/ui.js';
import { type UiAsset, uiAsset, uiPage } from '../ui-assets.js';
import { matchesIfNoneMatch } from './conditional.js';

/**
 * Only the page's own files, and no frame around it: a skill body that got markup past the renderer could still
 * neither run script nor load anything from another origin, and no other site can frame the page to click it.
 * Images may also come from `blob:`: with a token, the page reads a skill's images itself, with the token as a header,
 * and shows them from object URLs that only its own script makes (http.js `readWithToken`), rather than put the token
 * into their addresses.
 */
export const UI_CSP =
  "default-src 'self'; img-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** When a render refused for the bodies already waiting (render-cache.ts) may be asked again, in seconds. */
const RENDER_RETRY_AFTER_S = '5';
/** Optional routes the page uses when this daemon answers them (`GET /search`, `GET /agents`). */
const OPTIONAL_FEATURES = ['search', 'agents'] as const;

export const uiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  let features: string[] | undefined;
  const sendPage = async (ifNoneMatch: string | undefined, reply: FastifyReply) => {
    // Asked once: the routes are all registered before the first request.
    features ??= OPTIONAL_FEATURES.filter((feature) => app.hasRoute({ method: 'GET', url: `/${feature}` }));
    return sendAsset(reply, await uiPage(features), ifNoneMatch);
  };

  const pageSchema = {
    summary: 'The page: the skills of the workspace, collisions and the doctor, live',
    querystring: UiPageQuery,
    response: { 200: UiPageOk, ...errorResponses(403) },
  };
  app.get('/ui', { schema: { operationId: 'getUiPage', ...pageSchema } }, (request, reply) =>
    sendPage(request.headers['if-none-match'], reply),
  );
  app.get('/ui/', { schema: { hide: true, ...pageSchema } }, (request, reply) =>
    sendPage(request.headers['if-none-match'], reply),
  );
  app.get(
    '/ui/skill/:name',
    {
      schema: {
        operationId: 'getUiSkillPage',
        ...pageSchema,
        summary: 'The page of one skill: source, frontmatter, rendered body, files, shadowed candidates',
        params: UiSkillPageParams,
      },
    },
    (request, reply) => sendPage(request.headers['if-none-match'], reply),
  );

  app.get(
    '/ui/assets/:file',
    {
      schema: {
        operationId: 'getUiAsset',
        summary: 'A script, style sheet or icon of the page, shipped in the package',
        params: UiAssetParams,
        // Taken like everywhere, and the same files for every workspace.
        querystring: UiPageQuery,
        response: { 200: UiAssetOk, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const asset = uiAsset(request.params.file);
      if (asset === undefined) return reply.callNotFound();
      return sendAsset(reply, await asset, request.headers['if-none-match']);
    },
  );

  app.get(
    '/ui/render/:name',
    {
      schema: {
        operationId: 'renderSkillBody',
        summary: 'A skill’s SKILL.md body as sanitised HTML, for the page',
        description:
          'Read through the same checks as `GET /skill/{name}`; raw HTML is escaped, links with a script or data ' +
          'target are left as text, remote images are not loaded.',
        params: UiRenderParams,
        querystring: CwdQuery,
        response: { 200: UiRenderResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const { workspace, snapshot } = await app.workspaceView(request.query.cwd);
      // The links carry the workspace as the registry names it, so every spelling of one `?cwd=` shares one render.
      const cwd = request.query.cwd === undefined || request.query.cwd === '' ? undefined : workspace.cwd;
      // The file route's resolution and open: the same containment and link checks as `GET /skill/{name}`.
      const resource = await resolveSkillResource(snapshot.skills as Skill[], name, undefined, {
        profile: snapshot.profile,
        symlinks: app.getSettings().symlinks,
        knownRealPath: (filePath: string) => snapshot.knownRealPath(filePath),
        pluginRoot: (filePath: string) => snapshot.pluginRoot(filePath),
        skillNamed: (skillName: string) => snapshot.skill(skillName),
      });
      if (resource.kind !== 'file') throw new SkillsdError('NotAFile', `Not a file: ${resource.path}`);
      const { handle, stat } = await openSkillFile(resource);
      let text: string;
      try {
        const length = Math.min(stat.size, MAX_SKILL_FILE_BYTES);
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
        text = buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
      // Rendered and escaped off the event loop, once per content (render-cache.ts): 503 `Overloaded` when too many
      // other bodies wait for their render.
      const html = await renderedHtmlJson(stripFrontmatter(text), { name, cwd }).catch((error: unknown) => {
        if (isSkillsdError(error) && error.code === 'Overloaded') reply.header('retry-after', RENDER_RETRY_AFTER_S);
        throw error;
      });
      return sendRendered(reply, name, snapshot.generation, html, stat.size > MAX_SKILL_FILE_BYTES);
    },
  );
};

/** `{ name, generation, html, truncated }` in the order of its schema, put together around the kept `html`. */
function sendRendered(
  reply: FastifyReply,
  name: string,
  generation: number,
  html: Buffer,
  truncated: boolean,
): FastifyReply {
  const head = Buffer.from(`{"name":${JSON.stringify(name)},"generation":${generation},"html":`, 'utf8');
  const tail = Buffer.from(`,"truncated":${truncated}}`, 'utf8');
  return reply.type('application/json; charset=utf-8').send(Buffer.concat([head, html, tail]));
}

function sendAsset(reply: FastifyReply, asset: UiAsset, ifNoneMatch: string | undefined): FastifyReply {
  reply
    .header('content-security-policy', UI_CSP)
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .header('etag', asset.etag);
  if (matchesIfNoneMatch(ifNoneMatch, asset.etag)) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}
