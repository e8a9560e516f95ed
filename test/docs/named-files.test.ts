// The docs name the files that hold each behaviour (docs/api.md "Where the code is", docs/discovery.md "Where the code
// is", docs/architecture.md): every source path they name in backticks exists, so a file moved or deleted cannot
// leave a page pointing at nothing.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;
const PAGES = [
  'README.md',
  'SECURITY.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** A repository path in backticks: `src/…`, `test/…`, `bench/…`, `scripts/…`, a file or a folder ending in `/`. */
const NAMED = /`((?:src|test|bench|scripts)\/[A-Za-z0-9_./-]+)`/g;
/** Named but generated, or a path inside a skill in an example (`scripts/run.sh`), not of the repository. */
const NOT_OURS = /^(bench\/\.fixtures\/|bench\/results\/|scripts\/run\.sh$)/;
/** The sections that name a page's files without their folder, and the folder those names are under. */
const TABLE_FOLDERS: Record<string, string> = { 'docs/discovery.md': 'src/discovery' };

function tableNames(page: string, text: string): string[] {
  const folder = TABLE_FOLDERS[page];
  if (folder === undefined) return [];
  const section = text.slice(text.indexOf('## Where the code is'));
  return [...section.matchAll(/`([a-z0-9-]+(?:\/[a-z0-9-]+)*(?:\.ts|\/))`/g)]
    .map((match) => match[1] as string)
    .filter((name) => !name.startsWith('src/'))
    .map((name) => `${folder}/${name}`);
}

describe('files the docs name', () => {
  it('exist, for every source path a page names in backticks', () => {
    const missing: string[] = [];
    let named = 0;
    for (const page of PAGES) {
      const text = readFileSync(join(root, page), 'utf8');
      const paths = [...[...text.matchAll(NAMED)].map((match) => match[1] as string), ...tableNames(page, text)];
      for (const path of paths) {
        named += 1;
        // A glob or a pattern (`test/**/*.ts`, `src/cli/commands/<name>.ts`) names no one file.
        if (/[*<>]/.test(path) || NOT_OURS.test(path)) continue;
        if (!existsSync(join(root, path.replace(/\.js$/, '.ts'))) && !existsSync(join(root, path))) {
          missing.push(`${page}: ${path}`);
        }
      }
    }
    assert.ok(named > 100, `only ${named} paths found: the pattern no longer reads the pages`);
    assert.deepEqual(missing, []);
  });
});
