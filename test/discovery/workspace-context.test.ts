import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { Profile } from '../../src/discovery/types.js';
import {
  agentDirOf,
  expandCustomDirectory,
  expandEnvPath,
  findRepoRoot,
  profileInfo,
  resolveWorkspaceContext,
  walkUp,
} from '../../src/discovery/workspace-context.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

describe('profiles (docs/discovery.md §0)', () => {
  const table: Array<[Profile, string, string, string | null]> = [
    ['musepi', '.musepi', 'MusePi', 'musepi-managed'],
    ['omp', '.omp', 'OMP', 'omp-managed'],
    ['xcsh', '.xcsh', 'OMP', null],
  ];
  for (const [profile, configDir, nativeDisplayName, managedProviderId] of table) {
    it(`${profile}: CFG ${configDir}, native name ${nativeDisplayName}, managed ${managedProviderId}`, () => {
      assert.deepEqual(profileInfo(profile), { profile, configDir, nativeDisplayName, managedProviderId });
    });
  }
});

describe('AGENT directory', () => {
  const musepi = profileInfo('musepi');
  it('is HOME/CFG/agent by default', () => {
    assert.equal(agentDirOf(musepi, '/h', '/w', {}), '/h/.musepi/agent');
    assert.equal(agentDirOf(profileInfo('omp'), '/h', '/w', {}), '/h/.omp/agent');
    assert.equal(agentDirOf(profileInfo('xcsh'), '/h', '/w', {}), '/h/.xcsh/agent');
  });
  it('is PI_CODING_AGENT_DIR when set', () => {
    assert.equal(agentDirOf(musepi, '/h', '/w', { PI_CODING_AGENT_DIR: '/opt/agent' }), '/opt/agent');
    assert.equal(agentDirOf(musepi, '/h', '/w', { PI_CODING_AGENT_DIR: '~/custom' }), '/h/custom');
    assert.equal(agentDirOf(musepi, '/h', '/w', { PI_CODING_AGENT_DIR: '~' }), '/h');
    assert.equal(agentDirOf(musepi, '/h', '/w', { PI_CODING_AGENT_DIR: 'rel/agent' }), '/w/rel/agent');
  });
  it('ignores an empty PI_CODING_AGENT_DIR', () => {
    assert.equal(agentDirOf(musepi, '/h', '/w', { PI_CODING_AGENT_DIR: '' }), '/h/.musepi/agent');
  });
  it('expands environment paths lexically', () => {
    assert.equal(expandEnvPath('/a/b/../c', '/h', '/w'), '/a/c');
    assert.equal(expandEnvPath('~x', '/h', '/w'), '/w/~x');
  });
});

describe('custom directory expansion (docs/discovery.md §5 step 4)', () => {
  const cases: Array<[string, { shown: string; path: string } | undefined]> = [
    ['', undefined],
    ['~', { shown: '/h', path: '/h' }],
    ['~/skills', { shown: '/h/skills', path: '/h/skills' }],
    ['~//x', { shown: '/h//x', path: '/h//x' }],
    ['~skills', { shown: '/h/skills', path: '/h/skills' }],
    ['~/a/../b', { shown: '/h/a/../b', path: '/h/a/../b' }],
    ['rel/skills', { shown: 'rel/skills', path: '/w/rel/skills' }],
    ['./x', { shown: './x', path: '/w/./x' }],
    ['../up', { shown: '../up', path: '/w/../up' }],
    ['/abs/dir', { shown: '/abs/dir', path: '/abs/dir' }],
    ['/abs/dir/', { shown: '/abs/dir/', path: '/abs/dir/' }],
    ['/T/missing/../C1', { shown: '/T/missing/../C1', path: '/T/missing/../C1' }],
    ['/T//f', { shown: '/T//f', path: '/T//f' }],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(expandCustomDirectory(input, '/h', '/w'), expected));
  }
});

