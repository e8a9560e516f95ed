import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { createScanMemo } from '../../src/discovery/scan/scan-memo.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryContext, DiscoveryResult, Profile } from '../../src/discovery/types.js';
import { serialiseAll } from '../../src/live-index/comma-lists.js';
import { CHUNK_SKILLS, chunkEnds, endsChunk, MAX_CHUNK_SKILLS } from '../../src/live-index/run-hasher.js';
import { snapshotContent } from '../../src/live-index/snapshot.js';
import {
  contentBody,
  contentText,
  type SnapshotContent,
  SnapshotSerializer,
} from '../../src/live-index/snapshot-json.js';
import { collisionRecord, discoveryResult, skillRecord } from '../helpers/skill-records.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** Whether `view` shares bytes with the run from `first` to `last`, two views of one Buffer. */
function overlaps(view: Buffer, first: Buffer, last: Buffer): boolean {
  if (view.buffer !== first.buffer) return false;
  const start = view.byteOffset;
  return start < last.byteOffset + last.length && first.byteOffset < start + view.length;
}

/** The kept content must give the very text and hash computed from scratch, and the body must be that text. */
function assertSameAsFresh(content: SnapshotContent, cwd: string, profile: Profile, result: DiscoveryResult): void {
  const fresh = snapshotContent(cwd, profile, result);
  assert.equal(content.hash, fresh.hash);
  assert.equal(contentText(content), fresh.json);
  assert.equal(contentBody(content, 7).toString('utf8'), `{"generation":7,${fresh.json.slice(1)}`);
}

