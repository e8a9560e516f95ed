import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ContextFileDiagnostic, contextFileDirs, findContextFiles } from '../../src/discovery/context-files.js';
import { MAX_TEXT_FILE_BYTES } from '../../src/discovery/read-text-file.js';
import type { Profile } from '../../src/discovery/types.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

describe('contextFileDirs (docs/discovery.md §9 boundaries)', () => {
  // [label, profile, home, cwd, repo, expected directories]
  const cases: Array<[string, Profile, string, string, string | null, string[]]> = [
    [
      'repo under HOME: up to, not including, HOME',
      'musepi',
      '/h',
      '/h/w/repo/pkg',
      '/h/w/repo',
      ['/h/w/repo/pkg', '/h/w/repo', '/h/w'],
    ],
    ['repo is HOME itself: HOME skipped', 'musepi', '/h', '/h/a', '/h', ['/h/a']],
    ['CWD is HOME inside a repo at HOME: nothing', 'musepi', '/h', '/h', '/h', []],
    ['no repo, CWD under HOME: up to HOME inclusive', 'musepi', '/h', '/h/p/a', null, ['/h/p/a', '/h/p', '/h']],
    ['no repo, CWD is HOME', 'musepi', '/h', '/h', null, ['/h']],
    [
      'repo outside HOME: up to the repo inclusive',
      'musepi',
      '/h',
      '/srv/repo/x/y',
      '/srv/repo',
      ['/srv/repo/x/y', '/srv/repo/x', '/srv/repo'],
    ],
    ['repo at /: up to / inclusive', 'musepi', '/h', '/srv/x', '/', ['/srv/x', '/srv', '/']],
    [
      'HOME inside a repo above it: up to the repo inclusive',
      'musepi',
      '/r/h',
      '/r/h/p',
      '/r',
      ['/r/h/p', '/r/h', '/r'],
    ],
    ['no repo, CWD outside HOME: up to, not including, /', 'musepi', '/h', '/a/b', null, ['/a/b', '/a']],
    ['no repo, CWD is /', 'musepi', '/h', '/', null, []],
    ['HOME given with a trailing slash', 'musepi', '/h/', '/h/p', null, ['/h/p', '/h']],
    ['a sibling of HOME sharing its prefix is not under HOME', 'musepi', '/h', '/hx/p', null, ['/hx/p', '/hx']],
    ['omp has the MusePi rules', 'omp', '/h', '/h/w/repo', '/h/w/repo', ['/h/w/repo', '/h/w']],
    [
      'xcsh, repo under HOME: up to the repo inclusive',
      'xcsh',
      '/h',
      '/h/w/repo/pkg',
      '/h/w/repo',
      ['/h/w/repo/pkg', '/h/w/repo'],
    ],
    ['xcsh, no repo, CWD under HOME: up to HOME inclusive', 'xcsh', '/h', '/h/p/a', null, ['/h/p/a', '/h/p', '/h']],
    ['xcsh, repo outside HOME', 'xcsh', '/h', '/srv/repo/x', '/srv/repo', ['/srv/repo/x', '/srv/repo']],
    ['xcsh, no repo, CWD outside HOME: up to / inclusive', 'xcsh', '/h', '/a/b', null, ['/a/b', '/a', '/']],
  ];
  for (const [label, profile, home, cwd, repoRoot, expected] of cases) {
    it(label, () => {
      assert.deepEqual(contextFileDirs({ home, cwd, repoRoot, profile }), expected);
    });
  }
});

