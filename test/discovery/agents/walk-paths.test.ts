// walkRoot's paths (walk-root.ts `childPath`) and the listings its walks share (walk-memo.ts): the paths below a root
// are the ones `path.join` gives, whatever way the root is written, and walks of several layouts side by side over one
// set of listings (one `realpath` per directory between them) give what each gives alone (docs/agents.md "Vocabulary").

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRoot, Layout } from '../../../src/discovery/agents/types.js';
import { RootWalkMemo } from '../../../src/discovery/agents/walk-memo.js';
import { type RootWalk, walkRoot } from '../../../src/discovery/agents/walk-root.js';
import { makeTempDir, SK, writeTree } from '../../helpers/temp-tree.js';

const SKILL = SK({ name: 'x', description: 'y' });

async function tree(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(dir, {
    'root/SKILL.md': SKILL,
    'root/a/SKILL.md': SKILL,
    'root/a/refs/deep/SKILL.md': SKILL,
    'root/b': { symlink: '../outside/b' },
    'root/c': { symlink: 'a' },
    'root/d/e/SKILL.md': SKILL,
    'root/.hidden/SKILL.md': SKILL,
    'outside/b/SKILL.md': SKILL,
    'outside/b/sub/SKILL.md': SKILL,
    'x/keep': 'k',
  });
  return dir;
}

const LAYOUTS: Layout[] = [
  { maxDepth: null, minDepth: 0, hidden: 'skip', fileLinks: true, canonical: true },
  { maxDepth: null, minDepth: 0, hidden: 'walk', fileLinks: true, canonical: false, skillDirs: true },
  { maxDepth: 1, minDepth: 0, hidden: 'skip', fileLinks: true, canonical: false, descending: true, everyPath: true },
  { maxDepth: 6, minDepth: 0, hidden: 'skip', fileLinks: true, canonical: false, leaf: true, pathOrder: true },
  { maxDepth: 1, minDepth: 1, hidden: 'walk', fileLinks: true, canonical: false },
];

/** What a walk tells, without the root object each `Found` points to. */
function told(walk: RootWalk): unknown {
  const { found, ...rest } = walk;
  return {
    ...rest,
    found: found.map(({ filePath, lexicalPath, realPath, baseDir, rootShown }) => ({
      filePath,
      lexicalPath,
      realPath,
      baseDir,
      rootShown,
    })),
  };
}

describe('walkRoot paths', () => {
  it('a root written otherwise than `join` writes it gives the paths `join` gives below it', async (t) => {
    // `c` links to `a`, walked already: not walked again.
    const dir = await tree(t);
    const layout = LAYOUTS[1] as Layout;
    for (const path of [`${dir}/root/`, `${dir}/x/../root`, `${dir}//root/.`]) {
      const walk = await walkRoot({ path, scope: 'project', layout } as AgentRoot);
      assert.equal(walk.shown, path);
      assert.deepEqual(
        walk.found.map((found) => [found.filePath, found.baseDir]),
        [
          [join(path, 'SKILL.md'), path],
          [join(dir, 'root/.hidden/SKILL.md'), join(dir, 'root/.hidden')],
          [join(dir, 'root/a/SKILL.md'), join(dir, 'root/a')],
          [join(dir, 'root/b/SKILL.md'), join(dir, 'root/b')],
          [join(dir, 'root/b/sub/SKILL.md'), join(dir, 'root/b/sub')],
          [join(dir, 'root/d/e/SKILL.md'), join(dir, 'root/d/e')],
          [join(dir, 'root/a/refs/deep/SKILL.md'), join(dir, 'root/a/refs/deep')],
        ],
      );
      assert.deepEqual(walk.innerDirs, [
        join(dir, 'root/a'),
        join(dir, 'root/b'),
        join(dir, 'root/d'),
        join(dir, 'root/a/refs'),
      ]);
    }
  });

  it('walks of five layouts side by side over shared listings give what each gives alone', async (t) => {
    const dir = await tree(t);
    const roots = LAYOUTS.map((layout) => ({ path: join(dir, 'root'), scope: 'project', layout }) as AgentRoot);
    const alone: unknown[] = [];
    for (const root of roots) alone.push(told(await walkRoot(root)));
    const memo = new RootWalkMemo();
    const shared = await Promise.all(roots.map((root) => memo.walk(root)));
    assert.deepEqual(shared.map(told), alone);
    // The same again from the kept listings, each walk taking them in another order.
    const again = new RootWalkMemo();
    const reversed = await Promise.all(
      roots
        .slice()
        .reverse()
        .map((root) => again.walk(root)),
    );
    assert.deepEqual(reversed.reverse().map(told), alone);
  });
});
