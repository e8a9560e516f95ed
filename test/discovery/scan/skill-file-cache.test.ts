import assert from 'node:assert/strict';
import { rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { keptTextLength } from '../../../src/discovery/scan/parse-skill-head.js';
import type { ScanOptions } from '../../../src/discovery/scan/scan-options.js';
import { scanSkillsDir } from '../../../src/discovery/scan/scan-skills-dir.js';
import { createSkillFileCache, type SkillFileStamp } from '../../../src/discovery/scan/skill-file-cache.js';
import { NATIVE_PROJECT_SCAN } from '../../helpers/scan-options.js';
import { makeTempDir, SK, writeTree } from '../../helpers/temp-tree.js';

const STAMP: SkillFileStamp = { mtimeMs: 1000.5, ctimeMs: 1000.5, size: 42, ino: 7 };
const FM = Object.freeze({ name: 'a' });

describe('createSkillFileCache', () => {
  it('hits only with the same path, stamp and frontmatter dialect (MusePi and OMP read alike, xcsh not)', () => {
    const cache = createSkillFileCache();
    assert.equal(cache.get('/s/SKILL.md', STAMP, 'musepi'), undefined);
    cache.set('/s/SKILL.md', STAMP, 'musepi', FM, 42);
    assert.equal(cache.get('/s/SKILL.md', { ...STAMP }, 'musepi'), FM);
    assert.equal(cache.get('/s/SKILL.md', STAMP, 'omp'), FM);
    assert.equal(cache.get('/s/SKILL.md', STAMP, 'xcsh'), undefined);
    assert.equal(cache.get('/other/SKILL.md', STAMP, 'musepi'), undefined);
    for (const field of ['mtimeMs', 'ctimeMs', 'size', 'ino'] as const) {
      assert.equal(cache.get('/s/SKILL.md', { ...STAMP, [field]: STAMP[field] + 1 }, 'musepi'), undefined, field);
    }
    assert.deepEqual(cache.stats, { hits: 2, misses: 7 });
    assert.equal(cache.size, 1);
    cache.set('/x/SKILL.md', STAMP, 'xcsh', FM, 42);
    assert.equal(cache.get('/x/SKILL.md', STAMP, 'xcsh'), FM);
    assert.equal(cache.get('/x/SKILL.md', STAMP, 'omp'), undefined);
    assert.equal(cache.get('/x/SKILL.md', STAMP, 'musepi'), undefined);
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = createSkillFileCache(2);
    cache.set('a', STAMP, 'musepi', FM, 1);
    cache.set('b', STAMP, 'musepi', FM, 1);
    assert.equal(cache.get('a', STAMP, 'musepi'), FM);
    cache.set('c', STAMP, 'musepi', FM, 1);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b', STAMP, 'musepi'), undefined);
    assert.equal(cache.get('a', STAMP, 'musepi'), FM);
    assert.equal(cache.get('c', STAMP, 'musepi'), FM);
  });

  it('keeps at most maxTextBytes of source text, and never an entry bigger than that', () => {
    const cache = createSkillFileCache(100, 100);
    cache.set('a', STAMP, 'musepi', FM, 60);
    cache.set('b', STAMP, 'musepi', FM, 60);
    assert.equal(cache.get('a', STAMP, 'musepi'), undefined);
    assert.equal(cache.get('b', STAMP, 'musepi'), FM);
    cache.set('huge', STAMP, 'musepi', FM, 101);
    assert.equal(cache.get('huge', STAMP, 'musepi'), undefined);
    assert.equal(cache.size, 1);
  });

  it('replaces an entry for the same path, deletes and clears', () => {
    const cache = createSkillFileCache();
    const newer = Object.freeze({ name: 'b' });
    cache.set('a', STAMP, 'musepi', FM, 1);
    cache.set('a', { ...STAMP, size: 43 }, 'musepi', newer, 1);
    assert.equal(cache.size, 1);
    assert.equal(cache.get('a', STAMP, 'musepi'), undefined);
    assert.equal(cache.get('a', { ...STAMP, size: 43 }, 'musepi'), newer);
    cache.delete('a');
    assert.equal(cache.size, 0);
    cache.set('b', STAMP, 'musepi', FM, 1);
    cache.clear();
    assert.equal(cache.size, 0);
  });

  it('a reading for every dialect hits every profile; per-dialect readings of one file stay side by side', () => {
    const cache = createSkillFileCache(100, 100);
    const plain = Object.freeze({ name: 'a', description: 'raw: text' });
    cache.set('any', STAMP, 'xcsh', FM, 10, [], true);
    for (const profile of ['musepi', 'omp', 'xcsh'] as const) assert.equal(cache.get('any', STAMP, profile), FM);
    cache.set('a', STAMP, 'musepi', FM, 30);
    cache.set('a', STAMP, 'xcsh', plain, 30);
    assert.equal(cache.get('a', STAMP, 'omp'), FM);
    assert.equal(cache.get('a', STAMP, 'xcsh'), plain);
    assert.equal(cache.size, 2);
    // The two readings weigh together (60 + 10): one more of 40 evicts the least recently used entry, `any`.
    cache.set('b', STAMP, 'musepi', FM, 40);
    assert.equal(cache.get('any', STAMP, 'musepi'), undefined);
    assert.equal(cache.get('a', STAMP, 'xcsh'), plain);
    // And leave together: `c` evicts `b`, then both readings of `a`.
    cache.set('c', STAMP, 'musepi', FM, 80);
    assert.equal(cache.size, 1);
    assert.equal(cache.get('a', STAMP, 'xcsh'), undefined);
    assert.equal(cache.get('a', STAMP, 'musepi'), undefined);
    // A new stamp drops the other dialect's reading; a reading for every dialect replaces both.
    cache.set('c', STAMP, 'xcsh', plain, 10);
    cache.set('c', { ...STAMP, size: 43 }, 'musepi', FM, 10);
    assert.equal(cache.get('c', { ...STAMP, size: 43 }, 'xcsh'), undefined);
    cache.set('c', { ...STAMP, size: 43 }, 'xcsh', plain, 10);
    cache.set('c', { ...STAMP, size: 43 }, 'musepi', plain, 10, [], true);
    assert.equal(cache.get('c', { ...STAMP, size: 43 }, 'musepi'), plain);
    assert.equal(cache.get('c', { ...STAMP, size: 43 }, 'xcsh'), plain);
  });

  it('with maxEntries 0 stores nothing', () => {
    const cache = createSkillFileCache(0);
    cache.set('a', STAMP, 'musepi', FM, 1);
    assert.equal(cache.size, 0);
  });
});

// Both ways of reading a directory: with the promise API, and with synchronous calls (the first index, the views'
// discoveries), where a file the cache holds is looked at with one `lstat` instead of an open.
for (const blocking of [false, true]) {
  describe(`scanSkillsDir with a cache${blocking ? ', synchronous calls' : ''}`, () => {
    const OPTIONS: ScanOptions = blocking ? { ...NATIVE_PROJECT_SCAN, blocking: true } : NATIVE_PROJECT_SCAN;

    async function skillsTree(t: { after: (fn: () => Promise<void>) => void }) {
      const { dir, cleanup } = await makeTempDir();
      t.after(cleanup);
      await writeTree(dir, {
        'a/SKILL.md': SK({ name: 'a', description: 'first' }),
        'b/SKILL.md': '---\nname: b\ndescription: Use when: asked\nhide: true\nallowed-tools: [Read]\n---\n',
        'c/SKILL.md': SK({ name: 'c', description: 'third', enabled: false }),
        'd/SKILL.md': '---\nname: d\n---\n',
        'e/SKILL.md': '',
        'f/SKILL.md': '---js\n{ name: "f" }\n---\n',
      });
      return dir;
    }

    it('gives identical results with and without the cache, and hits on the second scan', async (t) => {
      const dir = await skillsTree(t);
      const cache = createSkillFileCache();
      for (const profile of ['musepi', 'xcsh'] as const) {
        for (const requireDescription of [true, false]) {
          const options = { ...OPTIONS, profile, requireDescription };
          const plain = await scanSkillsDir(dir, options);
          assert.deepEqual(await scanSkillsDir(dir, { ...options, cache }), plain);
          assert.deepEqual(await scanSkillsDir(dir, { ...options, cache }), plain);
        }
      }
      // Five non-empty files (e is 0 bytes, never read): MusePi's first scan misses each, its three others hit. xcsh takes
      // the readings of the three whose block parsed as YAML at once (a, c, d): its first scan misses b and f only.
      assert.deepEqual(cache.stats, { hits: 33, misses: 7 });
      assert.equal(cache.size, 5);
    });

    it('re-reads only an edited file', async (t) => {
      const dir = await skillsTree(t);
      const cache = createSkillFileCache();
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      await writeFile(join(dir, 'a', 'SKILL.md'), SK({ name: 'a', description: 'edited, longer' }));
      const { skills } = await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(
        skills.map((skill) => [skill.name, skill.description]),
        [
          ['a', 'edited, longer'],
          ['b', 'Use when: asked'],
        ],
      );
      assert.deepEqual(cache.stats, { hits: 4, misses: 6 });
    });

    it('notices an edit that keeps the size and restores the mtime (ctime changes)', async (t) => {
      const dir = await skillsTree(t);
      const file = join(dir, 'a', 'SKILL.md');
      const cache = createSkillFileCache();
      // Whole seconds, so that setting the same mtime again is exact.
      await utimes(file, 1_000_000, 1_000_000);
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      const before = await stat(file);
      await writeFile(file, SK({ name: 'A', description: 'first' }));
      await utimes(file, 1_000_000, 1_000_000);
      const after = await stat(file);
      assert.equal(after.size, before.size);
      assert.equal(after.mtimeMs, before.mtimeMs);
      const { skills } = await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(
        skills.map((skill) => skill.name),
        ['A', 'b'],
      );
    });

    it('notices a file replaced by rename (new inode)', async (t) => {
      const dir = await skillsTree(t);
      const file = join(dir, 'a', 'SKILL.md');
      const cache = createSkillFileCache();
      await utimes(file, 1_000_000, 1_000_000);
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      const before = await stat(file);
      const replacement = join(dir, 'a', 'next.tmp');
      await writeFile(replacement, SK({ name: 'z', description: 'first' }));
      await utimes(replacement, 1_000_000, 1_000_000);
      await rename(replacement, file);
      const after = await stat(file);
      assert.equal(after.size, before.size);
      assert.equal(after.mtimeMs, before.mtimeMs);
      assert.notEqual(after.ino, before.ino);
      const { skills } = await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(
        skills.map((skill) => skill.name),
        ['b', 'z'],
      );
    });

    it('reads a cached SKILL.md replaced by a link as a link, as a scan without the cache does', async (t) => {
      const dir = await skillsTree(t);
      const cache = createSkillFileCache();
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      const file = join(dir, 'a', 'SKILL.md');
      await rename(file, join(dir, 'a-original.md'));
      await symlink('../a-original.md', file);
      const withCache = await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(withCache, await scanSkillsDir(dir, OPTIONS));
      assert.equal(withCache.skills.find((skill) => skill.name === 'a')?.filePath, file);
    });

    it('drops a deleted skill even though its entry is cached', async (t) => {
      const dir = await skillsTree(t);
      const cache = createSkillFileCache();
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      await rm(join(dir, 'a'), { recursive: true });
      const { skills } = await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(
        skills.map((skill) => skill.name),
        ['b'],
      );
    });

    it('skips a file emptied since it was cached', async (t) => {
      const dir = await skillsTree(t);
      const cache = createSkillFileCache();
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      await writeFile(join(dir, 'a', 'SKILL.md'), '');
      const { skills } = await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(
        skills.map((skill) => skill.name),
        ['b'],
      );
    });

    it('weighs an entry by its frontmatter block, not the body: big files under a small bound all stay cached', async (t) => {
      const { dir, cleanup } = await makeTempDir();
      t.after(cleanup);
      const body = `\n${'body text '.repeat(2000)}\n`;
      await writeTree(dir, {
        'a/SKILL.md': `${SK({ name: 'a', description: 'first' })}${body}`,
        'b/SKILL.md': `${SK({ name: 'b', description: 'second' })}${body}`,
        'c/SKILL.md': `${SK({ name: 'c', description: 'third' })}${body}`,
      });
      // Each file is over 20,000 characters; each block is a few dozen. Weighed by file, not one would fit in 4,096.
      const cache = createSkillFileCache(100, 4096);
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.equal(cache.size, 3);
      await scanSkillsDir(dir, { ...OPTIONS, cache });
      assert.deepEqual(cache.stats, { hits: 3, misses: 3 });
    });
  });
}

describe('keptTextLength', () => {
  it('keptTextLength counts the block up to its closing fence and the notes', () => {
    assert.equal(keptTextLength('---\nname: a\n---\nbody', []), 11);
    assert.equal(keptTextLength('---\nname: a\n---\nbody', ['xy', 'z']), 14);
    assert.equal(keptTextLength('no frontmatter at all', []), 0);
    assert.equal(keptTextLength('---\nunclosed', ['n']), 1);
  });
});