describe('findContextFiles (docs/discovery.md §9)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let H: string;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    H = join(root, 'home/u');
    await writeTree(root, {
      'AGENTS.md': 'temp root',
      'home/AGENTS.md': 'above home',
      'home/u/AGENTS.md': 'home',
      // Repository under HOME
      'home/u/work/AGENTS.md': 'work',
      'home/u/work/repo/.git': 'gitdir: elsewhere\n',
      'home/u/work/repo/AGENTS.md': 'repo',
      'home/u/work/repo/pkg/AGENTS.md': 'pkg',
      'home/u/work/repo/pkg/sub/AGENTS.md': 'sub',
      // No repository, under HOME
      'home/u/proj/AGENTS.md': 'proj',
      'home/u/proj/a/AGENTS.md': 'proj a',
      'home/u/proj/.hidden/AGENTS.md': 'in a dot directory',
      'home/u/proj/.hidden/c/AGENTS.md': 'below a dot directory',
      'home/u/proj/empty/AGENTS.md': '',
      'home/u/proj/blank/AGENTS.md': ' \n',
      'home/u/proj/isdir/AGENTS.md': { dir: true },
      'home/u/proj/fifo': { dir: true },
      'home/u/.config/AGENTS.md': 'dot cwd',
      // Repository outside HOME
      'srv/AGENTS.md': 'srv',
      'srv/repo/.git': { dir: true },
      'srv/repo/AGENTS.md': 'outside repo',
      'srv/repo/x/AGENTS.md': 'outside x',
      // No repository, outside HOME
      'loose/AGENTS.md': 'loose',
      'loose/a/b/AGENTS.md': 'loose b',
    });
    assert.equal(spawnSync('mkfifo', [join(root, 'home/u/proj/fifo/AGENTS.md')]).status, 0);
  });
  after(() => cleanup());

  async function found(cwd: string, profile: Profile = 'musepi') {
    const files = await findContextFiles({ home: H, cwd: join(root, cwd), profile });
    // The walk may continue above the temp directory (outside HOME without a repository): only look inside it.
    return files
      .filter((file) => file.path.startsWith(`${root}/`))
      .map((file) => ({ ...file, path: file.path.slice(root.length + 1) }));
  }

  it('repo under HOME: from CWD up to, not including, HOME', async () => {
    assert.deepEqual(await found('home/u/work/repo/pkg/sub'), [
      { path: 'home/u/work/repo/pkg/sub/AGENTS.md', content: 'sub', level: 'project', depth: 0 },
      { path: 'home/u/work/repo/pkg/AGENTS.md', content: 'pkg', level: 'project', depth: 1 },
      { path: 'home/u/work/repo/AGENTS.md', content: 'repo', level: 'project', depth: 2 },
      { path: 'home/u/work/AGENTS.md', content: 'work', level: 'project', depth: 3 },
    ]);
  });

  it('no repo, CWD under HOME: up to HOME inclusive', async () => {
    assert.deepEqual(await found('home/u/proj/a'), [
      { path: 'home/u/proj/a/AGENTS.md', content: 'proj a', level: 'project', depth: 0 },
      { path: 'home/u/proj/AGENTS.md', content: 'proj', level: 'project', depth: 1 },
      { path: 'home/u/AGENTS.md', content: 'home', level: 'project', depth: 2 },
    ]);
  });

  it('repo outside HOME: up to the repository root inclusive', async () => {
    assert.deepEqual(await found('srv/repo/x'), [
      { path: 'srv/repo/x/AGENTS.md', content: 'outside x', level: 'project', depth: 0 },
      { path: 'srv/repo/AGENTS.md', content: 'outside repo', level: 'project', depth: 1 },
    ]);
  });

  it('no repo, CWD outside HOME: up towards the filesystem root', async () => {
    assert.deepEqual(await found('loose/a/b'), [
      { path: 'loose/a/b/AGENTS.md', content: 'loose b', level: 'project', depth: 0 },
      { path: 'loose/AGENTS.md', content: 'loose', level: 'project', depth: 2 },
      { path: 'AGENTS.md', content: 'temp root', level: 'project', depth: 3 },
    ]);
  });

  it('xcsh: up to REPO inclusive', async () => {
    assert.deepEqual(
      (await found('home/u/work/repo/pkg', 'xcsh')).map((file) => [file.path, file.depth]),
      [
        ['home/u/work/repo/pkg/AGENTS.md', 0],
        ['home/u/work/repo/AGENTS.md', 1],
      ],
    );
  });

  it('xcsh: up to HOME inclusive without a repository', async () => {
    assert.deepEqual(
      (await found('home/u/proj/a', 'xcsh')).map((file) => file.path),
      ['home/u/proj/a/AGENTS.md', 'home/u/proj/AGENTS.md', 'home/u/AGENTS.md'],
    );
  });

  it('skips AGENTS.md in directories whose own name starts with a dot', async () => {
    assert.deepEqual(
      (await found('home/u/proj/.hidden/c')).map((file) => [file.path, file.depth]),
      [
        ['home/u/proj/.hidden/c/AGENTS.md', 0],
        ['home/u/proj/AGENTS.md', 2],
        ['home/u/AGENTS.md', 3],
      ],
    );
    assert.deepEqual(
      (await found('home/u/.config')).map((file) => file.path),
      ['home/u/AGENTS.md'],
    );
  });

  it('lists an empty AGENTS.md with content "", and one of only white space as it is', async () => {
    assert.deepEqual(await found('home/u/proj/empty'), [
      { path: 'home/u/proj/empty/AGENTS.md', content: '', level: 'project', depth: 0 },
      { path: 'home/u/proj/AGENTS.md', content: 'proj', level: 'project', depth: 1 },
      { path: 'home/u/AGENTS.md', content: 'home', level: 'project', depth: 2 },
    ]);
    assert.deepEqual((await found('home/u/proj/blank'))[0], {
      path: 'home/u/proj/blank/AGENTS.md',
      content: ' \n',
      level: 'project',
      depth: 0,
    });
  });

  it('skips an AGENTS.md that is a directory or a FIFO', async () => {
    for (const cwd of ['home/u/proj/isdir', 'home/u/proj/fifo']) {
      assert.deepEqual(
        (await found(cwd)).map((file) => file.path),
        ['home/u/proj/AGENTS.md', 'home/u/AGENTS.md'],
        cwd,
      );
    }
  });
});

