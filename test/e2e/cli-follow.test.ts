// `watch` and `wait` follow the daemon (docs/cli.md "Following the daemon"): after a lost connection they look it up
// again through its runtime file, so a daemon restarted with `--port 0` is found on its new port; a restarted daemon
// behind `wait --since` is said so at once.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runClient } from '../helpers/run-client.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-follow-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await writeTree(dir, {
    'home/.keep': '',
    'project/.git': { dir: true },
    'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  });
  return { home, project };
}

async function daemonIn(t: { after(fn: () => Promise<void>): void }, home: string, project: string) {
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
  t.after(() => daemon.process.kill());
  return daemon;
}

type Event = { event?: string; data?: { added?: string[] } };

describe('watch and wait follow a restarted daemon', () => {
  it('watch finds a --port 0 daemon that came back on another port and prints its changes', async (t) => {
    const { home, project } = await fixture(t);
    const first = await daemonIn(t, home, project);
    const watch = new DaemonProcess(['watch', '--json'], { home, cwd: project });
    t.after(() => watch.kill());
    await watch.waitForLog((line) => (line as Event).event === 'hello', 30_000);
    await first.process.kill();
    await watch.waitForStderr(/lost; reconnecting/, 30_000);
    const second = await daemonIn(t, home, project);
    assert.notEqual(second.port, first.port);
    await watch.waitForStderr(/following the daemon now at/, 30_000);
    await writeTree(project, { '.musepi/skills/after-restart/SKILL.md': SK({ description: 'New' }) });
    const index = await watch.waitForLog((line) => (line as Event).data?.added?.[0] === 'after-restart', 30_000);
    assert.deepEqual((index as Event).data?.added, ['after-restart']);
    assert.equal(
      watch.stderr,
      `skillsd: watch: connection to ${first.url} lost; reconnecting\nskillsd: watch: following the daemon now at ${second.url}\n`,
    );
    assert.equal(watch.running, true);
  });

  it('wait --since a generation ahead of the daemon exits 1 at once, saying it is behind', async (t) => {
    const { home, project } = await fixture(t);
    await daemonIn(t, home, project);
    const run = await runClient(['wait', '--since', '5', '--timeout', '120'], { home, cwd: project });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, 'skillsd: wait: the daemon is at generation 1, behind --since 5 (it restarted)\n');
  });
});
