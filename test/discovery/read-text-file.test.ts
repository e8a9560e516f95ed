import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  MAX_TEXT_FILE_BYTES,
  readTextFile,
  readTextFileNow,
  type TextFileRead,
} from '../../src/discovery/read-text-file.js';
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
      // Past one page, with a two-byte character across the page's end.
      'pages.md': `${'a'.repeat(4095)}é${'b'.repeat(6000)}`,
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
    [
      'a file of several pages',
      'pages.md',
      undefined,
      { status: 'ok', text: `${'a'.repeat(4095)}é${'b'.repeat(6000)}` },
    ],
  ];
  for (const [label, name, maxBytes, expected] of cases) {
    it(`reads ${label}`, async () => {
      assert.deepEqual(await readTextFile(join(dir, name), maxBytes), expected);
    });
    it(`reads ${label}, with synchronous calls`, () => {
      assert.deepEqual(readTextFileNow(join(dir, name), maxBytes), expected);
    });
  }

  it('reads to the end a file that grew after it was opened, and hands over the stats of the file opened', () => {
    const path = join(dir, 'growing.md');
    // Past a page: the first read fills its buffer (the size at the open and one byte more) and the rest follows.
    appendFileSync(path, 'a'.repeat(5000));
    let seen: Stats | undefined;
    const read = readTextFileNow(path, undefined, true, (info) => {
      seen = info;
      appendFileSync(path, 'second\n');
    });
    assert.deepEqual(read, { status: 'ok', text: `${'a'.repeat(5000)}second\n` });
    assert.equal(seen?.size, 5000);
    assert.equal(seen?.ino, statSync(path).ino);
  });

  it('stops one byte past the cap on a file that grew past it after it was opened', () => {
    const path = join(dir, 'growing-past-cap.md');
    appendFileSync(path, '12345');
    const read = readTextFileNow(path, 8, false, () => appendFileSync(path, '6789'));
    assert.deepEqual(read, { status: 'too-large' });
  });

  it('reads a file exactly at the default cap', async () => {
    const read = await readTextFile(join(dir, 'at-cap.txt'));
    assert.equal(read.status, 'ok');
    assert.equal(read.status === 'ok' && read.text.length, MAX_TEXT_FILE_BYTES);
  });

  it('throws other errors', async () => {
    await assert.rejects(readTextFile(join(dir, 'loop.md')), { code: 'ELOOP' });
  });
});
