import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { createFileDigests } from '../../../src/discovery/files/file-digests.js';
import {
  DEFAULT_SKILL_FILE_LIMITS,
  listSkillFiles,
  type SkillFileLimits,
  stillCurrent,
} from '../../../src/discovery/files/skill-file-list.js';
import type { Skill } from '../../../src/discovery/types.js';
import { makeTempDir, writeTree } from '../../helpers/temp-tree.js';

async function skillAt(t: { after: (fn: () => Promise<void>) => void }, files: Record<string, string>) {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(dir, files);
  const skill = {
    name: 'pdf',
    description: 'PDF tools',
    filePath: `${dir}/pdf/SKILL.md`,
    baseDir: `${dir}/pdf`,
    hide: false,
    source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: '' },
    frontmatter: {},
  } as Skill;
  return { dir, skill };
}

const OPTIONS = { profile: 'musepi', symlinks: 'contain' } as const;

describe('listSkillFiles', () => {
  it('lists every file once, sorted by path, within the bounds', async (t) => {
    const { skill } = await skillAt(t, { 'pdf/SKILL.md': 'x', 'pdf/b/c.txt': 'cc', 'pdf/a.txt': 'a' });
    const list = await listSkillFiles([skill], 'pdf', OPTIONS);
    assert.equal(list.complete, true);
    if (!list.complete) return;
    assert.deepEqual(
      list.files.map((file) => file.relative),
      ['SKILL.md', 'a.txt', 'b/c.txt'],
    );
    assert.equal(list.bytes, 4);
  });

  const bounds: Array<[string, Partial<SkillFileLimits>, string]> = [
    ['files', { maxFiles: 2 }, 'more than 2 files'],
    ['bytes', { maxBytes: 3 }, 'more than 3 bytes'],
    ['depth', { maxDepth: 0 }, 'directories nested deeper than 0 levels (server.walkLimits.maxDepth)'],
    ['entries', { maxEntries: 3 }, 'more than 3 entries (server.walkLimits.maxEntries)'],
    ['directories', { maxDirectories: 1 }, 'more than 1 directories (server.walkLimits.maxDirectories)'],
  ];
  for (const [what, limits, reason] of bounds) {
    it(`says which bound a skill passes: ${what}`, async (t) => {
      const { skill } = await skillAt(t, { 'pdf/SKILL.md': 'x', 'pdf/b/c.txt': 'cc', 'pdf/a.txt': 'a' });
      const list = await listSkillFiles([skill], 'pdf', OPTIONS, { ...DEFAULT_SKILL_FILE_LIMITS, ...limits });
      assert.equal(list.complete, false);
      assert.equal(list.complete === false && list.reason, reason);
    });
  }

  it('counts the entries it refuses: dangling links, links out of the skill, FIFOs', async (t) => {
    const { dir, skill } = await skillAt(t, { 'pdf/SKILL.md': 'x', 'outside.txt': 'secret' });
    for (let i = 0; i < 5; i++) await symlink(`missing-${i}`, `${dir}/pdf/dangling-${i}`);
    for (let i = 0; i < 5; i++) await symlink('../outside.txt', `${dir}/pdf/out-${i}`);
    execFileSync('mkfifo', [`${dir}/pdf/pipe`]);
    const limits = { ...DEFAULT_SKILL_FILE_LIMITS, maxEntries: 11 };
    // 12 entries, of which only SKILL.md is served: the eleven refused ones still count.
    const list = await listSkillFiles([skill], 'pdf', OPTIONS, limits);
    assert.equal(list.complete, false);
    assert.equal(list.examined, 12);
    const roomy = await listSkillFiles([skill], 'pdf', OPTIONS, { ...limits, maxEntries: 12 });
    assert.ok(roomy.complete);
    assert.deepEqual(
      roomy.files.map((file) => file.relative),
      ['SKILL.md'],
    );
    assert.equal(roomy.examined, 12);
  });

  it('stops at the first entry past the bound, even in one directory of many', async (t) => {
    const { dir, skill } = await skillAt(t, { 'pdf/SKILL.md': 'x' });
    for (let i = 0; i < 3000; i++) await mkdir(`${dir}/pdf/d${i}`);
    const list = await listSkillFiles([skill], 'pdf', OPTIONS, { ...DEFAULT_SKILL_FILE_LIMITS, maxEntries: 100 });
    assert.equal(list.complete, false);
    assert.equal(list.examined, 101);
  });

  it('stops when its signal aborts, with the signal’s reason', async (t) => {
    const { dir, skill } = await skillAt(t, { 'pdf/SKILL.md': 'x' });
    for (let i = 0; i < 50; i++) await mkdir(`${dir}/pdf/d${i}`);
    const controller = new AbortController();
    const reason = new Error('gone');
    let examined = 0;
    const walk = listSkillFiles([skill], 'pdf', OPTIONS, DEFAULT_SKILL_FILE_LIMITS, {
      signal: controller.signal,
      onEntry: () => {
        examined++;
        if (examined === 10) controller.abort(reason);
      },
    });
    await assert.rejects(walk, (error) => error === reason);
    assert.equal(examined, 10);
  });

  it('tells whether a listing still describes the disk', async (t) => {
    const { dir, skill } = await skillAt(t, { 'pdf/SKILL.md': 'x', 'pdf/b/c.txt': 'cc' });
    const list = await listSkillFiles([skill], 'pdf', OPTIONS);
    assert.equal(await stillCurrent(list), true);
    await writeFile(`${dir}/pdf/b/new.txt`, 'n');
    assert.equal(await stillCurrent(list), false);
    const again = await listSkillFiles([skill], 'pdf', OPTIONS);
    assert.equal(await stillCurrent(again), true);
    await writeFile(`${dir}/pdf/b/c.txt`, 'changed');
    assert.equal(await stillCurrent(again), false);
  });

  it('throws the resolution error of an unknown skill', async (t) => {
    const { skill } = await skillAt(t, { 'pdf/SKILL.md': 'x' });
    await assert.rejects(listSkillFiles([skill], 'nope', OPTIONS), { code: 'SkillNotFound' });
  });
});

describe('createFileDigests', () => {
  it('gives sha256sum of the bytes and reads a file again only when its identity changes', async (t) => {
    const { dir, skill } = await skillAt(t, { 'pdf/SKILL.md': 'x', 'pdf/a.txt': 'alpha\n' });
    const digests = createFileDigests();
    const digestOf = async () => {
      const list = await listSkillFiles([skill], 'pdf', OPTIONS);
      assert.ok(list.complete);
      const file = list.files.find((entry) => entry.relative === 'a.txt');
      assert.ok(file);
      return digests.digest(file.resource);
    };
    const sum = () =>
      `sha256:${
        execFileSync('sha256sum', [`${dir}/pdf/a.txt`])
          .toString()
          .split(' ')[0]
      }`;
    // A whole-second mtime, which utimes can set back exactly.
    await utimes(`${dir}/pdf/a.txt`, 1_000_000, 1_000_000);
    const first = sum();
    assert.equal(await digestOf(), first);
    // Same size, same times, other bytes: the identity is unchanged, so the cached digest answers (no read).
    await writeFile(`${dir}/pdf/a.txt`, 'ALPHA\n');
    await utimes(`${dir}/pdf/a.txt`, 1_000_000, 1_000_000);
    assert.equal(await digestOf(), first);
    assert.equal(digests.size, 1);
    await writeFile(`${dir}/pdf/a.txt`, 'beta, longer\n');
    assert.equal(await digestOf(), sum());
    assert.equal(digests.size, 1);
  });
});
