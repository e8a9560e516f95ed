import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Resolution } from '../../src/watch/watch-resolve.js';
import type { WatchKey } from '../../src/watch/watch-signature.js';
import {
  countPendingAncestors,
  isTargetKey,
  newTarget,
  type Target,
  wantedTargets,
} from '../../src/watch/watch-targets.js';

function resolved(target: Target, exists: boolean, isDir: boolean): Target {
  const resolution: Resolution = {
    exists,
    isDir,
    real: isDir ? target.path : null,
    ino: isDir ? 1 : 0,
    watchDir: '/',
    watchName: 'x',
    linkWatch: null,
  };
  return { ...target, resolution };
}

describe('wantedTargets', () => {
  it('names each target by kind and absolute path; a marker directory stands for its .git entry', () => {
    const wanted = wantedTargets({
      skillDirs: ['/w/skills', '/w/skills/'],
      markerDirs: ['/w'],
      files: ['/w/plugins.json'],
      markerPaths: ['/w/CFG'],
    });
    assert.deepEqual(
      [...wanted],
      [
        ['skills:/w/skills', { kind: 'skills', path: '/w/skills' }],
        ['marker:/w/.git', { kind: 'marker', path: '/w/.git' }],
        ['file:/w/plugins.json', { kind: 'file', path: '/w/plugins.json' }],
        ['marker:/w/CFG', { kind: 'marker', path: '/w/CFG' }],
      ],
    );
  });
});

describe('newTarget', () => {
  it('fingerprints a skills directory as a directory, other targets under their own kind, unwatched', () => {
    assert.deepEqual(newTarget('skills', '/w/skills'), {
      kind: 'skills',
      path: '/w/skills',
      key: { kind: 'dir', path: '/w/skills' },
      resolution: null,
      unwatchPresence: null,
      unwatchLink: null,
      root: null,
    });
    assert.deepEqual(newTarget('marker', '/w/.git').key, { kind: 'marker', path: '/w/.git' });
  });
});

describe('isTargetKey', () => {
  const targets = new Map<string, Target>([
    ['skills:/w/skills', newTarget('skills', '/w/skills')],
    ['file:/w/plugins.json', newTarget('file', '/w/plugins.json')],
  ]);
  const cases: Array<[WatchKey, boolean]> = [
    [{ kind: 'dir', path: '/w/skills' }, true],
    [{ kind: 'entry', path: '/w/skills/pdf' }, true],
    [{ kind: 'entry', path: '/w/other/pdf' }, false],
    [{ kind: 'file', path: '/w/plugins.json' }, true],
    [{ kind: 'marker', path: '/w/plugins.json' }, false],
  ];
  for (const [key, expected] of cases) {
    it(`${key.kind} ${key.path}: ${expected}`, () => {
      assert.equal(isTargetKey(targets, key), expected);
    });
  }
});

describe('countPendingAncestors', () => {
  it('counts skills directories that are not directories and files that do not exist, once resolved', () => {
    const targets = [
      newTarget('skills', '/w/unresolved'),
      resolved(newTarget('skills', '/w/missing'), false, false),
      resolved(newTarget('skills', '/w/a-file'), true, false),
      resolved(newTarget('skills', '/w/skills'), true, true),
      resolved(newTarget('file', '/w/missing.json'), false, false),
      resolved(newTarget('file', '/w/plugins.json'), true, false),
      resolved(newTarget('marker', '/w/.git'), false, false),
    ];
    assert.equal(countPendingAncestors(targets), 3);
  });
});
