import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readSkillFileHead } from '../../../src/discovery/scan/read-skill-file.js';
import { makeTempDir } from '../../helpers/temp-tree.js';

async function fileWith(t: { after: (fn: () => Promise<void>) => void }, content: string | Buffer): Promise<string> {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  const path = join(dir, 'SKILL.md');
  await writeFile(path, content);
  return path;
}

/**
 * The descriptors of this process open on one of `targets`. Counting all of them would also count what the runner
 * and the garbage collector open and close meanwhile (a count of 31 became 30 once on a loaded machine).
 */
function descriptorsOn(targets: string[]): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (targets.includes(target)) open.push(target);
    } catch {
      // Closed between the listing and the read: not open on a target.
    }
  }
  return open;
}

describe('readSkillFileHead', () => {
  it('reads a whole file, not cut, valid UTF-8', async (t) => {
    const path = await fileWith(t, '---\nname: é\n---\n');
    assert.deepStrictEqual(await readSkillFileHead(path), {
      text: '---\nname: é\n---\n',
      size: 17,
      truncated: false,
      validUtf8: true,
    });
  });

  it('reads an empty file as empty text', async (t) => {
    const path = await fileWith(t, '');
    assert.deepStrictEqual(await readSkillFileHead(path), { text: '', size: 0, truncated: false, validUtf8: true });
  });

  it('a file of exactly the cap is whole; one byte more is cut', async (t) => {
    const exact = await fileWith(t, 'abcd');
    assert.deepStrictEqual(await readSkillFileHead(exact, 4), {
      text: 'abcd',
      size: 4,
      truncated: false,
      validUtf8: true,
    });
    const longer = await fileWith(t, 'abcde');
    assert.deepStrictEqual(await readSkillFileHead(longer, 4), {
      text: 'abcd',
      size: 5,
      truncated: true,
      validUtf8: true,
    });
  });

  it('a character cut by the cap is not invalid UTF-8; a bad byte is', async (t) => {
    const cut = await fileWith(t, 'aé');
    assert.deepStrictEqual(await readSkillFileHead(cut, 2), {
      text: 'a\ufffd',
      size: 3,
      truncated: true,
      validUtf8: true,
    });
    const bad = await fileWith(t, Buffer.from([0x61, 0xff, 0x62]));
    assert.deepStrictEqual(await readSkillFileHead(bad), {
      text: 'a\ufffdb',
      size: 3,
      truncated: false,
      validUtf8: false,
    });
  });

  it('a file larger than one read is read whole', async (t) => {
    const text = 'x'.repeat(300_000);
    const path = await fileWith(t, text);
    const head = await readSkillFileHead(path);
    assert.equal(head.text, text);
    assert.equal(head.truncated, false);
  });

  it('rejects a missing file with ENOENT, a directory and a FIFO as not regular files', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    await assert.rejects(readSkillFileHead(join(dir, 'none')), { code: 'ENOENT' });
    await assert.rejects(readSkillFileHead(dir), { message: `not a regular file: ${dir}` });
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(readSkillFileHead(fifo), { message: `not a regular file: ${fifo}` });
  });

  it('closes every descriptor it opens, also on failure', async (t) => {
    const path = await fileWith(t, 'text');
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    for (let i = 0; i < 50; i++) {
      await readSkillFileHead(path);
      await readSkillFileHead(dir).catch(() => undefined);
    }
    assert.deepEqual(descriptorsOn([path, dir]), []);
    // The check itself sees descriptors that are open: one held on each target is found.
    const handles = await Promise.all([open(path), open(dir)]);
    assert.deepEqual(descriptorsOn([path, dir]).sort(), [dir, path].sort());
    await Promise.all(handles.map((handle) => handle.close()));
  });
});