describe('walkUp', () => {
  it('is just CWD when CWD is STOP', () => assert.deepEqual(walkUp('/a/b', '/a/b'), ['/a/b']));
  it('ends with STOP inclusive', () => assert.deepEqual(walkUp('/a/b/c', '/a'), ['/a/b/c', '/a/b', '/a']));
  it('runs to the filesystem root when STOP is never met', () => {
    assert.deepEqual(walkUp('/a/b', '/elsewhere'), ['/a/b', '/a', '/']);
  });
  it('does not treat a sibling prefix as an ancestor', () => {
    assert.deepEqual(walkUp('/ab/c', '/a'), ['/ab/c', '/ab', '/']);
  });
  it('compares lexically normalised paths', () => assert.deepEqual(walkUp('/a/b/', '/a/./'), ['/a/b', '/a']));
});

describe('findRepoRoot and the workspace context', () => {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    await writeTree(root, {
      'home/proj/.git/HEAD': 'ref: refs/heads/main\n',
      'home/proj/src/deep/file.txt': 'x',
      'home/worktree/.git': 'gitdir: /elsewhere\n',
      'home/worktree/sub/file.txt': 'x',
      'home/plain/sub/file.txt': 'x',
      'outside/work/file.txt': 'x',
      'linked-git/x': 'x',
      'home/linked/.git': { symlink: '../../linked-git' },
      'home/dangling/.git': { symlink: '../nowhere' },
      via: { symlink: 'home/proj' },
    });
  });
  after(() => cleanup());

  it('finds the nearest ancestor holding a .git directory', async () => {
    assert.equal(await findRepoRoot(join(root, 'home/proj/src/deep')), join(root, 'home/proj'));
    assert.equal(await findRepoRoot(join(root, 'home/proj')), join(root, 'home/proj'));
  });
  it('accepts a .git file (worktrees, submodules) and a .git symlink, even a dangling one', async () => {
    assert.equal(await findRepoRoot(join(root, 'home/worktree/sub')), join(root, 'home/worktree'));
    assert.equal(await findRepoRoot(join(root, 'home/linked')), join(root, 'home/linked'));
    assert.equal(await findRepoRoot(join(root, 'home/dangling')), join(root, 'home/dangling'));
  });
  it('is null when no ancestor holds .git', async () => {
    assert.equal(await findRepoRoot(join(root, 'home/plain/sub')), null);
  });
  it('keeps the lexical path of a CWD reached through a symlink', async () => {
    assert.equal(await findRepoRoot(join(root, 'via/src')), join(root, 'via'));
  });

  const settings = defaultSettings();
  it('STOP is REPO when there is one', async () => {
    const home = join(root, 'home');
    const ctx = await resolveWorkspaceContext({ home, cwd: join(root, 'home/proj/src'), env: {}, settings });
    assert.equal(ctx.repoRoot, join(root, 'home/proj'));
    assert.equal(ctx.stop, join(root, 'home/proj'));
    assert.deepEqual(ctx.walk, [join(root, 'home/proj/src'), join(root, 'home/proj')]);
    assert.equal(ctx.agentDir, join(home, '.musepi/agent'));
  });
  it('STOP is HOME without a repository, HOME included in the walk', async () => {
    const home = join(root, 'home');
    const ctx = await resolveWorkspaceContext({ home, cwd: join(root, 'home/plain/sub'), env: {}, settings });
    assert.equal(ctx.repoRoot, null);
    assert.equal(ctx.stop, home);
    assert.deepEqual(ctx.walk, [join(root, 'home/plain/sub'), join(root, 'home/plain'), home]);
  });
  it('walks to the filesystem root when CWD is outside HOME and not in a repository', async () => {
    const home = join(root, 'home');
    const cwd = join(root, 'outside/work');
    const ctx = await resolveWorkspaceContext({ home, cwd, env: {}, settings });
    assert.equal(ctx.repoRoot, null);
    assert.equal(ctx.walk[0], cwd);
    assert.equal(ctx.walk.at(-1), '/');
    assert.equal(ctx.walk.includes(home), false);
    assert.equal(ctx.walk.length, cwd.split('/').length);
  });
});
