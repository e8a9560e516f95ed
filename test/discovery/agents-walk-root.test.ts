// walkRoot (docs/agents.md "Vocabulary"): the real paths it gives a directory without asking `realpath` are the ones
// `realpath` gives, through links to directories inside and outside the root and a root reached through a link; and
// every walk stops at the daemon's bounds (docs/api.md "Limits on walks"), keeping what it found, with a warning.

import assert from 'node:assert/strict';
import { chmod, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRoot, Layout } from '../../src/discovery/agents/types.js';
import { type RootWalkBounds, walkRoot } from '../../src/discovery/agents/walk-root.js';
import { DEFAULT_VIEW_WALK_LIMITS } from '../../src/discovery/files/walk-budget.js';
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

/** Copilot CLI's layout: recursive without a depth limit, a folder holding SKILL.md is a leaf. */
const COPILOT: Layout = {
  maxDepth: null,
  minDepth: 0,
  hidden: 'skip',
  fileLinks: true,
  canonical: false,
  leaf: true,
  pathOrder: true,
};
/** OpenCode's `.agents/skills` layout: every directory walked, hidden ones too. */
const OPENCODE: Layout = {
  maxDepth: null,
  minDepth: 0,
  hidden: 'walk',
  fileLinks: true,
  canonical: false,
  skillDirs: true,
};

function bounded(limits: Partial<RootWalkBounds['limits']>): RootWalkBounds {
  return { limits: { ...DEFAULT_VIEW_WALK_LIMITS, ...limits }, agent: 'GitHub Copilot CLI' };
}

describe("walkRoot: the daemon's bounds", () => {
  /** Five skills `a`–`e` directly in the root, and `nest/x/y/z/SKILL.md` four levels down. */
  async function bounds(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(dir, {
      'root/a/SKILL.md': SKILL,
      'root/b/SKILL.md': SKILL,
      'root/c/SKILL.md': SKILL,
      'root/d/SKILL.md': SKILL,
      'root/e/SKILL.md': SKILL,
      'root/nest/x/SKILL.md': SKILL,
      'root/nest/x/y/z/SKILL.md': SKILL,
    });
    return join(dir, 'root');
  }

  it('stops past maxEntries, keeping the files found before', async (t) => {
    const root = await bounds(t);
    // The root's six entries, then a/SKILL.md and b/SKILL.md: c/SKILL.md is the ninth entry.
    const walk = await walkRoot(
      { path: root, scope: 'project', layout: COPILOT },
      undefined,
      undefined,
      bounded({ maxEntries: 8 }),
    );
    assert.deepEqual(
      walk.found.map((found) => found.lexicalPath),
      [join(root, 'a/SKILL.md'), join(root, 'b/SKILL.md')],
    );
    assert.equal(
      walk.limitWarning,
      `[skillsd] GitHub Copilot CLI: stopped walking ${root} at 8 entries (server.viewWalkLimits.maxEntries); what ` +
        'lies past them is not in this view',
    );
  });

  it('stops past maxDirectories, keeping the files found before', async (t) => {
    const root = await bounds(t);
    // The root, a, b and c are listed; d is the fifth directory.
    const walk = await walkRoot(
      { path: root, scope: 'project', layout: COPILOT },
      undefined,
      undefined,
      bounded({ maxDirectories: 4 }),
    );
    assert.deepEqual(
      walk.found.map((found) => found.lexicalPath),
      [join(root, 'a/SKILL.md'), join(root, 'b/SKILL.md'), join(root, 'c/SKILL.md')],
    );
    assert.equal(
      walk.limitWarning,
      `[skillsd] GitHub Copilot CLI: stopped walking ${root} at 4 directories ` +
        '(server.viewWalkLimits.maxDirectories); what lies past them is not in this view',
    );
  });

  it('walks no directory deeper than maxDepth, and says so', async (t) => {
    const root = await bounds(t);
    // nest/x/y is level 3: listed; nest/x/y/z, level 4, is not.
    const walk = await walkRoot({ path: root, scope: 'project', layout: OPENCODE }, undefined, undefined, {
      limits: { ...DEFAULT_VIEW_WALK_LIMITS, maxDepth: 3 },
      agent: 'OpenCode',
    });
    assert.deepEqual(
      walk.found.map((found) => found.lexicalPath),
      ['a', 'b', 'c', 'd', 'e', 'nest/x'].map((skill) => join(root, skill, 'SKILL.md')),
    );
    assert.equal(
      walk.limitWarning,
      `[skillsd] OpenCode: stopped walking ${root} at 3 levels deep (server.viewWalkLimits.maxDepth); what lies ` +
        'deeper is not in this view',
    );
    // The same tree within the bound: everything, no warning. A leaf's folders are not walked, so Copilot CLI's layout
    // needs no level past 2 here and says nothing either.
    const whole = await walkRoot({ path: root, scope: 'project', layout: OPENCODE }, undefined, undefined, {
      limits: { ...DEFAULT_VIEW_WALK_LIMITS, maxDepth: 4 },
      agent: 'OpenCode',
    });
    assert.equal(whole.found.length, 7);
    assert.equal(whole.limitWarning, undefined);
    const leaf = await walkRoot(
      { path: root, scope: 'project', layout: COPILOT },
      undefined,
      undefined,
      bounded({ maxDepth: 2 }),
    );
    assert.equal(leaf.found.length, 6);
    assert.equal(leaf.limitWarning, undefined);
  });

  it("keeps the agent's own limit and its warning where both are passed (Codex)", async (t) => {
    const root = await bounds(t);
    const codex: Layout = {
      ...OPENCODE,
      limits: {
        dirs: 4,
        entries: 20_000,
        warning: (shown) => `skills scan reached its traversal limit (root: ${shown})`,
      },
    };
    const walk = await walkRoot(
      { path: root, scope: 'project', layout: codex },
      undefined,
      undefined,
      bounded({ maxDirectories: 4 }),
    );
    assert.equal(walk.found.length, 3);
    assert.equal(walk.limitWarning, `skills scan reached its traversal limit (root: ${root})`);
  });

  it('costs each walked directory one watch and one per folder or link in it, dot entries aside', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(dir, {
      'root/g/one/SKILL.md': SKILL,
      'root/g/two/SKILL.md': SKILL,
      'root/g/three': { symlink: 'one' },
      'root/g/.hidden/SKILL.md': SKILL,
      'root/g/notes.md': 'notes',
      'root/g/one/refs/r.md': 'r',
    });
    const root = join(dir, 'root');
    const walk = await walkRoot({ path: root, scope: 'project', layout: OPENCODE });
    assert.deepEqual(walk.innerCosts, [
      { path: join(root, 'g'), depth: 1, watches: 4 },
      { path: join(root, 'g/one'), depth: 2, watches: 2 },
    ]);
    assert.equal(walk.limitWarning, undefined);
  });
});