describe('findContextFiles: empty AGENTS.md files are listed (docs/discovery.md §9)', () => {
  it('skips an AGENTS.md over the read bound with a diagnostic, and lists one at the bound', async () => {
    const home = join(root, 'big');
    await writeTree(home, {
      'AGENTS.md': Buffer.alloc(MAX_TEXT_FILE_BYTES, 'a'),
      'p/AGENTS.md': Buffer.alloc(MAX_TEXT_FILE_BYTES + 1, 'a'),
    });
    const diagnostics: ContextFileDiagnostic[] = [];
    const files = await findContextFiles({ home, cwd: join(home, 'p'), profile: 'musepi', diagnostics });
    assert.deepEqual(
      files.map((file) => [file.path, file.content.length, file.depth]),
      [[join(home, 'AGENTS.md'), MAX_TEXT_FILE_BYTES, 1]],
    );
    assert.deepEqual(diagnostics, [
      {
        path: join(home, 'p/AGENTS.md'),
        message: `AGENTS.md is larger than ${MAX_TEXT_FILE_BYTES} bytes, the most the daemon reads of one; it is not read`,
      },
    ]);
  });

  let root: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
  });
  after(() => cleanup());

  // [label, profile, tree under a fresh HOME, cwd under HOME, expected [path under HOME, content, depth]]
  const cases: Array<
    [string, Profile, Record<string, string | { dir: true }>, string, Array<[string, string, number]>]
  > = [
    [
      'an empty proj/AGENTS.md and a non-empty work/AGENTS.md',
      'musepi',
      { 'work/.git': { dir: true }, 'work/AGENTS.md': 'work rules\n', 'work/proj/AGENTS.md': '' },
      'work/proj',
      [
        ['work/proj/AGENTS.md', '', 0],
        ['work/AGENTS.md', 'work rules\n', 1],
      ],
    ],
    [
      'omp, from proj/sub: sub, then the empty proj and work files',
      'omp',
      {
        'work/.git': { dir: true },
        'work/AGENTS.md': '',
        'work/proj/AGENTS.md': '',
        'work/proj/sub/AGENTS.md': 'sub rules',
      },
      'work/proj/sub',
      [
        ['work/proj/sub/AGENTS.md', 'sub rules', 0],
        ['work/proj/AGENTS.md', '', 1],
        ['work/AGENTS.md', '', 2],
      ],
    ],
    [
      'xcsh, from proj/sub: the empty proj/AGENTS.md',
      'xcsh',
      { 'x/proj/.git': { dir: true }, 'x/proj/AGENTS.md': '', 'x/proj/sub': { dir: true } },
      'x/proj/sub',
      [['x/proj/AGENTS.md', '', 1]],
    ],
    [
      'no repository: the empty proj and HOME files',
      'musepi',
      { 'AGENTS.md': '', 'mid/proj/AGENTS.md': '' },
      'mid/proj',
      [
        ['mid/proj/AGENTS.md', '', 0],
        ['AGENTS.md', '', 2],
      ],
    ],
  ];
  for (const [index, [label, profile, tree, cwd, expected]] of cases.entries()) {
    it(label, async () => {
      const home = join(root, String(index));
      await writeTree(home, tree);
      const files = await findContextFiles({ home, cwd: join(home, cwd), profile });
      assert.deepEqual(
        files,
        expected.map(([path, content, depth]) => ({ path: join(home, path), content, level: 'project', depth })),
      );
    });
  }
});
