// The scans kept between discoveries: what invalidates them, and that a discovery through them equals a fresh one,
// including the realpath dedup of docs/discovery.md §5 step 3 computed once per directory.

import assert from 'node:assert/strict';
import { rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { createScanMemo } from '../../../src/discovery/scan/scan-memo.js';
import type { ScanOptions } from '../../../src/discovery/scan/scan-options.js';
import { scanSkillsDir } from '../../../src/discovery/scan/scan-skills-dir.js';
import { createSkillFileCache } from '../../../src/discovery/scan/skill-file-cache.js';
import type { DiscoveryResult, SkillDiagnostic } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { NATIVE_PROJECT_SCAN } from '../../helpers/scan-options.js';
import { SK, writeTree } from '../../helpers/temp-tree.js';

const OPTIONS: ScanOptions = NATIVE_PROJECT_SCAN;

const workspace = workspaceFactory('skillsd-scan-memo-');

function comparable(result: DiscoveryResult) {
  const { skills, warnings, collisions, diagnostics, scannedDirs } = result;
  return { skills, warnings, collisions, diagnostics, scannedDirs };
}

describe('createScanMemo', () => {
  it('scans a directory once per set of options until a path in it is invalidated', async () => {
    const { base } = await workspace({ 'd/a/SKILL.md': SK({ description: 'one' }) });
    const dir = join(base, 'd');
    const calls: string[] = [];
    const memo = createScanMemo((scanned, options) => {
      calls.push(`${scanned}|${options.provider}`);
      return scanSkillsDir(scanned, options);
    });
    const first = await memo.scan(dir, OPTIONS);
    assert.deepEqual(await memo.scan(dir, OPTIONS), first);
    await memo.scan(dir, { ...OPTIONS, provider: 'claude' });
    assert.deepEqual(calls, [`${dir}|native`, `${dir}|claude`]);
    assert.equal(memo.invalidate([join(dir, 'a', 'SKILL.md')]), true);
    assert.equal(memo.size, 0);
    await writeFile(join(dir, 'a', 'SKILL.md'), SK({ description: 'two' }));
    const second = await memo.scan(dir, OPTIONS);
    assert.equal(second.skills[0]?.description, 'two');
    assert.equal(calls.length, 3);
  });

  it('a re-scan keeps the previous record object of every skill whose record did not change', async () => {
    const { base } = await workspace({
      'd/a/SKILL.md': SK({ description: 'one' }),
      'd/b/SKILL.md': SK({ description: 'two' }),
    });
    const dir = join(base, 'd');
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    const first = await memo.scan(dir, { ...OPTIONS, cache });
    await writeFile(join(dir, 'b', 'SKILL.md'), SK({ description: 'edited' }));
    assert.equal(memo.invalidate([join(dir, 'b', 'SKILL.md')]), true);
    const second = await memo.scan(dir, { ...OPTIONS, cache });
    assert.equal(second.skills[0], first.skills[0]);
    assert.notEqual(second.skills[1], first.skills[1]);
    assert.equal(second.skills[1]?.description, 'edited');
  });

  it('a re-scan keeps the previous diagnostic object of every note that did not change', async () => {
    // The serialiser keeps the bytes of a diagnostic by its object: an edit that fixes one file must not make every
    // other note of the directory a new object (serialised and hashed again).
    const broken = '---\nname: x\ndescription: Use when: it breaks\n---\n';
    const { base } = await workspace({
      'd/a/SKILL.md': broken.replace('x', 'a'),
      'd/b/SKILL.md': broken.replace('x', 'b'),
      'd/c/SKILL.md': broken.replace('x', 'c'),
    });
    const dir = join(base, 'd');
    const memo = createScanMemo();
    const first: SkillDiagnostic[] = [];
    await memo.scan(dir, { ...OPTIONS, diagnostics: first });
    assert.deepEqual(
      first.map((diagnostic) => diagnostic.skillPath),
      ['a', 'b', 'c'].map((name) => join(dir, name, 'SKILL.md')),
    );
    await writeFile(join(dir, 'b', 'SKILL.md'), SK({ name: 'b', description: 'fixed' }));
    assert.equal(memo.invalidate([join(dir, 'b', 'SKILL.md')]), true);
    const second: SkillDiagnostic[] = [];
    await memo.scan(dir, { ...OPTIONS, diagnostics: second });
    assert.equal(second.length, 2);
    assert.equal(second[0], first[0]);
    assert.equal(second[1], first[2]);
  });

  it('re-reads only touched entries and new ones; the directory itself re-reads everything', async () => {
    const { base } = await workspace({
      'd/a/SKILL.md': SK({ description: 'a1' }),
      'd/b/SKILL.md': SK({ description: 'b1' }),
      'd/gone/SKILL.md': SK({ description: 'g1' }),
    });
    const dir = join(base, 'd');
    const memo = createScanMemo();
    const descriptions = async () =>
      (await memo.scan(dir, OPTIONS)).skills.map((skill) => `${skill.name}=${skill.description}`);
    assert.deepEqual(await descriptions(), ['a=a1', 'b=b1', 'gone=g1']);
    await writeFile(join(dir, 'a', 'SKILL.md'), SK({ description: 'a2' }));
    await writeFile(join(dir, 'b', 'SKILL.md'), SK({ description: 'b2' }));
    await writeTree(dir, { 'c/SKILL.md': SK({ description: 'c1' }) });
    await rm(join(dir, 'gone'), { recursive: true });
    assert.equal(memo.invalidate([join(dir, 'a', 'SKILL.md')]), true);
    // b was not reported, so its previous read stands; c is new in the listing and gone is no longer listed.
    assert.deepEqual(await descriptions(), ['a=a2', 'b=b1', 'c=c1']);
    assert.equal(memo.invalidate([dir]), true);
    assert.deepEqual(await descriptions(), ['a=a2', 'b=b2', 'c=c1']);
  });

  it('re-reads every entry of a directory that is a link now pointing elsewhere, whichever entries were reported', async () => {
    // git-sync publishes a revision by swapping a link in one rename; the watcher may report the entries that came and
    // went before it reports the link itself. An entry present in both revisions must not be kept from the old one.
    const { base } = await workspace({
      'git/rev1/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF v1' }),
      'git/rev1/docx/SKILL.md': SK({ name: 'docx', description: 'Word' }),
      'git/rev2/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF v2' }),
      'git/rev2/pptx/SKILL.md': SK({ name: 'pptx', description: 'Slides' }),
      'git/current': { symlink: 'rev1' },
    });
    const dir = join(base, 'git', 'current');
    const memo = createScanMemo();
    const before = await memo.scan(dir, OPTIONS);
    assert.deepEqual(
      before.skills.map((skill) => [skill.name, skill.description]),
      [
        ['docx', 'Word'],
        ['pdf', 'PDF v1'],
      ],
    );
    await symlink('rev2', join(base, 'git', 'current.next'));
    await rename(join(base, 'git', 'current.next'), dir);
    assert.equal(memo.invalidate([join(dir, 'docx'), join(dir, 'pptx', 'SKILL.md')]), true);
    const after = await memo.scan(dir, OPTIONS);
    assert.deepEqual(
      after.skills.map((skill) => [skill.name, skill.description]),
      [
        ['pdf', 'PDF v2'],
        ['pptx', 'Slides'],
      ],
    );
  });

  it('a link swapped while a re-scan runs is not taken for its old target, then or at the next re-scan', async () => {
    // A reload already running when git-sync swaps `current` resolved the link before the swap and lists after it:
    // the entries it kept from the old revision (pdf here, reported by nobody) must not pass for the new revision's.
    const { base } = await workspace({
      'git/rev1/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF v1' }),
      'git/rev1/docx/SKILL.md': SK({ name: 'docx', description: 'Word' }),
      'git/rev2/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF v2' }),
      'git/rev2/pptx/SKILL.md': SK({ name: 'pptx', description: 'Slides' }),
      'git/current': { symlink: 'rev1' },
    });
    const dir = join(base, 'git', 'current');
    let swapBeforeScan = false;
    const memo = createScanMemo(async (scanned, options) => {
      if (swapBeforeScan) {
        swapBeforeScan = false;
        await symlink('rev2', join(base, 'git', 'current.next'));
        await rename(join(base, 'git', 'current.next'), dir);
      }
      return scanSkillsDir(scanned, options);
    });
    await memo.scan(dir, OPTIONS);
    assert.equal(memo.invalidate([join(dir, 'docx')]), true);
    swapBeforeScan = true;
    const during = await memo.scan(dir, OPTIONS);
    assert.equal(swapBeforeScan, false);
    assert.deepEqual(
      during.skills.map((skill) => [skill.name, skill.description]),
      [
        ['pdf', 'PDF v2'],
        ['pptx', 'Slides'],
      ],
    );
    // The watcher then reports the link's new entries; the scan remembered is the new revision's.
    assert.equal(memo.invalidate([join(dir, 'pptx')]), true);
    const next = await memo.scan(dir, OPTIONS);
    assert.deepEqual(
      next.skills.map((skill) => [skill.name, skill.description]),
      [
        ['pdf', 'PDF v2'],
        ['pptx', 'Slides'],
      ],
    );
  });

  it('maps a path to its directory only on a separator boundary; a marker or an unknown path is refused', async () => {
    const { base } = await workspace({ 'd/a/SKILL.md': SK({ description: 'one' }) });
    const dir = join(base, 'd');
    const memo = createScanMemo();
    await memo.scan(dir, OPTIONS);
    assert.equal(memo.invalidate([`${dir}-other/a/SKILL.md`]), false);
    assert.equal(memo.invalidate([join(dir, 'x', '.git')]), false);
    assert.equal(memo.invalidate([join(base, 'elsewhere')]), false);
    assert.equal(memo.size, 1);
    assert.equal(memo.invalidate([]), true);
    assert.equal(memo.size, 1);
    assert.equal(memo.invalidate([dir]), true);
    assert.equal(memo.size, 0);
  });

  it('replays diagnostics and realpaths on a hit', async () => {
    const { base } = await workspace({
      'd/a/SKILL.md': SK({ description: 'one' }),
      'd/b/SKILL.md': { symlink: '../a/SKILL.md' },
      'd/c/SKILL.md': '---\nname: [unclosed\n---\n',
    });
    const dir = join(base, 'd');
    const memo = createScanMemo();
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const diagnostics: ScanOptions['diagnostics'] = [];
      const realpaths = new Map<string, string>();
      const result = await memo.scan(dir, { ...OPTIONS, requireDescription: false, diagnostics, realpaths });
      runs.push({ result, diagnostics, realpaths: [...realpaths].sort() });
    }
    assert.deepEqual(runs[1], runs[0]);
    assert.deepEqual(runs[0]?.realpaths, [
      [join(dir, 'a', 'SKILL.md'), join(dir, 'a', 'SKILL.md')],
      [join(dir, 'b', 'SKILL.md'), join(dir, 'a', 'SKILL.md')],
      [join(dir, 'c', 'SKILL.md'), join(dir, 'c', 'SKILL.md')],
    ]);
    assert.equal(runs[0]?.diagnostics.length, 1);
  });

  it('an updated re-scan names only the records that changed, as the previous scan answered them', async () => {
    // The pipeline compares these instead of every record of the directory (7,612 at N = 50,000); `before` must be
    // the very record the previous scan answered (its entry may hold an equal copy), or an edited winner stays stale.
    const { base } = await workspace({
      'd/a/SKILL.md': SK({ description: 'one' }),
      'd/b/SKILL.md': SK({ description: 'two' }),
      'd/c/SKILL.md': SK({ description: 'three' }),
    });
    const dir = join(base, 'd');
    const memo = createScanMemo();
    const cache = createSkillFileCache();
    await memo.scan(dir, { ...OPTIONS, cache });
    memo.prune();
    // A whole re-scan (the directory itself reported): its answer keeps the previous objects.
    assert.equal(memo.invalidate([dir]), true);
    const whole = await memo.scan(dir, { ...OPTIONS, cache });
    assert.equal(memo.prune().rescanned[0]?.changed, undefined);
    // Touched: `a` unchanged, `b` edited, `d` added.
    await writeFile(join(dir, 'b', 'SKILL.md'), SK({ description: 'edited' }));
    await writeTree(dir, { 'd/SKILL.md': SK({ description: 'four' }) });
    assert.equal(memo.invalidate([join(dir, 'a', 'SKILL.md'), join(dir, 'b', 'SKILL.md'), join(dir, 'd')]), true);
    const updated = await memo.scan(dir, { ...OPTIONS, cache });
    const [rescan] = memo.prune().rescanned;
    assert.deepEqual(
      updated.skills.map((skill) => skill.description),
      ['one', 'edited', 'three', 'four'],
    );
    assert.equal(updated.skills[0], whole.skills[0]);
    assert.equal(updated.skills[2], whole.skills[2]);
    // In listing order, which the file system chooses: compared as sets of objects.
    const before = new Set(rescan?.changed?.before);
    const after = new Set(rescan?.changed?.after);
    assert.equal(before.size, 2);
    assert.ok(before.has(whole.skills[0]!) && before.has(whole.skills[1]!));
    assert.equal(after.size, 3);
    assert.ok(after.has(whole.skills[0]!) && after.has(updated.skills[1]!) && after.has(updated.skills[3]!));
  });

  it('drops the scans of directories a discovery no longer used', async () => {
    const { base } = await workspace({});
    const memo = createScanMemo();
    await memo.scan(join(base, 'x'), OPTIONS);
    memo.prune();
    await memo.scan(join(base, 'y'), OPTIONS);
    memo.prune();
    assert.equal(memo.size, 1);
    assert.equal(memo.invalidate([join(base, 'x', 'a')]), false);
  });
});

