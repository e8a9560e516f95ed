// Client commands answer for the directory they run in, whichever workspace the daemon was started in; a daemon
// that refuses that directory counts as none for it, in one line; `watch` follows only a daemon started in the
// workspace of the one it lost, waiting for it while it starts (docs/cli.md "Which workspace answers", "Following
// the daemon"). Real daemons on real ports, HOME (and so the runtime directory) private to each test.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { runClient } from '../helpers/run-client.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { addSkillFolder, makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

type Context = { after(fn: () => Promise<void>): void };

/** HOME, and two workspaces: `a` with the skills alpha and gamma, `b` with beta. */
async function fixture(t: Context) {
  const { dir, cleanup } = await makeTempDir('skillsd-workspace-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'a/.git': { dir: true },
    'a/.musepi/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'In A' }),
    'a/.musepi/skills/gamma/SKILL.md': SK({ name: 'gamma', description: 'Also in A' }),
    'b/.git': { dir: true },
    'b/.musepi/skills/beta/SKILL.md': SK({ name: 'beta', description: 'In B' }),
  });
  return { dir, home: `${dir}/home`, a: `${dir}/a`, b: `${dir}/b` };
}

async function daemonIn(t: Context, home: string, cwd: string, args: string[] = []) {
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', cwd, ...args], { home });
  t.after(() => daemon.process.kill());
  return daemon;
}

type Event = { event?: string; data?: { added?: string[]; skills?: number } };

describe('client commands answer for the directory they run in', () => {
  it('ls in B answers B’s skills from a daemon started in A, and --cwd A answers A’s', async (t) => {
    const { home, a, b } = await fixture(t);
    await daemonIn(t, home, a);
    const ls = await runClient(['ls'], { home, cwd: b });
    assert.deepEqual(ls, {
      code: 0,
      stdout: 'NAME  PROVIDER  LEVEL    HIDDEN  DESCRIPTION\nbeta  native    project  no      In B\n',
      stderr: '',
    });
    const status = await runClient(['status', '--json'], { home, cwd: b });
    assert.equal(status.code, 0);
    assert.deepEqual(
      ((body) => [body.cwd, body.skills])(JSON.parse(status.stdout) as { cwd: string; skills: number }),
      [b, 1],
    );
    const other = await runClient(['ls', '--json', '--cwd', a], { home, cwd: b });
    assert.equal(other.code, 0);
    assert.deepEqual(
      (JSON.parse(other.stdout) as { skills: Array<{ name: string }> }).skills.map((skill) => skill.name),
      ['alpha', 'gamma'],
    );
  });

  it('a daemon whose server.allowedWorkspaces does not name the directory is said so in one line', async (t) => {
    const { dir, home, a, b } = await fixture(t);
    const config = join(dir, 'skillsd.json');
    await writeFile(config, JSON.stringify({ server: { allowedWorkspaces: [a] } }));
    const daemon = await daemonIn(t, home, a, ['--config', config]);
    const refused = `skillsd: the daemon at ${daemon.url} (started in ${a}) does not serve ${b}: its server.allowedWorkspaces does not name it`;

    // A read-only command answers in-process, as with no daemon.
    const ls = await runClient(['ls'], { home, cwd: b });
    assert.deepEqual(ls, {
      code: 0,
      stdout: 'NAME  PROVIDER  LEVEL    HIDDEN  DESCRIPTION\nbeta  native    project  no      In B\n',
      stderr: `${refused}; answered in-process for ${b}\n`,
    });
    // The others exit 3, as with no daemon.
    const watch = await runClient(['watch'], { home, cwd: b });
    assert.deepEqual(watch, { code: 3, stdout: '', stderr: `${refused}\n` });
    const wait = await runClient(['wait', '--timeout', '60'], { home, cwd: b });
    assert.deepEqual(wait, { code: 3, stdout: '', stderr: `${refused}\n` });
  });
});

describe('watch follows only its own workspace’s daemon', () => {
  it('after a restart on a new port, while another workspace’s daemon runs, it waits for and follows its own', async (t) => {
    const { home, a, b } = await fixture(t);
    const first = await daemonIn(t, home, a);
    const watch = new DaemonProcess(['watch', '--json'], { home, cwd: a });
    t.after(() => watch.kill());
    const hello = await watch.waitForLog((line) => (line as Event).event === 'hello');
    assert.equal((hello as Event).data?.skills, 2);
    // Started last: the daemon a client with no daemon of its own workspace would pick.
    await daemonIn(t, home, b);
    await first.process.kill();
    await watch.waitForStderr(/lost; reconnecting/);

    // A stale runtime file (its pid runs no process) is removed by the next reader of the runtime directory: once
    // it is gone, the watch has looked for a daemon since it lost its own, and found none of its workspace.
    const runtimeDirectory = join(home, '.skillsd', 'run');
    const stale = join(runtimeDirectory, 'daemon-2147483646.json');
    const record = { pid: 2_147_483_646, url: 'http://127.0.0.1:9', cwd: a, startedAt: '', version: '0' };
    await writeFile(stale, JSON.stringify(record), { mode: 0o600 });
    await waitUntil('the watch looked for its daemon', () => !existsSync(stale));

    const second = await daemonIn(t, home, a);
    await watch.waitForStderr(/following the daemon now at/);
    await addSkillFolder(`${a}/.musepi/skills/after-restart`, SK({ description: 'New' }), home);
    const index = await watch.waitForLog((line) => (line as Event).data?.added?.[0] === 'after-restart');
    assert.deepEqual((index as Event).data?.added, ['after-restart']);
    assert.equal(
      watch.stderr,
      `skillsd: watch: connection to ${first.url} lost; reconnecting\nskillsd: watch: following the daemon now at ${second.url}\n`,
    );
    assert.equal(watch.running, true);
  });
});
