// A target the caller read before asking for it to be watched is reported, once armed, only where it changed since
// that read (watch-signature.ts ReadAt; docs/agents.md "Live"): the views' walked directories are not read again
// after their first computation, and a change made between the read and the watch is never lost.

import assert from 'node:assert/strict';
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { WatchSignature } from '../../src/watch/watch-signature.js';
import { fsClockPast } from '../helpers/fs-clock.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

describe('WatchSignature readAt', () => {
  it('reports nothing for a tree unchanged since it was read, and exactly what changed after', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-read-at-');
    t.after(cleanup);
    const skills = join(dir, 'tree', 'skills');
    await writeTree(join(dir, 'tree'), {
      'skills/a/SKILL.md': SK({ name: 'a', description: 'a' }),
      'skills/b/SKILL.md': SK({ name: 'b', description: 'b' }),
      'skills/c/SKILL.md': SK({ name: 'c', description: 'c' }),
    });
    await mkdir(join(dir, 'tree', 'quiet'));
    const readAt = await fsClockPast(join(dir, 'tree'));

    const unchanged = await new WatchSignature().refresh(
      [
        { kind: 'dir', path: skills },
        { kind: 'dir', path: join(dir, 'tree', 'quiet', 'missing') },
        { kind: 'file', path: join(dir, 'tree', 'quiet', 'settings.json') },
      ],
      {
        deep: true,
        readAt: new Map([
          [skills, readAt],
          [join(dir, 'tree', 'quiet', 'missing'), readAt],
          [join(dir, 'tree', 'quiet', 'settings.json'), readAt],
        ]),
        readAtSlackMs: 0,
      },
    );
    assert.deepEqual(unchanged.changedSinceRead, []);
    // The fingerprints themselves are new all the same: every entry is known from now on.
    assert.deepEqual(unchanged.changed.sort(), [
      join(skills),
      join(skills, 'a'),
      join(skills, 'a', 'SKILL.md'),
      join(skills, 'b'),
      join(skills, 'b', 'SKILL.md'),
      join(skills, 'c'),
      join(skills, 'c', 'SKILL.md'),
    ]);

    // After the read: b's SKILL.md edited, c given a file, a new entry d, and a file created where one was missing.
    await writeFile(join(skills, 'b', 'SKILL.md'), SK({ name: 'b', description: 'edited' }));
    await writeFile(join(skills, 'c', 'notes.md'), 'x');
    await mkdir(join(skills, 'd'));
    await writeFile(join(dir, 'tree', 'quiet', 'settings.json'), '{}');
    const changed = await new WatchSignature().refresh(
      [
        { kind: 'dir', path: skills },
        { kind: 'file', path: join(dir, 'tree', 'quiet', 'settings.json') },
      ],
      {
        deep: true,
        readAt: new Map([
          [skills, readAt],
          [join(dir, 'tree', 'quiet', 'settings.json'), readAt],
        ]),
        readAtSlackMs: 0,
      },
    );
    assert.deepEqual(changed.changedSinceRead.sort(), [
      join(dir, 'tree', 'quiet', 'settings.json'),
      skills,
      join(skills, 'b', 'SKILL.md'),
      join(skills, 'c'),
      join(skills, 'd'),
    ]);
  });

  it('reports a missing target whose nearest existing folder changed since the read, and not one under a quiet one', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-read-at-gone-');
    t.after(cleanup);
    await writeTree(dir, { 'busy/gone/SKILL.md': SK({ name: 'gone', description: 'x' }), 'quiet/.keep': '' });
    const readAt = await fsClockPast(dir);
    await rm(join(dir, 'busy', 'gone'), { recursive: true });
    const result = await new WatchSignature().refresh(
      [
        { kind: 'dir', path: join(dir, 'busy', 'gone') },
        { kind: 'dir', path: join(dir, 'quiet', 'never', 'skills') },
      ],
      {
        deep: true,
        readAt: new Map([
          [join(dir, 'busy', 'gone'), readAt],
          [join(dir, 'quiet', 'never', 'skills'), readAt],
        ]),
        readAtSlackMs: 0,
      },
    );
    assert.deepEqual(result.changedSinceRead, [join(dir, 'busy', 'gone')]);
  });

  it('counts the slack: a change a little older than the read time is still reported', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-read-at-slack-');
    t.after(cleanup);
    await writeTree(dir, { 'skills/a/SKILL.md': SK({ name: 'a', description: 'a' }) });
    const ctime = (await lstat(join(dir, 'skills', 'a', 'SKILL.md'))).ctimeMs;
    const skills = join(dir, 'skills');
    const read = (slack: number) =>
      new WatchSignature().refresh([{ kind: 'dir', path: skills }], {
        deep: true,
        readAt: new Map([[skills, ctime + 1500]]),
        readAtSlackMs: slack,
      });
    assert.deepEqual((await read(0)).changedSinceRead, []);
    assert.deepEqual((await read(2000)).changedSinceRead.sort(), [
      skills,
      join(skills, 'a'),
      join(skills, 'a', 'SKILL.md'),
    ]);
  });
});
