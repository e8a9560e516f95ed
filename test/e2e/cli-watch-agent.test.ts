// `skillsd watch --agent` and `skillsd wait --agent` (docs/cli.md) from the built CLI against a real daemon: they follow
// one agent's view (`GET /events?agent=`), and an unknown agent ends them with the daemon's refusal (exit 2).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runClient } from '../helpers/run-client.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { addSkillFolder, makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const KNOWN = 'claude-code, codex, opencode, gemini-cli, copilot-cli, vscode, goose, musepi, omp, xcsh';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-watch-agent-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  // `.goose/skills` is read by Goose only (docs/agents.md "Goose"); `.musepi/skills` by the default view.
  await writeTree(dir, {
    'home/.keep': '',
    'project/.git/HEAD': 'ref: refs/heads/main\n',
    'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'project/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'Goose only' }),
  });
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
  t.after(() => daemon.process.kill());
  return { dir, home, project };
}

type Line = { event?: string; data?: unknown };

describe('watch --agent and wait --agent (built CLI)', () => {
  it('watch --agent goose --json prints the view’s hello and the index event naming a skill only Goose reads', async (t) => {
    const { dir, home, project } = await fixture(t);
    const watch = new DaemonProcess(['watch', '--agent', 'goose', '--json'], { home, cwd: project });
    t.after(() => watch.kill());
    const hello = await watch.waitForLog((line) => (line as Line).event === 'hello', 30_000);
    assert.deepEqual((hello as Line).data, { generation: 1, skills: 1, agent: 'goose' });
    await addSkillFolder(`${project}/.goose/skills/zip`, SK({ name: 'zip', description: 'Archives' }), dir);
    const index = await watch.waitForLog((line) => (line as Line).event === 'index', 30_000);
    assert.deepEqual((index as Line).data, { generation: 2, added: ['zip'], removed: [], changed: [] });
    watch.child.kill('SIGINT');
    assert.deepEqual(await watch.waitForExit(20_000), { code: 0, signal: null });
    assert.equal(watch.stderr, '');
  });

  it('watch --agent prints one line per change of the view; plain watch names the views that changed', async (t) => {
    const { dir, home, project } = await fixture(t);
    const watch = new DaemonProcess(['watch', '--agent', 'goose'], { home, cwd: project });
    t.after(() => watch.kill());
    await watch.waitForStderr(/\n$/, 30_000);
    assert.equal(watch.stderr, "watching: generation 1, 1 skills in goose's view\n");
    const plain = new DaemonProcess(['watch'], { home, cwd: project });
    t.after(() => plain.kill());
    await plain.waitForStderr(/\n$/, 30_000);
    assert.equal(plain.stderr, 'watching: generation 1, 1 skills\n');
    await addSkillFolder(`${project}/.goose/skills/zip`, SK({ name: 'zip', description: 'Archives' }), dir);
    await watch.waitForStdout(/\n$/, 30_000);
    assert.equal(watch.stdout, 'generation 2: added zip\n');
    await plain.waitForStdout(/\n$/, 30_000);
    assert.equal(plain.stdout, 'generation 2: agent views changed: goose\n');
  });

  it('wait --agent goose --since GEN returns with the generation of the view’s change', async (t) => {
    const { dir, home, project } = await fixture(t);
    // GEN from the view's own answer, as docs/cli.md shows: asking for it is what has the daemon follow the view.
    const ls = await runClient(['ls', '--agent', 'goose', '--json'], { home, cwd: project });
    // Answered by the daemon (an in-process answer says so on stderr).
    assert.deepEqual([ls.code, ls.stderr], [0, '']);
    const gen = String(JSON.parse(ls.stdout).generation);
    assert.equal(gen, '1');
    const waiter = new DaemonProcess(['wait', '--agent', 'goose', '--since', gen, '--timeout', '60'], {
      home,
      cwd: project,
    });
    t.after(() => waiter.kill());
    await addSkillFolder(`${project}/.goose/skills/zip`, SK({ name: 'zip', description: 'Archives' }), dir);
    assert.deepEqual(await waiter.waitForExit(60_000), { code: 0, signal: null });
    assert.equal(waiter.stdout, '2\n');
  });

  it('an unknown agent ends watch and wait with the daemon’s refusal, exit 2', async (t) => {
    const { home, project } = await fixture(t);
    const message = `Unknown agent: cursor. Known agents: ${KNOWN}`;
    const watch = await runClient(['watch', '--agent', 'cursor'], { home, cwd: project });
    assert.deepEqual(watch, { code: 2, stdout: '', stderr: `skillsd: watch: ${message}\n` });
    const wait = await runClient(['wait', '--agent', 'cursor', '--timeout', '30'], { home, cwd: project });
    assert.deepEqual(wait, { code: 2, stdout: '', stderr: `skillsd: wait: ${message}\n` });
  });
});
