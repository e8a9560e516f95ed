// The views' file system calls made synchronously a slice at a time (src/discovery/files/sliced-fs.ts) answer what
// the promise API answers, errors included, and let the event loop turn during a long series of calls.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import * as sliced from '../../../src/discovery/files/sliced-fs.js';
import { readTextFile, readTextFileNow } from '../../../src/discovery/read-text-file.js';
import { makeTempDir, writeTree } from '../../helpers/temp-tree.js';

/** What a call gave: its value, or its error's message, code and syscall. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await call();
    if (Array.isArray(value)) {
      return value.map((entry) =>
        typeof entry === 'string'
          ? entry
          : { name: entry.name, dir: entry.isDirectory(), link: entry.isSymbolicLink() },
      );
    }
    if (value instanceof Object && 'ino' in value) {
      const stats = value as import('node:fs').Stats;
      return { ino: stats.ino, size: stats.size, mode: stats.mode, mtimeMs: stats.mtimeMs };
    }
    return value;
  } catch (error) {
    const { message, code, syscall } = error as NodeJS.ErrnoException;
    return { message, code, syscall };
  }
}

/** Each call of sliced-fs.ts beside the promise API's. */
const PAIRS: ReadonlyArray<[string, (path: string) => Promise<unknown>, (path: string) => Promise<unknown>]> = [
  ['stat', sliced.stat, fsPromises.stat],
  ['lstat', sliced.lstat, fsPromises.lstat],
  ['realpath', sliced.realpath, fsPromises.realpath],
  ['readlink', sliced.readlink, fsPromises.readlink],
];

test('each call answers as fs/promises: files, directories, links, loops, missing paths, paths through a file', async (t) => {
  const { dir, cleanup } = await makeTempDir('skillsd-sliced-fs-');
  t.after(cleanup);
  await writeTree(dir, {
    'd/SKILL.md': '---\nname: a\n---\n',
    'd/inner/x': 'x',
    link: { symlink: 'd' },
    'file-link': { symlink: 'd/SKILL.md' },
    dangling: { symlink: 'gone' },
    loop: { symlink: 'loop' },
  });
  const paths = ['d', 'd/SKILL.md', 'link', 'file-link', 'dangling', 'loop', 'missing', 'd/SKILL.md/below'];
  let compared = 0;
  for (const name of paths) {
    const path = join(dir, name);
    for (const [op, now, promised] of PAIRS) {
      assert.deepEqual(await outcome(() => now(path)), await outcome(() => promised(path)), `${op} ${name}`);
      compared++;
    }
    assert.deepEqual(await outcome(() => sliced.readdir(path)), await outcome(() => fsPromises.readdir(path)), name);
    assert.deepEqual(
      await outcome(() => sliced.readdir(path, { withFileTypes: true })),
      await outcome(() => fsPromises.readdir(path, { withFileTypes: true })),
      name,
    );
    compared += 2;
  }
  assert.equal(compared, 48);
  // The tree gives both answers and errors of several kinds.
  assert.deepEqual(await sliced.readdir(join(dir, 'link')), ['SKILL.md', 'inner']);
  assert.equal(((await outcome(() => sliced.stat(join(dir, 'loop')))) as { code: string }).code, 'ELOOP');
  assert.equal(((await outcome(() => sliced.stat(join(dir, 'd/SKILL.md/below')))) as { code: string }).code, 'ENOTDIR');
});

test('readTextFileNow gives readTextFile’s statuses and errors', async (t) => {
  const { dir, cleanup } = await makeTempDir('skillsd-sliced-read-');
  t.after(cleanup);
  await writeTree(dir, {
    'ok.md': 'café\n',
    'big.md': 'x'.repeat(200),
    'empty.md': '',
    sub: { symlink: '.' },
    'link.md': { symlink: 'ok.md' },
  });
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  for (const name of ['ok.md', 'big.md', 'empty.md', 'sub', 'link.md', 'fifo', 'missing', 'ok.md/below']) {
    for (const noFollow of [false, true]) {
      const path = join(dir, name);
      assert.deepEqual(
        await outcome(async () => readTextFileNow(path, 100, noFollow)),
        await outcome(() => readTextFile(path, 100, noFollow)),
        `${name} noFollow=${noFollow}`,
      );
    }
  }
  assert.deepEqual(readTextFileNow(join(dir, 'ok.md')), { status: 'ok', text: 'café\n' });
  assert.deepEqual(readTextFileNow(join(dir, 'big.md'), 100), { status: 'too-large' });
  assert.deepEqual(readTextFileNow(join(dir, 'fifo')), { status: 'not-a-file' });
  assert.throws(() => readTextFileNow(join(dir, 'link.md'), 100, true), { code: 'ELOOP' });
});

test('the event loop turns during a long series of calls', async (t) => {
  const { dir, cleanup } = await makeTempDir('skillsd-sliced-turn-');
  t.after(cleanup);
  await writeTree(dir, { 'f.md': 'x' });
  const file = join(dir, 'f.md');
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  // Calls whose promises are settled at once would run to the end in microtasks, the immediate never firing among
  // them; made a slice at a time, the loop turns once a slice is spent (a few thousand calls).
  let calls = 0;
  while (!turned && calls < 1_000_000) {
    await sliced.stat(file);
    calls++;
  }
  assert.equal(turned, true);
  assert.ok(calls < 1_000_000, `${calls}`);
});
