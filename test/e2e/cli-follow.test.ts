// `watch` and `wait` follow the daemon (docs/cli.md "Following the daemon"): after a lost connection they look it up
// again through its runtime file, so a daemon restarted with `--port 0` is found on its new port; a restarted daemon
// behind `wait --since` is said so at once, and a generation merely ahead of the daemon's is said to be ahead.

import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { runClient } from '../helpers/run-client.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { addSkillFolder, makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

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

type Health = { generation: number; eventStreams: number };
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

  it('wait --since a generation ahead of the daemon exits 1 at once, saying it is ahead', async (t) => {
    const { home, project } = await fixture(t);
    await daemonIn(t, home, project);
    const run = await runClient(['wait', '--since', '999', '--timeout', '120'], { home, cwd: project });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, "skillsd: wait: --since 999 is ahead of the daemon's generation 1\n");
  });

  it('wait says the daemon restarted when it comes back behind the generation it waited past', async (t) => {
    const { home, project } = await fixture(t);
    const first = await daemonIn(t, home, project);
    await addSkillFolder(`${project}/.musepi/skills/second`, SK({ description: 'Second' }), dirname(home));
    const generation = async (url: string) => ((await (await fetch(`${url}/health`)).json()) as Health).generation;
    const streams = async (url: string) => ((await (await fetch(`${url}/health`)).json()) as Health).eventStreams;
    await waitUntil('the second skill is indexed', async () => (await generation(first.url)) === 2);
    const wait = new DaemonProcess(['wait', '--since', '2', '--timeout', '120'], { home, cwd: project });
    t.after(() => wait.kill());
    await waitUntil('wait subscribed', async () => (await streams(first.url)) === 1);
    await first.process.kill();
    // Started again over the same files, it counts from 1.
    await daemonIn(t, home, project);
    assert.deepEqual(await wait.waitForExit(60_000), { code: 1, signal: null });
    assert.equal(wait.stdout, '');
    assert.equal(wait.stderr, 'skillsd: wait: the daemon restarted: it is at generation 1, behind --since 2\n');
  });
});
