// The skill-file cache keeps readings by frontmatter dialect, not by profile (skill-file-cache.ts): MusePi and OMP read
// every SKILL.md alike and share entries; xcsh reads differently (docs/discovery.md §2) where a repair or the line
// fallback ran, and takes the others' reading of every file whose block parsed as YAML at once.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { frontmatterDialect, parseFrontmatter } from '../../../src/discovery/frontmatter/frontmatter.js';
import { scanSkillsDir } from '../../../src/discovery/scan/scan-skills-dir.js';
import { createSkillFileCache } from '../../../src/discovery/scan/skill-file-cache.js';
import type { Profile } from '../../../src/discovery/types.js';
import { NATIVE_PROJECT_SCAN } from '../../helpers/scan-options.js';
import { makeTempDir, SK, writeTree } from '../../helpers/temp-tree.js';

/** Files whose reading takes each of the paths of rule 4: clean, quoted, repaired, line by line, over the cap. */
const FILES: Record<string, string> = {
  'a/SKILL.md': SK({ name: 'a', description: 'first' }),
  'b/SKILL.md': '---\nname: b\ndescription: Use when: asked\nallowed-tools: [Read]\n---\n',
  'c/SKILL.md': '---\nname: c\ndescription: Use when: asked\n---\n',
  'd/SKILL.md': '---\nname: d\ndescription:\tUse when: asked\nversion: 2\n---\n',
  'e/SKILL.md': '---\nname: e\ndescription: [broken\nversion: 2\ncount: 012\n---\n',
  'f/SKILL.md': `---\nname: f\ndescription: big\n${'k: v: w\n'.repeat(9000)}---\n`,
  'g/SKILL.md': '---\r\nname: g\r\ndescription: "quoted: fine"\r\nmetadata:\r\n  note: a: b\r\n---\r\n',
};

function profileOptions(profile: Profile) {
  return { ...NATIVE_PROJECT_SCAN, profile, requireDescription: false };
}

describe('frontmatter dialects', () => {
  it('MusePi and OMP are one dialect, xcsh another', () => {
    assert.equal(frontmatterDialect('musepi'), frontmatterDialect('omp'));
    assert.notEqual(frontmatterDialect('musepi'), frontmatterDialect('xcsh'));
  });

  it('two profiles of one dialect read every file to the same frontmatter and notes', () => {
    const line = fc.oneof(
      fc.constantFrom('name: x', 'description: Use when: asked', 'description: "a: b"', 'tags: [a, b', 'n: 012'),
      fc.constantFrom('k:\tv', 'k: a: b: c', '  - item', 'm:', '  s: t: u', '# c', 'k: |', '  text', '<<: *x'),
    );
    const file = fc.array(line, { maxLength: 6 }).map((lines) => `---\n${lines.join('\n')}\n---\nbody`);
    let differs = 0;
    fc.assert(
      fc.property(file, (text) => {
        const musepi: string[] = [];
        const omp: string[] = [];
        const xcsh: string[] = [];
        assert.deepStrictEqual(parseFrontmatter(text, 'omp', omp), parseFrontmatter(text, 'musepi', musepi));
        assert.deepStrictEqual(omp, musepi);
        const plain = parseFrontmatter(text, 'xcsh', xcsh);
        if (JSON.stringify([plain, xcsh]) !== JSON.stringify([parseFrontmatter(text, 'musepi'), musepi])) differs++;
      }),
      { numRuns: 500, seed: 20261216 },
    );
    // xcsh's dialect does differ on these files: the test would say nothing otherwise.
    assert.ok(differs > 50, `xcsh read ${differs} of 500 files differently`);
  });

  it("a reading that says it is every dialect's is the same under both dialects, notes included", () => {
    const line = fc.oneof(
      fc.constantFrom('name: x', 'description: Use when: asked', 'description: "a: b"', 'tags: [a, b', 'n: 012'),
      fc.constantFrom('k:\tv', 'k: a: b: c', '  - item', 'm:', '  s: t: u', '# c', 'k: |', '  text', 'v: 2'),
    );
    const file = fc.array(line, { maxLength: 6 }).map((lines) => `---\n${lines.join('\n')}\n---\nbody`);
    let shared = 0;
    let apart = 0;
    fc.assert(
      fc.property(file, (text) => {
        const repairingNotes: string[] = [];
        const plainNotes: string[] = [];
        const repairing = parseFrontmatter(text, 'musepi', repairingNotes);
        const plain = parseFrontmatter(text, 'xcsh', plainNotes);
        // The parse takes the same path up to the first repair: both say so, or neither.
        assert.equal(repairing.anyDialect, plain.anyDialect);
        if (!repairing.anyDialect) {
          apart++;
          return;
        }
        shared++;
        assert.deepStrictEqual(plain, repairing);
        assert.deepStrictEqual(plainNotes, repairingNotes);
      }),
      { numRuns: 500, seed: 20261206 },
    );
    // Both kinds of file were generated.
    assert.ok(shared > 50 && apart > 50, `${shared} shared, ${apart} apart`);
  });

  it('a file without frontmatter, or one read line by line past the YAML limit, says so', () => {
    assert.equal(parseFrontmatter('# no block', 'xcsh').anyDialect, true);
    assert.equal(parseFrontmatter(FILES['a/SKILL.md']!, 'xcsh').anyDialect, true);
    assert.equal(parseFrontmatter(FILES['f/SKILL.md']!, 'musepi').anyDialect, false);
    assert.equal(parseFrontmatter(FILES['b/SKILL.md']!, 'musepi').anyDialect, false);
  });
});

describe('scanSkillsDir with a cache shared across profiles', () => {
  it('OMP takes the entries MusePi left, xcsh those read alike; each keeps its own reading of the rest', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(dir, FILES);
    const files = Object.keys(FILES).length;
    const cache = createSkillFileCache();
    const musepi = await scanSkillsDir(dir, { ...profileOptions('musepi'), cache });
    assert.deepEqual(musepi, await scanSkillsDir(dir, profileOptions('musepi')));
    assert.deepEqual(cache.stats, { hits: 0, misses: files });
    assert.deepEqual(
      await scanSkillsDir(dir, { ...profileOptions('omp'), cache }),
      await scanSkillsDir(dir, profileOptions('omp')),
    );
    assert.deepEqual(cache.stats, { hits: files, misses: files });
    const xcsh = await scanSkillsDir(dir, profileOptions('xcsh'));
    assert.notDeepEqual(xcsh, musepi);
    // Only a/SKILL.md parsed as YAML at once: xcsh takes its reading and parses the six others.
    assert.deepEqual(await scanSkillsDir(dir, { ...profileOptions('xcsh'), cache }), xcsh);
    assert.deepEqual(cache.stats, { hits: files + 1, misses: files + 6 });
    // Both dialects' readings stay side by side: neither evicts the other's.
    assert.deepEqual(await scanSkillsDir(dir, { ...profileOptions('musepi'), cache }), musepi);
    assert.deepEqual(await scanSkillsDir(dir, { ...profileOptions('xcsh'), cache }), xcsh);
    assert.deepEqual(cache.stats, { hits: 3 * files + 1, misses: files + 6 });
    assert.equal(cache.size, files);
  });
});
