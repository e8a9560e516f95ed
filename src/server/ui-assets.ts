// The files of the page at `/ui` (docs/api.md "GET /ui"): plain HTML, CSS and JavaScript kept in `src/server/ui/`,
// shipped in the package as they are (package.json `files`) and read from there, so that nothing is built for them
// and nothing is fetched from elsewhere. This module sits two levels below the package root both as TypeScript
// (`src/server/`) and once compiled (`dist/server/`): the same relative path finds them from either.
// They are read on the first request for the page, not at start: a daemon nobody looks at does not hold them.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

const ASSET_DIR = new URL('../../src/server/ui/', import.meta.url);

const SCRIPT = 'text/javascript; charset=utf-8';

/**
 * Every file the page is made of, with the type it is served as; nothing else is served from the directory. The
 * script is one module per view (`app.js` imports the others), each fetched as `/ui/assets/<file>`.
 */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': SCRIPT,
  'http.js': SCRIPT,
  'dom.js': SCRIPT,
  'live.js': SCRIPT,
  'list-page.js': SCRIPT,
  'doctor-page.js': SCRIPT,
  'matrix-page.js': SCRIPT,
  'agent-page.js': SCRIPT,
  'skill-page.js': SCRIPT,
  'skill-files.js': SCRIPT,
  'style.css': 'text/css; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

export interface UiAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

const cache = new Map<string, Promise<UiAsset>>();

/** The asset of that file name, or undefined when the page has no such file. */
export function uiAsset(file: string): Promise<UiAsset> | undefined {
  if (!Object.hasOwn(ASSET_TYPES, file)) return undefined;
  let asset = cache.get(file);
  if (asset === undefined) {
    asset = readFile(new URL(file, ASSET_DIR)).then((body) => withTag(body, ASSET_TYPES[file]!));
    // A failed read (a broken install) is tried again by the next request rather than remembered.
    asset.catch(() => cache.delete(file));
    cache.set(file, asset);
  }
  return asset;
}

/** The page itself, saying which optional routes this daemon answers so that the page does not probe for them. */
export async function uiPage(features: readonly string[]): Promise<UiAsset> {
  const page = await uiAsset('index.html')!;
  const html = page.body.toString('utf8').replace('data-features=""', `data-features="${features.join(' ')}"`);
  return withTag(Buffer.from(html, 'utf8'), page.contentType);
}

function withTag(body: Buffer, contentType: string): UiAsset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, contentType, etag };
}