describe('discoverSkills through a scan memo equals a fresh discovery', () => {
  it('with a symlinked skills directory, symlinked entries and a symlinked SKILL.md, after an edit', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/real/SKILL.md': SK({ description: 'd' }),
      'P/.musepi/skills/other/SKILL.md': SK({ description: 'o' }),
      // A whole skills directory that is a symlink to another one: every skill is a realpath duplicate.
      'P/.claude': { symlink: '.musepi' },
      'P/.agents/skills/alias': { symlink: '../../.musepi/skills/real' },
      'P/.agents/skills/file-link/SKILL.md': { symlink: '../../../.musepi/skills/other/SKILL.md' },
      'H/.agents/skills/own/SKILL.md': SK({ description: 'h' }),
      'shared/lib/SKILL.md': SK({ name: 'libname', description: 'l' }),
      'H/.claude/skills/lib': { symlink: '../../../shared/lib' },
      'H/.codex/skills/lib-again': { symlink: '../../../shared/lib' },
    });
    const memo = createScanMemo();
    const cached = await discoverSkills(ctx, { scans: memo });
    assert.deepEqual(comparable(cached), comparable(await discoverSkills(ctx)));
    assert.deepEqual(
      cached.skills.map((skill) => skill.name),
      ['libname', 'other', 'own', 'real'],
    );
    // The three kinds of link all dedup by realpath (step 3).
    assert.deepEqual(
      cached.collisions.map((c) => [c.name, c.shadowed.map((l) => [l.reason, l.filePath.slice(base.length + 1)])]),
      [
        ['libname', [['duplicate-file', 'H/.codex/skills/lib-again/SKILL.md']]],
        [
          'other',
          [
            ['duplicate-file', 'P/.claude/skills/other/SKILL.md'],
            ['duplicate-file', 'P/.agents/skills/file-link/SKILL.md'],
          ],
        ],
        [
          'real',
          [
            ['duplicate-file', 'P/.claude/skills/real/SKILL.md'],
            ['duplicate-file', 'P/.agents/skills/alias/SKILL.md'],
          ],
        ],
      ],
    );
    // An edit through the symlinked SKILL.md's target, reported under the directory that was scanned.
    await writeFile(join(base, 'P/.musepi/skills/other/SKILL.md'), SK({ description: 'edited' }));
    assert.equal(
      memo.invalidate([join(base, 'P/.musepi/skills/other/SKILL.md'), join(base, 'P/.agents/skills')]),
      true,
    );
    const after = await discoverSkills(ctx, { scans: memo });
    assert.deepEqual(comparable(after), comparable(await discoverSkills(ctx)));
    assert.equal(after.skills.find((skill) => skill.name === 'other')?.description, 'edited');
    // A removal in a directory the memo is told about.
    await rm(join(base, 'H/.codex/skills/lib-again'));
    assert.equal(memo.invalidate([join(base, 'H/.codex/skills/lib-again')]), true);
    assert.deepEqual(comparable(await discoverSkills(ctx, { scans: memo })), comparable(await discoverSkills(ctx)));
  });

  it('re-scans only the invalidated directory: an edit elsewhere stays unseen until it is reported', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/skills/a/SKILL.md': SK({ description: 'a1' }),
      'H/.agents/skills/b/SKILL.md': SK({ description: 'b1' }),
    });
    const memo = createScanMemo();
    await discoverSkills(ctx, { scans: memo });
    await writeFile(join(base, 'P/.musepi/skills/a/SKILL.md'), SK({ description: 'a2' }));
    await writeFile(join(base, 'H/.agents/skills/b/SKILL.md'), SK({ description: 'b2' }));
    assert.equal(memo.invalidate([join(base, 'P/.musepi/skills/a/SKILL.md')]), true);
    const partial = await discoverSkills(ctx, { scans: memo });
    assert.deepEqual(
      partial.skills.map((skill) => [skill.name, skill.description]),
      [
        ['a', 'a2'],
        ['b', 'b1'],
      ],
    );
    assert.equal(memo.invalidate([join(base, 'H/.agents/skills/b')]), true);
    assert.deepEqual(comparable(await discoverSkills(ctx, { scans: memo })), comparable(await discoverSkills(ctx)));
  });
});
