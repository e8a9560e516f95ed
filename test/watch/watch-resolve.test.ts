import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveTarget } from '../../src/watch/watch-resolve.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

describe('resolveTarget', () => {
  // [label, target relative to the temp dir, expected { exists, isDir, real (relative), watchDir (relative), watchName }]
  const cases: Array<
    [string, string, { exists: boolean; isDir: boolean; real: string | null; at: string; name: string }]
  > = [
    [
      'an existing directory',
      'home/.claude/skills',
      { exists: true, isDir: true, real: 'home/.claude/skills', at: 'home/.claude', name: 'skills' },
    ],
    [
      'a missing directory whose parent exists',
      'home/.agents/skills',
      { exists: false, isDir: false, real: null, at: 'home', name: '.agents' },
    ],
    [
      'a directory whose parent and grandparent are missing',
      'home/a/b/skills',
      { exists: false, isDir: false, real: null, at: 'home', name: 'a' },
    ],
    [
      'a symlink to a directory',
      'home/linked',
      { exists: true, isDir: true, real: 'home/.claude/skills', at: 'home', name: 'linked' },
    ],
    [
      'a path under a symlinked directory',
      'home/via/x',
      { exists: true, isDir: true, real: 'home/.claude/skills/x', at: 'home/via', name: 'x' },
    ],
    ['a dangling symlink', 'home/dangling', { exists: true, isDir: false, real: null, at: 'home', name: 'dangling' }],
    [
      'a file where a directory is expected',
      'home/file',
      { exists: true, isDir: false, real: null, at: 'home', name: 'file' },
    ],
    [
      'a path through a file',
      'home/file/skills',
      { exists: false, isDir: false, real: null, at: 'home', name: 'file' },
    ],
  ];

  for (const [label, target, expected] of cases) {
    it(`resolves ${label}`, async (t) => {
      const { dir, cleanup } = await makeTempDir('skillsd-resolve-');
      t.after(cleanup);
      await writeTree(dir, {
        'home/.claude/skills/x': { dir: true },
        'home/linked': { symlink: '.claude/skills' },
        'home/via': { symlink: '.claude/skills' },
        'home/dangling': { symlink: 'nowhere' },
        'home/file': 'not a directory\n',
      });
      const resolution = await resolveTarget(join(dir, target));
      assert.deepEqual(
        {
          exists: resolution.exists,
          isDir: resolution.isDir,
          real: resolution.real,
          watchDir: resolution.watchDir,
          watchName: resolution.watchName,
        },
        {
          exists: expected.exists,
          isDir: expected.isDir,
          real: expected.real === null ? null : join(dir, expected.real),
          watchDir: join(dir, expected.at),
          watchName: expected.name,
        },
      );
      assert.equal(resolution.ino > 0, expected.isDir);
    });
  }
});
