import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_TEXT_FILE_BYTES, readTextFile, type TextFileRead } from '../../src/discovery/read-text-file.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

describe('readTextFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ dir, cleanup } = await makeTempDir());
    await writeTree(dir, {
      'plain.md': 'héllo\n',
      'empty.md': '',
      'at-cap.txt': Buffer.alloc(MAX_TEXT_FILE_BYTES, 'a'),
      'over-cap.txt': Buffer.alloc(MAX_TEXT_FILE_BYTES + 1, 'a'),
      'link.md': { symlink: 'plain.md' },
      'loop.md': { symlink: 'loop.md' },
      'a-dir': { dir: true },
    });
    assert.equal(spawnSync('mkfifo', [join(dir, 'fifo.md')]).status, 0);
  });
  after(() => cleanup());

  const cases: Array<[string, string, number | undefined, TextFileRead]> = [
    ['a regular file, as UTF-8', 'plain.md', undefined, { status: 'ok', text: 'héllo\n' }],
    ['an empty file', 'empty.md', undefined, { status: 'ok', text: '' }],
    ['a symlink, followed', 'link.md', undefined, { status: 'ok', text: 'héllo\n' }],
    ['a missing file', 'missing.md', undefined, { status: 'missing' }],
    ['a path through a file', 'plain.md/x', undefined, { status: 'missing' }],
    ['a directory', 'a-dir', undefined, { status: 'not-a-file' }],
    ['a FIFO, without blocking', 'fifo.md', undefined, { status: 'not-a-file' }],
    ['a file one byte over the cap', 'over-cap.txt', undefined, { status: 'too-large' }],
    ['a file over a smaller cap', 'plain.md', 6, { status: 'too-large' }],
    ['a file exactly at a smaller cap', 'plain.md', 7, { status: 'ok', text: 'héllo\n' }],
  ];
  for (const [label, name, maxBytes, expected] of cases) {
    it(`reads ${label}`, async () => {
      assert.deepEqual(await readTextFile(join(dir, name), maxBytes), expected);
    });
  }

  it('reads a file exactly at the default cap', async () => {
    const read = await readTextFile(join(dir, 'at-cap.txt'));
    assert.equal(read.status, 'ok');
    assert.equal(read.status === 'ok' && read.text.length, MAX_TEXT_FILE_BYTES);
  });

  it('throws other errors', async () => {
    await assert.rejects(readTextFile(join(dir, 'loop.md')), { code: 'ELOOP' });
  });
});
