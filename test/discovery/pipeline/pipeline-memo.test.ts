// A discovery through a ScanMemo updates the previous answer: records replaced in place when the re-scanned
// directories give the same candidates, steps 2–5 over the candidates sharing a name or realpath with those that
// moved, and the whole §5 pipeline when the shortcut cannot vouch for the answer. The random sequences of
// test/live-index/incremental-equivalence.test.ts cover the common edits; these are the cases only a crafted tree reaches.

import assert from 'node:assert/strict';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkillChange, discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { createScanMemo } from '../../../src/discovery/scan/scan-memo.js';
import { createSkillFileCache } from '../../../src/discovery/scan/skill-file-cache.js';
import type { DiscoveryContext, DiscoveryResult, SkillDiscovery } from '../../../src/discovery/types.js';
import { diffSnapshots } from '../../../src/live-index/diff-snapshots.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { SK, writeTree } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-pipeline-memo-');

function comparable(result: DiscoveryResult) {
  const { skills, warnings, collisions, diagnostics, scannedDirs, repoRoot, skillRealPaths } = result;
  // A reload's map may be layered on the previous one (layered-map.ts): compared by its entries.
  return { skills, warnings, collisions, diagnostics, scannedDirs, repoRoot, skillRealPaths: new Map(skillRealPaths) };
}

/** Discovers through the memo after invalidating `paths`, and checks the answer against a fresh discovery. */
async function rediscover(
  ctx: DiscoveryContext,
  memo: ReturnType<typeof createScanMemo>,
  cache: ReturnType<typeof createSkillFileCache>,
  paths: string[],
): Promise<DiscoveryResult> {
  return (await rediscoverChange(ctx, memo, cache, paths)).result;
}

/** `rediscover`, with what the updated answer says it changed. */
async function rediscoverChange(
  ctx: DiscoveryContext,
  memo: ReturnType<typeof createScanMemo>,
  cache: ReturnType<typeof createSkillFileCache>,
  paths: string[],
): Promise<SkillDiscovery> {
  assert.equal(memo.invalidate(paths), true);
  const discovery = await discoverSkillChange(ctx, { scans: memo, cache });
  assert.deepEqual(comparable(discovery.result), comparable(await discoverSkills(ctx)));
  return discovery;
}

