import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { utimes, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { createFileDigests } from '../../src/discovery/file-digests.js';
import { listSkillFiles } from '../../src/discovery/skill-file-list.js';
import type { Skill } from '../../src/discovery/types.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

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

  const bounds: Array<[string, { maxFiles: number; maxBytes: number; maxDepth: number }, string]> = [
    ['files', { maxFiles: 2, maxBytes: 1000, maxDepth: 8 }, 'more than 2 files'],
    ['bytes', { maxFiles: 10, maxBytes: 3, maxDepth: 8 }, 'more than 3 bytes'],
    ['depth', { maxFiles: 10, maxBytes: 1000, maxDepth: 0 }, 'directories nested deeper than 0 levels'],
  ];
  for (const [what, limits, reason] of bounds) {
    it(`says which bound a skill passes: ${what}`, async (t) => {
      const { skill } = await skillAt(t, { 'pdf/SKILL.md': 'x', 'pdf/b/c.txt': 'cc', 'pdf/a.txt': 'a' });
      assert.deepEqual(await listSkillFiles([skill], 'pdf', OPTIONS, limits), { complete: false, reason });
    });
  }

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
