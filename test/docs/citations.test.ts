// The repository explains itself: a comment or test that cites a document cites one of docs/, and the section it
// names exists there. A citation is `docs/<file>.md §<n>` (a numbered section such as `§5` or `§4a`),
// `docs/<file>.md §<Heading words>` or `docs/<file>.md "<Heading words>"`.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;
const SOURCE_DIRS = ['src', 'test', 'bench', 'scripts'];
const SOURCE_FILE = /\.(ts|mjs|js|sh)$/;
// Built from parts, so that this file does not cite them itself.
const OUTSIDE = new RegExp(`\\b(${['SKILLS', 'API', 'MCP', 'FINDINGS', 'STYLE', 'AGENT-VIEWS'].join('|')})\\.md\\b`);
const CITATION = /(?<=^|[\s([])docs\/([a-z0-9-]+\.md)(?: §([0-9]+[a-z]?)| §([^\s,;:)*'`"][^,;:)*'`"]*)| "([^"]+)")?/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (SOURCE_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

/** The headings of a docs file, without `#`, backticks and emphasis. */
function headings(file: string): string[] {
  return readFileSync(join(root, 'docs', file), 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => plain(line.replace(/^#+ /, '')));
}

function plain(text: string): string {
  return text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
}

/** A named citation names a heading when one starts with the cited words (or the words run on past it). */
function namesHeading(cited: string, all: readonly string[]): boolean {
  const words = plain(cited).replace(/[.…]+$/, '');
  return all.some((heading) => heading.startsWith(words) || (words.startsWith(heading) && heading.length > 2));
}

const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(root, dir)));
const docs = new Set(readdirSync(join(root, 'docs')));

describe('citations of documents', () => {
  it('cite only documents the repository holds', () => {
    const outside = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (OUTSIDE.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(outside, []);
  });

  it('name a docs file that exists and a section it has', () => {
    const broken: string[] = [];
    const cache = new Map<string, string[]>();
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const match of line.matchAll(CITATION)) {
            const [, doc = '', numbered, named, quoted] = match;
            const where = `${relative(root, file)}:${index + 1}: ${match[0]}`;
            if (!docs.has(doc)) {
              broken.push(`${where} (no docs/${doc})`);
              continue;
            }
            const all = cache.get(doc) ?? headings(doc);
            cache.set(doc, all);
            if (numbered !== undefined && !all.some((heading) => heading.startsWith(`${numbered}. `))) {
              broken.push(`${where} (no section ${numbered})`);
            }
            const words = named ?? quoted;
            if (words !== undefined && !namesHeading(words, all)) broken.push(`${where} (no such heading)`);
          }
        });
    }
    assert.deepEqual(broken, []);
  });
});
