// A re-scan built from the previous scan and the entries that changed (scan-update.ts): the same records, diagnostics
// and realpaths as a full scan of the directory, and the listing read again only when the directory moved or a touched
// entry is not what the previous listing had.

import assert from 'node:assert/strict';
import { mkdir, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createScanMemo } from '../../../src/discovery/scan/scan-memo.js';
import type { ScanOptions } from '../../../src/discovery/scan/scan-options.js';
import { scanSkillsDir } from '../../../src/discovery/scan/scan-skills-dir.js';
import { listingChanges } from '../../../src/discovery/scan/scan-update.js';
import type { ScannedEntry } from '../../../src/discovery/scan/scanned-entry.js';
import type { SkillDiagnostic } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { NATIVE_PROJECT_SCAN } from '../../helpers/scan-options.js';
import { SK } from '../../helpers/temp-tree.js';

const OPTIONS: ScanOptions = NATIVE_PROJECT_SCAN;

const workspace = workspaceFactory('skillsd-scan-update-');
const BROKEN = (name: string) => `---\nname: ${name}\ndescription: Use when: it breaks\n---\n`;

/** Everything a scan gives: records, warnings, diagnostics and realpaths, as plain values. */
async function fullScan(dir: string) {
  const diagnostics: SkillDiagnostic[] = [];
  const realpaths = new Map<string, string>();
  const result = await scanSkillsDir(dir, { ...OPTIONS, diagnostics, realpaths });
  return { ...result, diagnostics, realpaths: [...realpaths].sort() };
}

/** A scan memo that tells, for each scan it runs, whether it took the directory's previous listing as unchanged. */
function observedMemo() {
  const listings: Array<boolean | undefined> = [];
  const memo = createScanMemo((dir, options) => {
    listings.push(options.reuse?.previous?.listingUnchanged);
    return scanSkillsDir(dir, options);
  });
  const scan = async (dir: string) => {
    const diagnostics: SkillDiagnostic[] = [];
    const realpaths = new Map<string, string>();
    const result = await memo.scan(dir, { ...OPTIONS, diagnostics, realpaths });
    return { ...result, diagnostics, realpaths: [...realpaths].sort() };
  };
  return { memo, scan, listings };
}

