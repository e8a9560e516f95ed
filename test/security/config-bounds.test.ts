// Bounded config reads against the real daemon: a config linked to /dev/zero is refused at start, and an edit that
// links it there while running is refused like any bad edit, without the memory growth that left every route at
// 503 before (SECURITY.md §4, bounded config and token reads).

import assert from 'node:assert/strict';
import { rename, symlink, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { runCli, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

describe('a config linked to /dev/zero (built CLI)', () => {
  it('is refused at start, exit 2, naming the file and where it leads', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-config-');
    t.after(cleanup);
    await symlink('/dev/zero', `${dir}/skillsd.yaml`);
    const run = await runCli(['serve', '--port', '0', '--cwd', dir, '--config', `${dir}/skillsd.yaml`], { home: dir });
    assert.equal(run.code, 2);
    assert.equal(run.stderr, `skillsd: config file ${dir}/skillsd.yaml: not a regular file (it is /dev/zero)\n`);
  });

  it('is refused as an edit while running: the last good settings stay, every route keeps answering', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-config-');
    t.after(cleanup);
    await writeTree(dir, {
      'home/.keep': '',
      'work/.git/HEAD': 'ref: refs/heads/main\n',
      'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
    });
    const config = `${dir}/skillsd.yaml`;
    await writeFile(config, 'profile: musepi\n');
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', `${dir}/work`, '--config', config], {
      home: `${dir}/home`,
    });
    t.after(() => daemon.process.kill());

    // An editor-style save: a link to /dev/zero renamed over the file.
    await symlink('/dev/zero', `${dir}/skillsd.yaml.new`);
    await rename(`${dir}/skillsd.yaml.new`, config);
    const line = await daemon.process.waitForLog((log) => log.level === 50 && String(log.msg).includes(config));
    assert.equal(
      line.msg,
      `config file ${config}: not a regular file (it is /dev/zero); keeping the last good settings`,
    );

    let skills = await fetch(`${daemon.url}/skills`);
    // A loaded test machine may lag the daemon's loop past its bound (503 Overloaded): wait that out.
    for (let attempt = 0; skills.status === 503 && attempt < 100; attempt++) {
      await skills.arrayBuffer();
      skills = await fetch(`${daemon.url}/skills`);
    }
    assert.equal(skills.status, 200);
    assert.equal(((await skills.json()) as { profile: string }).profile, 'musepi');
    const health = (await (await fetch(`${daemon.url}/health`)).json()) as { status: string; overloaded: boolean };
    // Never stuck at 503 behind an `ok`: /health's status agrees with its overload flag.
    assert.equal(health.status, health.overloaded ? 'overloaded' : 'ok');
  });
});