describe('discovery through a ScanMemo: updated answers', () => {
  it('a description edit replaces one record and hands on every other list, a managed one sanitised', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/a/SKILL.md': SK({ name: 'a', description: 'one' }),
      'P/.claude/skills/a/SKILL.md': SK({ name: 'a', description: 'shadowed' }),
      'H/.musepi/agent/managed-skills/m/SKILL.md': SK({ name: 'm', description: 'managed' }),
    });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    const first = await discoverSkills(ctx, { scans: memo, cache });
    const managed = join(base, 'H/.musepi/agent/managed-skills/m/SKILL.md');
    await writeFile(managed, SK({ name: 'm', description: 'uses <b>tags</b> and `code`' }));
    const second = await rediscover(ctx, memo, cache, [managed]);
    assert.equal(second.skills[1]?.description, 'uses btags/b and code');
    assert.equal(second.skills[0], first.skills[0]);
    assert.equal(second.collisions, first.collisions);
    assert.equal(second.warnings, first.warnings);
    assert.equal(second.skillRealPaths, first.skillRealPaths);
  });

  it('an update names the winners it changed, and a diff of those names alone equals the full diff', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/a/SKILL.md': SK({ name: 'a', description: 'one' }),
      'P/.musepi/skills/b/SKILL.md': SK({ name: 'b', description: 'two' }),
      'P/.musepi/skills/c/SKILL.md': SK({ name: 'c', description: 'three' }),
      'P/.claude/skills/b/SKILL.md': SK({ name: 'b', description: 'shadowed' }),
    });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    let previous = await discoverSkills(ctx, { scans: memo, cache });
    const dir = join(base, 'P/.musepi/skills');
    const steps: Array<[() => Promise<unknown>, string[], string[]]> = [
      // An edit (replaced in place), a skill added, its directory renamed (same name, another path), one removed with
      // its shadowed candidate taking its place (the closed set).
      [
        () => writeFile(join(dir, 'a/SKILL.md'), SK({ name: 'a', description: 'edited' })),
        [join(dir, 'a/SKILL.md')],
        ['a'],
      ],
      [() => writeTree(dir, { 'd/SKILL.md': SK({ name: 'd', description: 'four' }) }), [join(dir, 'd')], ['d']],
      [() => rename(join(dir, 'c'), join(dir, 'e')), [join(dir, 'c'), join(dir, 'e')], ['c']],
      [() => rm(join(dir, 'b'), { recursive: true }), [join(dir, 'b')], ['b']],
    ];
    for (const [change, paths, named] of steps) {
      await change();
      const { result: next, change: lastChange } = await rediscoverChange(ctx, memo, cache, paths);
      assert.equal(lastChange?.previous, previous.skills);
      assert.equal(lastChange?.next, next.skills);
      for (const name of named) assert.ok(lastChange?.names.has(name), name);
      const hinted = diffSnapshots(previous, next, lastChange);
      assert.deepEqual(hinted, diffSnapshots(previous, next));
      previous = next;
    }
    assert.deepEqual(
      previous.skills.map((skill) => `${skill.name}:${skill.description}`),
      ['a:edited', 'b:shadowed', 'c:three', 'd:four'],
    );
  });

  it('a link moved to an identical file runs the pipeline: the realpath decides the collision reason', async () => {
    const text = SK({ name: 'x', description: 'same' });
    const { base, ctx } = await workspace({ 'lib/one/SKILL.md': text, 'lib/two/SKILL.md': text });
    await writeTree(base, { 'P/.musepi/skills/.keep': '', 'H/.claude/skills/.keep': '' });
    const link = join(base, 'P/.musepi/skills/link');
    await symlink(join(base, 'lib/one'), link);
    await symlink(join(base, 'lib/two'), join(base, 'H/.claude/skills/other'));
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    const first = await discoverSkills(ctx, { scans: memo, cache });
    assert.equal(first.collisions[0]?.shadowed[0]?.reason, 'precedence');
    await rm(link);
    await symlink(join(base, 'lib/two'), link);
    const second = await rediscover(ctx, memo, cache, [link]);
    // The record itself is unchanged (same name, path and text), only its realpath moved.
    assert.equal(second.skills[0], first.skills[0]);
    assert.equal(second.collisions[0]?.shadowed[0]?.reason, 'duplicate-file');
  });

  it('a skills directory that turns into a file runs the pipeline: its warning appears with no skill moved', async () => {
    const { base, ctx } = await workspace({ 'P/.musepi/skills/a/SKILL.md': SK({ name: 'a', description: 'one' }) });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    const dir = join(base, 'P/.claude/skills');
    await discoverSkills(ctx, { scans: memo, cache });
    await writeTree(base, { 'P/.claude/skills': 'not a directory' });
    const second = await rediscover(ctx, memo, cache, [dir]);
    assert.equal(second.warnings.length, 1);
    assert.match(second.warnings[0]?.message ?? '', /^\[Claude Code\] Failed to read skills directory: /);
  });

  it('a rename, or a name taken by another provider, re-decides the collisions', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/a/SKILL.md': SK({ name: 'a', description: 'one' }),
      'P/.claude/skills/b/SKILL.md': SK({ name: 'b', description: 'two' }),
    });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    const first = await discoverSkills(ctx, { scans: memo, cache });
    const file = join(base, 'P/.claude/skills/b/SKILL.md');
    await writeFile(file, SK({ name: 'a', description: 'now a collision' }));
    const second = await rediscover(ctx, memo, cache, [file]);
    assert.notEqual(second.collisions, first.collisions);
    assert.deepEqual(
      second.skills.map((skill) => skill.name),
      ['a'],
    );
    await writeFile(file, SK({ name: 'b', description: 'back' }));
    const third = await rediscover(ctx, memo, cache, [file]);
    assert.deepEqual(third.collisions, []);
  });

  it('a closed set follows the realpaths of records that came in earlier reloads', async () => {
    // The set is closed through every candidate's (name, realpath) pair, kept from reload to reload: a link added in
    // one reload ties its name to another skill's file, and a later reload touching that name must reach that skill.
    const { base, ctx } = await workspace({
      'P/.musepi/skills/b/SKILL.md': SK({ description: 'the file' }),
      'H/.claude/skills/q/SKILL.md': SK({ description: 'unrelated' }),
    });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    await discoverSkills(ctx, { scans: memo, cache });
    const claude = join(base, 'H/.claude/skills');
    await writeTree(base, { 'H/.claude/skills/r/SKILL.md': SK({ description: 'another' }) });
    await rediscover(ctx, memo, cache, [join(claude, 'r'), join(claude, 'r/SKILL.md')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    // `y` is `b`'s file under another name: a realpath duplicate of `b`.
    await symlink(join(base, 'P/.musepi/skills/b'), join(claude, 'y'));
    await rediscover(ctx, memo, cache, [join(claude, 'y')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    // Another `y`, in a directory of its own: deciding `y` again needs `b`, reached only through the link's realpath.
    await writeTree(base, { 'P/.agents/skills/y/SKILL.md': SK({ description: 'own y' }) });
    const last = await rediscover(ctx, memo, cache, [join(base, 'P/.agents/skills/y')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    assert.deepEqual(
      last.collisions.map((collision) => [collision.name, collision.shadowed.map((loser) => loser.reason)]),
      [['b', ['duplicate-file']]],
    );
  });

  it('a skill added, renamed or removed re-decides only the names and realpaths it shares', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/a/SKILL.md': SK({ name: 'a', description: 'one' }),
      'H/.claude/skills/b/SKILL.md': SK({ name: 'b', description: 'two' }),
      'H/.claude/skills/c/SKILL.md': SK({ name: 'c', description: 'three' }),
      'H/.musepi/agent/managed-skills/m/SKILL.md': SK({ name: 'm', description: 'managed' }),
    });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    const first = await discoverSkills(ctx, { scans: memo, cache });
    const claude = join(base, 'H/.claude/skills');
    // A new skill under a name the project already has: it loses on precedence, a collision appears.
    await writeTree(base, { 'H/.claude/skills/a2/SKILL.md': SK({ name: 'a', description: 'shadowed' }) });
    const second = await rediscover(ctx, memo, cache, [join(claude, 'a2'), join(claude, 'a2/SKILL.md')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    assert.equal(second.skills[0], first.skills[0]);
    assert.deepEqual(
      second.collisions.map((collision) => [collision.name, collision.shadowed.map((loser) => loser.reason)]),
      [['a', ['precedence']]],
    );
    // A link to `b` under another name: a realpath duplicate, reported under `b`.
    await symlink(join(claude, 'b'), join(claude, 'z-link'));
    const third = await rediscover(ctx, memo, cache, [join(claude, 'z-link')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    assert.deepEqual(
      third.collisions.map((collision) => [collision.name, collision.shadowed.map((loser) => loser.reason)]),
      [
        ['a', ['precedence']],
        ['b', ['duplicate-file']],
      ],
    );
    // A managed skill taken by an authored name, then a rename and a removal.
    await mkdir(join(claude, 'm'));
    await writeFile(join(claude, 'm/SKILL.md'), SK({ name: 'm', description: 'authored' }));
    await rediscover(ctx, memo, cache, [join(claude, 'm'), join(claude, 'm/SKILL.md')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    await rename(join(claude, 'c'), join(claude, 'c-moved'));
    await rediscover(ctx, memo, cache, [join(claude, 'c'), join(claude, 'c-moved')]);
    await rm(join(claude, 'a2'), { recursive: true });
    const last = await rediscover(ctx, memo, cache, [join(claude, 'a2')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    assert.deepEqual(
      last.skills.map((skill) => skill.name),
      ['a', 'b', 'c', 'm'],
    );
  });

  it("a closed set takes its names' candidates in discovery order from every sorted list of every run", async () => {
    const tree: Record<string, string> = {
      'P/.claude/skills/x1/SKILL.md': SK({ name: 'x', description: 'project one' }),
      'P/.claude/skills/x2/SKILL.md': SK({ name: 'x', description: 'project two' }),
      'H/.claude/skills/x/SKILL.md': SK({ name: 'x', description: 'user' }),
      'H/.claude/skills/x-a/SKILL.md': SK({ name: 'x-a', description: 'user, a name after x' }),
      'P/.musepi/skills/y/SKILL.md': SK({ name: 'y', description: 'native' }),
    };
    // Neighbours on both sides of every name, so that a binary search has somewhere to go wrong; upper-case ones sort
    // after `x` by their lower case and before it by code unit.
    for (let i = 0; i < 40; i++) {
      tree[`H/.claude/skills/w${i}/SKILL.md`] = SK({ name: `w-${String(i).padStart(2, '0')}`, description: 'before' });
      tree[`P/.claude/skills/z${i}/SKILL.md`] = SK({ name: `z-${String(i).padStart(2, '0')}`, description: 'after' });
    }
    for (let i = 0; i < 120; i++) {
      tree[`H/.claude/skills/Z${i}/SKILL.md`] = SK({ name: `Zed-${String(i).padStart(3, '0')}`, description: 'after' });
    }
    // A skill file outside every skills directory, which entries named after themselves (no `name:`) link to.
    tree['H/library/shared/SKILL.md'] = SK({ description: 'shared by links' });
    const { base, ctx } = await workspace(tree);
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    await discoverSkills(ctx, { scans: memo, cache });
    const user = join(base, 'H/.claude/skills');
    const project = join(base, 'P/.claude/skills');
    // A third `x` sorted first in its directory, then a link there giving y's file to the claude provider.
    await writeTree(base, { 'H/.claude/skills/x0/SKILL.md': SK({ name: 'x', description: 'user zero' }) });
    const added = await rediscover(ctx, memo, cache, [join(user, 'x0'), join(user, 'x0/SKILL.md')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    const x = added.collisions.find((collision) => collision.name === 'x');
    assert.equal(x?.shadowed.length, 3);
    await symlink(join(base, 'P/.musepi/skills/y'), join(project, 'y-link'));
    await rediscover(ctx, memo, cache, [join(project, 'y-link')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    // A link sorted after another one to the same file, in the same directory: the set, seeded with the later name,
    // must still take the earlier one first (it holds the file; the later one is its duplicate).
    await symlink(join(base, 'H/library/shared'), join(user, 'b-link'));
    await rediscover(ctx, memo, cache, [join(user, 'b-link')]);
    await symlink(join(base, 'H/library/shared'), join(user, 'c-link'));
    const linked = await rediscover(ctx, memo, cache, [join(user, 'c-link')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    assert.deepEqual(
      linked.collisions
        .filter((collision) => collision.name === 'b-link')
        .map((collision) => collision.shadowed.map((loser) => [loser.filePath, loser.reason])),
      [[[join(user, 'c-link/SKILL.md'), 'duplicate-file']]],
    );
    // The winner of `x` removed, then the first of the project's.
    const winner = added.skills.find((skill) => skill.name === 'x')!;
    await rm(winner.baseDir, { recursive: true });
    await rediscover(ctx, memo, cache, [winner.baseDir]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    await rm(join(project, 'x1'), { recursive: true });
    const last = await rediscover(ctx, memo, cache, [join(project, 'x1')]);
    assert.equal(memo.pipeline?.reached, 'closed-set');
    assert.equal(last.skills.filter((skill) => skill.name === 'x').length, 1);
  });

  it('a custom name-collision warning involved runs the whole pipeline', async () => {
    const { base, ctx } = await workspace({ 'H/custom/x/SKILL.md': SK({ name: 'x', description: 'first' }) });
    ctx.settings.skills.customDirectories = ['~/custom', '~/custom2'];
    await writeTree(base, { 'H/custom2/.keep': '' });
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    await discoverSkills(ctx, { scans: memo, cache });
    await writeTree(base, { 'H/custom2/x/SKILL.md': SK({ name: 'x', description: 'second' }) });
    const second = await rediscover(ctx, memo, cache, [join(base, 'H/custom2/x')]);
    assert.equal(memo.pipeline?.reached, 'pipeline');
    assert.equal(second.warnings.length, 1);
    await rm(join(base, 'H/custom2/x'), { recursive: true });
    const third = await rediscover(ctx, memo, cache, [join(base, 'H/custom2/x')]);
    assert.equal(memo.pipeline?.reached, 'pipeline');
    assert.deepEqual(third.warnings, []);
  });
});