describe('re-scans updated from the previous scan', () => {
  it('equal a full scan after edits that rename, break, fix and hide skills, with the listing unchanged', async () => {
    const { base } = await workspace({
      'P/d/alpha/SKILL.md': SK({ description: 'a' }),
      'P/d/beta/SKILL.md': BROKEN('beta'),
      'P/d/gamma/SKILL.md': SK({ description: 'g' }),
      'P/d/delta/SKILL.md': BROKEN('delta'),
      'P/d/linked': { symlink: '../lib/linked' },
      'P/lib/linked/SKILL.md': SK({ description: 'l' }),
      'P/d/.hidden/SKILL.md': SK({ description: 'h' }),
    });
    const dir = join(base, 'P', 'd');
    const { memo, scan, listings } = observedMemo();
    assert.deepEqual(await scan(dir), await fullScan(dir));
    const steps: Array<[string, string]> = [
      // A new name moves the record to another place in the order.
      ['alpha', SK({ name: 'zulu', description: 'a' })],
      // A diagnostic appears between two others, then the first one goes.
      ['gamma', BROKEN('gamma')],
      ['beta', SK({ name: 'beta', description: 'fixed' })],
      // No description: no record, and no diagnostic either.
      ['delta', '---\nname: delta\n---\n'],
      ['linked', SK({ description: 'l2' })],
      ['.hidden', SK({ description: 'h2' })],
    ];
    for (const [entry, content] of steps) {
      const file = entry === 'linked' ? join(base, 'P', 'lib', 'linked', 'SKILL.md') : join(dir, entry, 'SKILL.md');
      await writeFile(file, content);
      assert.equal(memo.invalidate([join(dir, entry, 'SKILL.md')]), true);
      assert.deepEqual(await scan(dir), await fullScan(dir), `after ${entry}`);
    }
    assert.deepEqual(listings, [undefined, true, true, true, true, true, true]);
    assert.deepEqual(
      (await scan(dir)).skills.map((skill) => skill.name),
      ['beta', 'gamma', 'linked', 'zulu'],
    );
  });

  it('read the listing again when the directory moved: entries added, removed, renamed, reported or not', async () => {
    const { base } = await workspace({
      'P/d/a/SKILL.md': SK({ description: 'a' }),
      'P/d/b/SKILL.md': BROKEN('b'),
      'P/d/c/SKILL.md': SK({ description: 'c' }),
    });
    const dir = join(base, 'P', 'd');
    const { memo, scan, listings } = observedMemo();
    await scan(dir);
    // An entry created with its SKILL.md, reported by the file alone.
    await mkdir(join(dir, 'n'));
    await writeFile(join(dir, 'n', 'SKILL.md'), BROKEN('n'));
    assert.equal(memo.invalidate([join(dir, 'n', 'SKILL.md')]), true);
    assert.deepEqual(await scan(dir), await fullScan(dir));
    // Renamed and removed, each reported by the entry.
    await rename(join(dir, 'a'), join(dir, 'z'));
    assert.equal(memo.invalidate([join(dir, 'a'), join(dir, 'z')]), true);
    assert.deepEqual(await scan(dir), await fullScan(dir));
    await rm(join(dir, 'b'), { recursive: true });
    assert.equal(memo.invalidate([join(dir, 'b')]), true);
    assert.deepEqual(await scan(dir), await fullScan(dir));
    // An entry that came without a report is found by the listing the report of another one reads.
    await mkdir(join(dir, 'quiet'));
    await writeFile(join(dir, 'quiet', 'SKILL.md'), SK({ description: 'q' }));
    await writeFile(join(dir, 'c', 'SKILL.md'), SK({ description: 'c2' }));
    assert.equal(memo.invalidate([join(dir, 'c', 'SKILL.md')]), true);
    const after = await scan(dir);
    assert.deepEqual(after, await fullScan(dir));
    assert.deepEqual(
      after.skills.filter((skill) => skill.name !== 'n').map((skill) => `${skill.name}=${skill.description}`),
      ['c=c2', 'quiet=q', 'z=a'],
    );
    assert.deepEqual(listings, [undefined, false, false, false, false]);
  });

  it('read the listing when a touched entry is not what the listing had, even when the directory kept its stamp', async () => {
    const { base } = await workspace({
      'P/d/a/SKILL.md': SK({ description: 'a' }),
      'P/d/b/SKILL.md': SK({ description: 'b' }),
      'P/elsewhere/b/SKILL.md': SK({ description: 'b elsewhere' }),
    });
    const dir = join(base, 'P', 'd');
    const previous = new Map();
    const first = await scanSkillsDir(dir, { ...OPTIONS, entries: previous, realpaths: new Map() });
    // `b` replaced by a link and `c` created while the caller believes the listing unchanged: the touched `b` is a
    // link now where the listing had a directory, so the listing is read and `c` is found too.
    await rm(join(dir, 'b'), { recursive: true });
    await symlink(join(base, 'P', 'elsewhere', 'b'), join(dir, 'b'));
    await mkdir(join(dir, 'c'));
    await writeFile(join(dir, 'c', 'SKILL.md'), SK({ description: 'c' }));
    const reuse = {
      entries: previous,
      touched: new Set(['b']),
      previous: { skills: first.skills, diagnostics: [], realpaths: new Map(), listingUnchanged: true },
    };
    // With the directory's real path known, the touched entries are read as the listing had them while their kind is
    // checked: `b` read as a directory must not be used now that it is a link.
    const entries = new Map<string, ScannedEntry>();
    const realpaths = new Map<string, string>();
    const updated = await scanSkillsDir(dir, { ...OPTIONS, reuse, realDir: dir, entries, realpaths });
    assert.deepEqual(
      updated.skills.map((skill) => `${skill.name}=${skill.description}`),
      ['a=a', 'b=b elsewhere', 'c=c'],
    );
    assert.equal(entries.get('b')?.entryIsLink, true);
    assert.equal(realpaths.get(join(dir, 'b', 'SKILL.md')), join(base, 'P', 'elsewhere', 'b', 'SKILL.md'));
    // The same with `b` only edited: the listing is trusted, and `c`, reported by nobody, is not looked for.
    await writeFile(join(dir, 'a', 'SKILL.md'), SK({ description: 'a2' }));
    const trusted = await scanSkillsDir(dir, {
      ...OPTIONS,
      reuse: { ...reuse, touched: new Set(['a']) },
      realDir: dir,
    });
    assert.deepEqual(
      trusted.skills.map((skill) => `${skill.name}=${skill.description}`),
      ['a=a2', 'b=b'],
    );
  });

  it('list again a directory that could not be listed, whatever its stamp', async () => {
    // A file where the skills directory should be: the scan warns. A path reported below it (the watcher saw the
    // directory go) must not be answered from that scan's empty entries: the warning stays while the file does.
    const { base } = await workspace({ 'P/d': 'not a directory', 'P/other/a/SKILL.md': SK({ description: 'a' }) });
    const dir = join(base, 'P', 'd');
    const { memo, scan, listings } = observedMemo();
    const first = await scan(dir);
    assert.equal(first.warnings.length, 1);
    assert.equal(memo.invalidate([join(dir, 'a', 'SKILL.md')]), true);
    assert.deepEqual(await scan(dir), await fullScan(dir));
    assert.deepEqual(listings, [undefined, false]);
    // Back as a directory: listed in full.
    await rm(dir);
    await rename(join(base, 'P', 'other'), dir);
    assert.equal(memo.invalidate([join(dir, 'a')]), true);
    assert.deepEqual(
      (await scan(dir)).skills.map((skill) => skill.name),
      ['a'],
    );
  });
});

