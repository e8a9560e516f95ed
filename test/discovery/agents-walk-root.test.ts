// walkRoot (docs/agents.md "Vocabulary"): the real paths it gives a directory without asking `realpath` are the ones
// `realpath` gives, through links to directories inside and outside the root and a root reached through a link.

import assert from 'node:assert/strict';
import { chmod, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRoot, Layout } from '../../src/discovery/agents/types.js';
import { walkRoot } from '../../src/discovery/agents/walk-root.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const SKILL = SK({ name: 'x', description: 'y' });

async function tree(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(dir, {
    'root/a/SKILL.md': SKILL,
    'root/a/refs/deep/SKILL.md': SKILL,
    'root/b': { symlink: '../outside/b' },
    'root/c': { symlink: 'a' },
    'root/d/e/SKILL.md': SKILL,
    'root/d/e/f/g/SKILL.md': SKILL,
    'root/h': { symlink: 'missing' },
    'root/i/SKILL.md': { symlink: '../../outside/SKILL.md' },
    'outside/b/SKILL.md': SKILL,
    'outside/b/sub/c/SKILL.md': SKILL,
    'outside/SKILL.md': SKILL,
    'via-link': { symlink: 'root' },
  });
  return dir;
}

const LAYOUTS: Record<string, Layout> = {
  canonical: { maxDepth: null, minDepth: 1, hidden: 'skip', fileLinks: true, canonical: true },
  'as found': { maxDepth: null, minDepth: 1, hidden: 'skip', fileLinks: true, canonical: false },
  'every path, depth 3': {
    maxDepth: 3,
    minDepth: 0,
    hidden: 'walk',
    fileLinks: false,
    canonical: false,
    everyPath: true,
  },
  leaf: { maxDepth: 6, minDepth: 1, hidden: 'skip', fileLinks: true, canonical: false, leaf: true, pathOrder: true },
};

describe('walkRoot: real paths', () => {
  for (const [what, layout] of Object.entries(LAYOUTS)) {
    it(`every file's and directory's real path is realpath's (${what})`, async (t) => {
      const dir = await tree(t);
      for (const path of [join(dir, 'root'), join(dir, 'via-link')]) {
        const walk = await walkRoot({ path, scope: 'project', layout } as AgentRoot);
        assert.ok(walk.found.length >= 4, `${walk.found.length} files found`);
        for (const found of walk.found) {
          assert.equal(found.realPath, await realpath(found.lexicalPath), found.lexicalPath);
          const lexicalDir = dirname(found.lexicalPath);
          assert.equal(found.baseDir, layout.canonical ? await realpath(lexicalDir) : lexicalDir);
        }
        for (const real of walk.reals) assert.equal(real, await realpath(real));
      }
    });
  }

  it('gives the files, directories and reals of a walk through links (canonical layout)', async (t) => {
    const dir = await tree(t);
    const real = await realpath(dir);
    const walk = await walkRoot({ path: join(dir, 'via-link'), scope: 'project', layout: LAYOUTS.canonical! });
    assert.equal(walk.shown, join(real, 'root'));
    assert.deepEqual(
      walk.found.map((found) => [found.filePath, found.realPath]),
      [
        [join(real, 'root/a/SKILL.md'), join(real, 'root/a/SKILL.md')],
        [join(real, 'outside/b/SKILL.md'), join(real, 'outside/b/SKILL.md')],
        [join(real, 'root/i/SKILL.md'), join(real, 'outside/SKILL.md')],
        [join(real, 'root/d/e/SKILL.md'), join(real, 'root/d/e/SKILL.md')],
        [join(real, 'root/a/refs/deep/SKILL.md'), join(real, 'root/a/refs/deep/SKILL.md')],
        [join(real, 'outside/b/sub/c/SKILL.md'), join(real, 'outside/b/sub/c/SKILL.md')],
        [join(real, 'root/d/e/f/g/SKILL.md'), join(real, 'root/d/e/f/g/SKILL.md')],
      ],
    );
    assert.deepEqual(walk.reals, [
      join(real, 'root'),
      join(real, 'outside/b'),
      join(real, 'outside/b/sub'),
      join(real, 'outside/b/sub/c'),
    ]);
    assert.deepEqual(walk.innerDirs, [
      join(dir, 'via-link/a'),
      join(dir, 'via-link/b'),
      join(dir, 'via-link/d'),
      join(dir, 'via-link/a/refs'),
      join(dir, 'via-link/b/sub'),
      join(dir, 'via-link/d/e'),
      join(dir, 'via-link/d/e/f'),
    ]);
  });

  it('a directory that can be listed but not searched gives no sub-directories', {
    skip: process.getuid?.() === 0 ? 'the superuser searches every directory' : false,
  }, async (t) => {
    const dir = await tree(t);
    const locked = join(dir, 'root/d');
    await chmod(locked, 0o600);
    try {
      const walk = await walkRoot({ path: join(dir, 'root'), scope: 'project', layout: LAYOUTS['as found']! });
      assert.deepEqual(walk.innerDirs, [
        join(dir, 'root/a'),
        join(dir, 'root/b'),
        join(dir, 'root/a/refs'),
        join(dir, 'root/b/sub'),
      ]);
      assert.deepEqual(
        walk.found.map((found) => found.lexicalPath),
        [
          join(dir, 'root/a/SKILL.md'),
          join(dir, 'root/b/SKILL.md'),
          join(dir, 'root/i/SKILL.md'),
          join(dir, 'root/a/refs/deep/SKILL.md'),
          join(dir, 'root/b/sub/c/SKILL.md'),
        ],
      );
    } finally {
      // Searchable again, so that the temporary tree can be removed.
      await chmod(locked, 0o755);
    }
  });
});