describe('SnapshotSerializer', () => {
  it('gives the very text and hash of snapshotContent, also across reloads that keep records', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(dir, {
      'H/.keep': '',
      'P/.git/HEAD': '',
      'P/.musepi/skills/a/SKILL.md': SK({ description: 'quote " and \\\\ and \u2028 and é' }),
      'P/.claude/skills/a/SKILL.md': SK({ description: 'shadowed' }),
      'H/.agents/skills/b/SKILL.md': '---\nname: b\ndescription: x\nmetadata:\n  k: [1, 2]\n---\n',
      'H/.agents/skills/c/SKILL.md': '---\nname: [unclosed\n---\n',
      'H/.musepi/agent/managed-skills/m/SKILL.md': SK({ description: 'managed' }),
    });
    const ctx: DiscoveryContext = {
      home: join(dir, 'H'),
      cwd: join(dir, 'P'),
      env: {},
      settings: defaultSettings(),
    };
    const serializer = new SnapshotSerializer();
    const scans = createScanMemo();
    for (const profile of ['musepi', 'xcsh'] as const) {
      const result = await discoverSkills(ctx, { scans });
      assertSameAsFresh(serializer.content(ctx.cwd, profile, result), ctx.cwd, profile, result);
    }
    await writeFile(join(dir, 'H/.agents/skills/b/SKILL.md'), SK({ name: 'b', description: 'edited' }));
    assert.equal(scans.invalidate([join(dir, 'H/.agents/skills/b/SKILL.md')]), true);
    const result = await discoverSkills(ctx, { scans });
    const content = serializer.content(ctx.cwd, 'musepi', result);
    assertSameAsFresh(content, ctx.cwd, 'musepi', result);
    assert.ok(contentText(content).includes('"description":"edited"'));
  });

  it('serialises a first list into one Buffer, each item a view of its own bytes, ASCII or not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string(), note: fc.string({ unit: 'binary' }) }), { maxLength: 30 }),
        (items) => {
          const views = serialiseAll(items);
          assert.equal(views.length, items.length);
          assert.deepEqual(
            views.map((view) => view.toString('utf8')),
            items.map((item) => JSON.stringify(item)),
          );
          assert.equal(new Set(views.map((view) => view.buffer)).size, Math.min(1, items.length));
        },
      ),
    );
    // The first content of a serializer is such a list; an item serialised by a later call has its own bytes.
    const described = (i: number) => ({ description: `${'é'.repeat(i)} x: y` });
    const skills = Array.from({ length: 40 }, (_, i) => skillRecord(`s${i}`, described(i)));
    const serializer = new SnapshotSerializer();
    const first = serializer.content('/w', 'musepi', discoveryResult(skills));
    assertSameAsFresh(first, '/w', 'musepi', discoveryResult(skills));
    assert.equal(new Set(first.fragments.map((fragment) => fragment.buffer)).size, 1);
    const edited = [...skills];
    edited[3] = skillRecord('s3', { description: 'edited' });
    const second = serializer.content('/w', 'musepi', discoveryResult(edited));
    assertSameAsFresh(second, '/w', 'musepi', discoveryResult(edited));
    // A small Buffer may share Node's pool slab with anything, so "its own bytes" means outside the first joined run.
    assert.equal(overlaps(second.fragments[3]!, first.fragments[0]!, first.fragments.at(-1)!), false);
    assert.ok(first.fragments[3]!.toString('utf8').includes('x: y'));
    assert.equal(second.fragments[4], first.fragments[4]);
  });

  it('re-serialises only the records that changed; equal content gives an equal hash whatever the history', () => {
    const names = Array.from({ length: 3 * CHUNK_SKILLS + 5 }, (_, i) => `s${String(i).padStart(4, '0')}`);
    const skills = names.map((name) => skillRecord(name));
    const warnings = [{ skillPath: '', message: 'w' }];
    const collisions = [collisionRecord('s0001')];
    const serializer = new SnapshotSerializer();
    const first = serializer.content('/w', 'musepi', discoveryResult(skills, warnings, collisions));
    assertSameAsFresh(first, '/w', 'musepi', discoveryResult(skills, warnings, collisions));

    // One record edited (a new object, as a re-read gives): every other record's bytes are the very same Buffer.
    const edited = [...skills];
    edited[CHUNK_SKILLS + 3] = skillRecord(names[CHUNK_SKILLS + 3]!, { description: 'edited "quoted" é' });
    const second = serializer.content('/w', 'musepi', discoveryResult(edited, warnings, collisions));
    assertSameAsFresh(second, '/w', 'musepi', discoveryResult(edited, warnings, collisions));
    assert.notEqual(second.hash, first.hash);
    const reused = second.fragments.filter((fragment, i) => fragment === first.fragments[i]).length;
    assert.equal(reused, skills.length - 1);

    // Back to the first content through new record objects: the first hash again.
    const restored = [...edited];
    restored[CHUNK_SKILLS + 3] = skillRecord(names[CHUNK_SKILLS + 3]!);
    assert.equal(serializer.content('/w', 'musepi', discoveryResult(restored, warnings, collisions)).hash, first.hash);

    // Removals, insertions and a shorter last chunk shift every position after them.
    for (const variant of [
      skills.slice(1),
      [skillRecord('a-first'), ...skills],
      skills.slice(0, 2 * CHUNK_SKILLS),
      skills.slice(0, 2 * CHUNK_SKILLS + 1),
      skills,
      [],
    ]) {
      const result = discoveryResult(variant, warnings, collisions);
      assertSameAsFresh(serializer.content('/w', 'musepi', result), '/w', 'musepi', result);
    }
    // The tail and head count too.
    const noWarnings = discoveryResult(skills, [], collisions);
    const other = serializer.content('/w', 'musepi', noWarnings);
    assertSameAsFresh(other, '/w', 'musepi', noWarnings);
    assert.notEqual(other.hash, first.hash);
    assert.notEqual(
      serializer.content('/w2', 'musepi', discoveryResult(skills, warnings, collisions)).hash,
      first.hash,
    );
    assert.notEqual(serializer.content('/w', 'xcsh', discoveryResult(skills, warnings, collisions)).hash, first.hash);
    assert.equal(serializer.content('/w', 'musepi', discoveryResult(skills, warnings, collisions)).hash, first.hash);
  });

  it('a skill added or removed re-hashes the one run it falls in: runs are cut by names, not positions', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `skill-${String(i).padStart(5, '0')}`);
    const skills = names.map((name) => skillRecord(name));
    const ends = chunkEnds(names);
    // Cuts follow the names: about one run per CHUNK_SKILLS skills, none longer than 4 × CHUNK_SKILLS.
    assert.ok(ends.length > 2000 / CHUNK_SKILLS / 2 && ends.length < (2000 / CHUNK_SKILLS) * 2, `${ends.length} runs`);
    for (let i = 0, start = 0; i < ends.length; start = ends[i++]!) assert.ok(ends[i]! - start <= 4 * CHUNK_SKILLS);
    const serializer = new SnapshotSerializer();
    serializer.content('/w', 'musepi', discoveryResult(skills));
    assert.equal(serializer.rehashed, 2000);
    // A cut moved by the change splits or joins the runs around it: at most two runs are hashed again, where runs
    // cut every CHUNK_SKILLS positions would all be hashed again after the change (1,300 and 500 skills here).
    const added = [...skills.slice(0, 700), skillRecord('skill-00699-new'), ...skills.slice(700)];
    const withAdded = discoveryResult(added);
    assertSameAsFresh(serializer.content('/w', 'musepi', withAdded), '/w', 'musepi', withAdded);
    assert.ok(serializer.rehashed > 0 && serializer.rehashed <= 8 * CHUNK_SKILLS, `${serializer.rehashed} re-hashed`);
    const removed = discoveryResult(added.filter((_, i) => i !== 1500));
    assertSameAsFresh(serializer.content('/w', 'musepi', removed), '/w', 'musepi', removed);
    assert.ok(serializer.rehashed > 0 && serializer.rehashed <= 8 * CHUNK_SKILLS, `${serializer.rehashed} re-hashed`);
    serializer.content('/w', 'musepi', removed);
    assert.equal(serializer.rehashed, 0);
  });

  it('equals a fresh serialisation after random reloads, placing only what lies between the head and tail kept', () => {
    const step = fc.record({
      kind: fc.constantFrom('add', 'remove', 'edit', 'swap'),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.array(step, { maxLength: 30 }), (size, steps) => {
        const name = (i: number) => `s-${String(i * 10).padStart(6, '0')}`;
        let result = discoveryResult(Array.from({ length: size }, (_, i) => skillRecord(name(i))));
        const serializer = new SnapshotSerializer();
        let before = serializer.content('/w', 'musepi', result);
        let fresh = 0;
        for (const { kind, at, count } of steps) {
          const skills = result.skills;
          const where = skills.length === 0 ? 0 : at % skills.length;
          const next = [...skills];
          if (kind === 'add') {
            for (let k = 0; k < count; k++) next.splice(where, 0, skillRecord(`${name(where)}-${fresh++}`));
            next.sort((a, b) => (a.name < b.name ? -1 : 1));
          } else if (kind === 'remove') next.splice(where, count);
          else if (kind === 'edit' && next[where] !== undefined)
            next[where] = skillRecord(next[where]!.name, { description: `edited ${fresh++}` });
          else if (kind === 'swap')
            next.splice(where, count, ...next.slice(where, where + count).map((skill) => ({ ...skill })));
          result = discoveryResult(next, [{ skillPath: '', message: kind }]);
          const content = serializer.content('/w', 'musepi', result);
          assertSameAsFresh(content, '/w', 'musepi', result);
          // The head and tail of the very same records the two lists share.
          const shorter = Math.min(skills.length, next.length);
          let head = 0;
          while (head < shorter && skills[head] === next[head]) head++;
          let tail = 0;
          while (tail < shorter - head && skills[skills.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
          const placedEnd = next.length - tail;
          assert.equal(serializer.placed, placedEnd - head);
          // Every kept record keeps its very bytes.
          for (let i = 0; i < head; i++) assert.equal(content.fragments[i], before.fragments[i]);
          for (let k = 1; k <= tail; k++) {
            assert.equal(content.fragments[next.length - k], before.fragments[skills.length - k]);
          }
          // Hashed again: from the start of the run holding the head (at most one run back) to the first cut by a
          // name at or after the placed records, where both lists start a run again.
          let cut = placedEnd;
          while (cut < next.length && !endsChunk(next[cut]!.name)) cut++;
          const bound = MAX_CHUNK_SKILLS + (placedEnd - head) + (cut + 1 - placedEnd);
          assert.ok(serializer.rehashed <= bound, `${serializer.rehashed} re-hashed, at most ${bound}`);
          before = content;
        }
      }),
      { numRuns: 120, seed: 20261202 },
    );
  });

  it('an edit hashes its one run again; a skill added or removed places what it adds and no other record', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `skill-${String(i).padStart(5, '0')}`);
    const first = discoveryResult(names.map((name) => skillRecord(name)));
    const ends = chunkEnds(names);
    const end = ends.find((cut) => cut > 1234)!;
    const start = ends[ends.indexOf(end) - 1] ?? 0;
    const serializer = new SnapshotSerializer();
    serializer.content('/w', 'musepi', first);
    assert.equal(serializer.placed, 2000);
    assert.equal(serializer.rehashed, 2000);

    const edited = [...first.skills];
    edited[1234] = skillRecord(names[1234]!, { description: 'edited' });
    const second = discoveryResult(edited);
    assertSameAsFresh(serializer.content('/w', 'musepi', second), '/w', 'musepi', second);
    assert.equal(serializer.placed, 1);
    assert.equal(serializer.rehashed, end - start);

    // Removed: nothing to place; the run it left is cut again, with the one after it when a cut moved.
    const removed = discoveryResult(edited.filter((_, i) => i !== 1234));
    assertSameAsFresh(serializer.content('/w', 'musepi', removed), '/w', 'musepi', removed);
    assert.equal(serializer.placed, 0);
    assert.ok(serializer.rehashed >= end - start - 1 && serializer.rehashed <= 2 * MAX_CHUNK_SKILLS);

    // Added back as a new record: one placed.
    const added = discoveryResult(second.skills.map((skill, i) => (i === 1234 ? { ...skill } : skill)));
    assertSameAsFresh(serializer.content('/w', 'musepi', added), '/w', 'musepi', added);
    assert.equal(serializer.placed, 1);
    assert.equal(serializer.rehashed, end - start);
    assert.equal(serializer.content('/w', 'musepi', added).hash, serializer.content('/w', 'musepi', second).hash);
  });

  it('a diagnostic added or removed re-hashes the one run it falls in, and equals a fresh serialisation', () => {
    // The `real` benchmark tree has ≈ 5,000 diagnostics (1.3 MB of JSON): an edit that fixes or breaks one file must
    // not serialise and hash all of them again.
    const skills = [skillRecord('a'), skillRecord('b')];
    const diagnostics = Array.from({ length: 3000 }, (_, i) => ({
      skillPath: `/w/.musepi/skills/s${String(i).padStart(5, '0')}/SKILL.md`,
      message: i % 3 === 0 ? 'frontmatter is not valid YAML' : 'SKILL.md is not valid UTF-8',
    }));
    const withDiagnostics = (list: typeof diagnostics): DiscoveryResult => ({
      ...discoveryResult(skills),
      diagnostics: list,
    });
    const serializer = new SnapshotSerializer();
    const first = serializer.content('/w', 'musepi', withDiagnostics(diagnostics));
    assertSameAsFresh(first, '/w', 'musepi', withDiagnostics(diagnostics));
    assert.equal(serializer.rehashedDiagnostics, 3000);
    const removed = diagnostics.filter((_, i) => i !== 1234);
    const second = serializer.content('/w', 'musepi', withDiagnostics(removed));
    assertSameAsFresh(second, '/w', 'musepi', withDiagnostics(removed));
    assert.notEqual(second.hash, first.hash);
    assert.ok(
      serializer.rehashedDiagnostics > 0 && serializer.rehashedDiagnostics <= 8 * CHUNK_SKILLS,
      `${serializer.rehashedDiagnostics} re-hashed`,
    );
    assert.equal(
      second.diagnostics.filter((bytes, i) => bytes === first.diagnostics[i < 1234 ? i : i + 1]).length,
      2999,
    );
    // Back to the first list through new objects: the first hash again.
    const restored = diagnostics.map((diagnostic) => ({ ...diagnostic }));
    assert.equal(serializer.content('/w', 'musepi', withDiagnostics(restored)).hash, first.hash);
    // A diagnostic moved to the skills' side of the answer is another answer, with another hash.
    assert.notEqual(serializer.content('/w', 'musepi', withDiagnostics([])).hash, first.hash);
  });

  it('equals a fresh serialisation after random sequences of diagnostics added, removed and changed', () => {
    const step = fc.record({
      kind: fc.constantFrom('add', 'remove', 'edit', 'same'),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.array(step, { maxLength: 30 }), (size, steps) => {
        const diagnostic = (i: number, message = 'note') => ({ skillPath: `/w/s${i}/SKILL.md`, message });
        let diagnostics = Array.from({ length: size }, (_, i) => diagnostic(i));
        const skills = [skillRecord('a')];
        const serializer = new SnapshotSerializer();
        let fresh = 0;
        for (const { kind, at, count } of steps) {
          const where = diagnostics.length === 0 ? 0 : at % diagnostics.length;
          const next = [...diagnostics];
          if (kind === 'add') for (let k = 0; k < count; k++) next.splice(where, 0, diagnostic(1000 + fresh++));
          else if (kind === 'remove') next.splice(where, count);
          else if (kind === 'edit' && next[where] !== undefined) next[where] = diagnostic(where, `edited ${fresh++}`);
          else if (kind === 'same')
            next.splice(where, count, ...next.slice(where, where + count).map((d) => ({ ...d })));
          diagnostics = next;
          const result: DiscoveryResult = { ...discoveryResult(skills), diagnostics };
          assertSameAsFresh(serializer.content('/w', 'musepi', result), '/w', 'musepi', result);
        }
      }),
      { numRuns: 60, seed: 20261201 },
    );
  });

  it('assembles a filtered body from the kept bytes of the chosen positions', () => {
    const result = discoveryResult([skillRecord('a'), skillRecord('b'), skillRecord('c')]);
    const content = new SnapshotSerializer().content('/w', 'musepi', result);
    const body = JSON.parse(contentBody(content, 2, [0, 2]).toString('utf8'));
    assert.deepEqual(
      body.skills.map((skill: { name: string }) => skill.name),
      ['a', 'c'],
    );
    assert.equal(body.generation, 2);
    assert.deepEqual(JSON.parse(contentBody(content, 2, []).toString('utf8')).skills, []);
  });
});