describe('listingChanges', () => {
  it('finds every entry that went, whether the touched entries account for all of them or not', async () => {
    // Entries that went and were touched are taken from the touched names (no walk of every previous entry); one
    // that went unreported must still be found, by the walk.
    const { base } = await workspace({
      'd/a/SKILL.md': SK({ description: 'a' }),
      'd/b/SKILL.md': SK({ description: 'b' }),
      'd/c/SKILL.md': SK({ description: 'c' }),
      'd/d/SKILL.md': SK({ description: 'd' }),
    });
    const dir = join(base, 'd');
    const entries = new Map<string, ScannedEntry>();
    await scanSkillsDir(dir, { ...OPTIONS, entries });
    assert.equal(entries.size, 4);
    await rename(join(dir, 'b'), join(dir, 'e'));
    await rm(join(dir, 'c'), { recursive: true });
    const listed = async () => (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory());
    const sorted = (changes: Map<string, boolean | undefined> | undefined) =>
      [...(changes ?? [])].sort(([a], [b]) => (a < b ? -1 : 1));
    // Both reported.
    assert.deepEqual(sorted(listingChanges(await listed(), entries, new Set(['b', 'c', 'e']))), [
      ['b', undefined],
      ['c', undefined],
      ['e', false],
    ]);
    // `c` went unreported: found all the same.
    assert.deepEqual(sorted(listingChanges(await listed(), entries, new Set(['b', 'e']))), [
      ['b', undefined],
      ['c', undefined],
      ['e', false],
    ]);
    // Nothing reported: the listing alone tells.
    assert.deepEqual(sorted(listingChanges(await listed(), entries, new Set())), [
      ['b', undefined],
      ['c', undefined],
      ['e', false],
    ]);
  });
});
