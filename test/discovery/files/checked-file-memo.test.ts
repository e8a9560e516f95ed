// The memo of checked skill files (src/discovery/files/checked-file-memo.ts): what it keeps, for how long, and the proof a
// hit must pass on disk before its descriptor is used. Real files in a temp directory.

import assert from 'node:assert/strict';
import { closeSync, readSync, statSync } from 'node:fs';
import { mkdir, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type CheckedFile,
  CheckedFileMemo,
  checkedFileKey,
  reopenCheckedFile,
} from '../../../src/discovery/files/checked-file-memo.js';
import { skillRecord } from '../../helpers/skill-records.js';
import { makeTempDir } from '../../helpers/temp-tree.js';

const PROC_FD_AVAILABLE = process.platform === 'linux';

function checked(path: string, skill = skillRecord('s')): CheckedFile & { realPath: string } {
  const info = statSync(path);
  return {
    skill,
    path,
    realPath: path,
    contentType: 'text/markdown',
    dev: info.dev,
    ino: info.ino,
    symlinks: 'contain',
  };
}

describe('CheckedFileMemo', () => {
  it('keeps the newest entries up to its limit, the oldest going first', () => {
    const memo = new CheckedFileMemo(2);
    const skill = skillRecord('s');
    const file = (name: string) => ({ ...checked(process.execPath, skill), path: name, realPath: name });
    memo.remember('a', file('/a'));
    memo.remember('b', file('/b'));
    memo.remember('c', file('/c'));
    assert.equal(memo.size, 2);
    assert.equal(memo.get('a', skill, 'contain'), undefined);
    assert.equal(memo.get('b', skill, 'contain')?.path, '/b');
    assert.equal(memo.get('c', skill, 'contain')?.path, '/c');
  });

  it('does not remember a path that went through a link', () => {
    const memo = new CheckedFileMemo();
    memo.remember('x', { ...checked(process.execPath), path: '/skills/s/link.md', realPath: '/elsewhere/file.md' });
    assert.equal(memo.size, 0);
  });

  it('drops an entry asked for under another skill record or another symlinks mode', () => {
    const memo = new CheckedFileMemo();
    const skill = skillRecord('s');
    memo.remember('k', checked(process.execPath, skill));
    assert.equal(memo.get('k', skill, 'follow'), undefined);
    assert.equal(memo.size, 0);
    memo.remember('k', checked(process.execPath, skill));
    assert.equal(memo.get('k', skillRecord('s'), 'contain'), undefined);
    assert.equal(memo.get('k', undefined, 'contain'), undefined);
    assert.equal(memo.size, 0);
  });

  it('keys the skill name and the raw relative path apart', () => {
    assert.equal(checkedFileKey('pdf', undefined), 'pdf');
    assert.equal(checkedFileKey('pdf', ''), 'pdf\0');
    assert.notEqual(checkedFileKey('a/b', 'c'), checkedFileKey('a', 'b/c'));
  });
});

describe('reopenCheckedFile', { skip: !PROC_FD_AVAILABLE && 'descriptors are named through /proc (Linux)' }, () => {
  let root: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    root = await realpath(temp.dir);
  });
  after(() => cleanup());

  async function fileAt(relative: string, text: string): Promise<string> {
    const path = join(root, relative);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
    return path;
  }

  function readAndClose(fd: number): string {
    const buffer = Buffer.alloc(256);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    closeSync(fd);
    return buffer.subarray(0, length).toString('utf8');
  }

  it('opens the unchanged file and gives its descriptor and fstat', async () => {
    const path = await fileAt('same/a.md', 'same\n');
    const reopened = await reopenCheckedFile(checked(path));
    assert.ok(reopened !== undefined);
    assert.equal(reopened.stat.size, 5);
    assert.equal(readAndClose(reopened.fd), 'same\n');
  });

  it('refuses a file swapped for a link, even to the same file', async () => {
    const path = await fileAt('link/a.md', 'linked\n');
    const entry = checked(path);
    await rename(path, join(root, 'link/b.md'));
    await symlink('b.md', path);
    assert.equal(await reopenCheckedFile(entry), undefined);
  });

  it('refuses the same inode reached through a directory swapped for a link', async () => {
    const path = await fileAt('dir/sub/a.md', 'moved\n');
    const entry = checked(path);
    await rename(join(root, 'dir/sub'), join(root, 'moved-sub'));
    await symlink('../moved-sub', join(root, 'dir/sub'));
    assert.equal(statSync(path).ino, entry.ino);
    assert.equal(await reopenCheckedFile(entry), undefined);
  });

  it('refuses another file renamed over it, and a removed one', async () => {
    const path = await fileAt('other/a.md', 'first\n');
    const entry = checked(path);
    await writeFile(`${path}.new`, 'second\n');
    await rename(`${path}.new`, path);
    assert.equal(await reopenCheckedFile(entry), undefined);
    await rm(path);
    assert.equal(await reopenCheckedFile(entry), undefined);
  });

  it('refuses a directory where the file was', async () => {
    const path = await fileAt('kind/a.md', 'file\n');
    const entry = checked(path);
    await rm(path);
    await mkdir(path);
    assert.equal(await reopenCheckedFile(entry), undefined);
  });
});
