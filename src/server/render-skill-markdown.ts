// A SKILL.md body as HTML for the page at `/ui` (docs/api.md "GET /ui"). The HTML goes into the page as it is, so
// what a skill author writes must not be able to act in the reader's browser:
// - raw HTML in the markdown (`<script>`, `<img onerror=…>`, `<iframe>`) is escaped into text (`html: false`);
// - links and images with a `javascript:`, `vbscript:`, `file:` or `data:` target are not made into links at all
//   (markdown-it's own link validation, tightened below to refuse `data:` images too);
// - an image is only ever loaded from this daemon: a relative one through the file route, a remote one (which would
//   tell another server who reads the skill, and when) is shown as text instead;
// - a relative link opens the skill's file through the file route, an absolute one leaves with no referrer.
// The page's Content-Security-Policy (`default-src 'self'`) is the second wall: even an attribute that slipped
// through could neither run script nor load anything from elsewhere.
//
// markdown-it is loaded on the first render only: a daemon whose page nobody opens does not hold it
// (docs/performance.md, idle memory).

import { posix } from 'node:path';
import type { MarkdownIt, RendererRule } from 'markdown-it';

type RenderRule = RendererRule;

/** `scheme:` or `//host`: anything that is not a path inside the skill. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const PROTOCOL_RELATIVE = /^[\\/]{2}/;
const REFUSED_SCHEME = /^\s*(?:javascript|vbscript|file|data):/i;

export interface RenderTarget {
  /** The skill whose body this is: relative links and images point into its files. */
  name: string;
  /** The workspace the page shows (`?cwd=`), carried on the links it makes. */
  cwd: string | undefined;
}

let loading: Promise<MarkdownIt> | undefined;

/** The body (frontmatter already removed) as sanitised HTML. */
export async function renderSkillMarkdown(body: string, target: RenderTarget): Promise<string> {
  const md = await markdownIt();
  return md.render(body, { target });
}

function markdownIt(): Promise<MarkdownIt> {
  loading ??= import('markdown-it').then(({ default: MarkdownItClass }) => configure(new MarkdownItClass()));
  return loading;
}

function configure(md: MarkdownIt): MarkdownIt {
  md.set({ html: false, linkify: false, typographer: false });
  const validateLink = md.validateLink.bind(md);
  // markdown-it lets `data:image/png;…` through; the page's policy would refuse to load it anyway, so it is plain text.
  md.validateLink = (url: string) => !REFUSED_SCHEME.test(url) && validateLink(url);
  const image: RenderRule = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    if (!isInsideSkill(src)) {
      return `<span class="remote-image">[image not loaded: ${md.utils.escapeHtml(alt || src)}]</span>`;
    }
    token.attrSet('src', fileRoute(targetOf(env), skillFilePath(src)));
    token.attrSet('alt', alt);
    token.attrSet('loading', 'lazy');
    return self.renderToken(tokens, index, options);
  };
  md.renderer.rules.image = image;
  const linkOpen: RenderRule = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const href = String(token.attrGet('href') ?? '');
    if (href.startsWith('#')) return self.renderToken(tokens, index, options);
    if (isInsideSkill(href) && climbsOut(href)) {
      // `../other/SKILL.md`: the browser would resolve the `..` away and open another skill's file; shown as text.
      token.tag = 'span';
      token.attrs = [
        ['class', 'outside-link'],
        ['title', `outside the skill: ${href}`],
      ];
      const close = tokens.findIndex((each, at) => at > index && each.type === 'link_close');
      if (close !== -1) tokens[close]!.tag = 'span';
      return self.renderToken(tokens, index, options);
    }
    if (isInsideSkill(href)) {
      const path = skillFilePath(href);
      token.attrSet('href', fileRoute(targetOf(env), path));
      // The page opens it in its file viewer, with the token the page holds. The path is given decoded, as the
      // skill's listing names the file: the page encodes each segment once when it reads it (`my file.md`, never
      // the `my%2520file.md` of a path encoded twice).
      token.attrSet('data-skill-file', path);
    } else {
      token.attrSet('rel', 'noopener noreferrer nofollow');
    }
    return self.renderToken(tokens, index, options);
  };
  md.renderer.rules.link_open = linkOpen;
  return md;
}

function targetOf(env: unknown): RenderTarget {
  return (env as { target: RenderTarget }).target;
}

function isInsideSkill(url: string): boolean {
  return url !== '' && !HAS_SCHEME.test(url) && !PROTOCOL_RELATIVE.test(url) && !url.startsWith('/');
}

/** True when the path, read lexically, leaves the skill's directory (`../x`, `a/../../x`). */
function climbsOut(url: string): boolean {
  return posix.normalize(safeDecode(pathPart(url))).startsWith('..');
}

/** `./docs/a.md#part?x` → `docs/a.md`: the file, without the fragment or query a link may carry. */
function pathPart(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  return path.replace(/^(?:\.\/)+/, '');
}

/**
 * `./references/my%20file.md#part` → `references/my file.md`: the file a link or image names, each segment decoded
 * once. markdown-it percent-encodes a target (`my file.md` and `é.md` arrive as `my%20file.md` and `%C3%A9.md`, an
 * author's own `%20` is kept), so decoding once gives the file's name whichever way the author wrote it.
 */
function skillFilePath(url: string): string {
  return pathPart(url)
    .split('/')
    .filter((segment) => segment !== '')
    .map(safeDecode)
    .join('/');
}

/** The file route of a decoded path: each segment encoded exactly once (docs/api.md "GET /skill/{name}…"). */
function fileRoute(target: RenderTarget, path: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  const query = target.cwd === undefined ? '' : `?cwd=${encodeURIComponent(target.cwd)}`;
  return `/skill/${encodeURIComponent(target.name)}/${encoded}${query}`;
}

/** A segment that does not decode (markdown-it escapes a lone `%`, so none should) is kept as it stands. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
