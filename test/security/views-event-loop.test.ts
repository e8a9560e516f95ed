// The first computation of every agent's view, and the matrix of `GET /agents`, on the real daemon (the built CLI, a
// real port) over 4,000 skills that seven agents read: the loops over the files give the event loop back between
// slices, so `/health` keeps answering meanwhile and SIGTERM ends the daemon within its 5 s (SECURITY.md "The views").
// The loops used to run in microtasks only, every file's text and reading already at hand: `/health` waited for the
// longest of them (0.3 s at 3,000 skills on this machine, growing with the number of skills).

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it, type TestContext } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { mainThreadCpuMs } from '../helpers/main-thread-cpu.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

const SKILLS = 4000;
/**
 * The bound `/health` answers within while the views are computed, in CPU time of the daemon's main thread during the
 * wait (test/helpers/main-thread-cpu.ts): a loop that held the event loop spends that time running, where a daemon
 * a loaded machine left without a core for as long spends none (a wall-clock bound failed every round next to a
 * busy loop, the suite and a clean-clone run at once: 632, 504 and 523 ms).
 */
const HEALTH_MS = 250;
/**
 * A `/health` this late means the event loop was held by the computation, whatever the machine's load: the test
 * fails at once. Between the two bounds a round is tried again on a fresh daemon (a loaded two-core machine can
 * stall a process for a few hundred milliseconds), three rounds at most.
 */
const HELD_MS = 5000;
/** Far above what the first views take here. */
const ANSWER_MS = 120_000;
/** docs/api.md "Starting it": SIGTERM ends the daemon within 5 s. */
const SHUTDOWN_MS = 5000;
/**
 * The SIGTERM case needs the first views still computing once a request has waited the 2 s ready wait (it answers
 * 503 then): at 4,000 skills they were done within it on Node 24. At 12,000 they take about three times as long.
 */
const SIGTERM_SKILLS = 12_000;

/** Skills in roots several agents read (docs/agents.md "The agents"), descriptions shaped like real ones. */
async function agentsTree(t: TestContext, skills = SKILLS): Promise<{ home: string; work: string }> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-views-loop-');
  t.after(cleanup);
  const tree: Record<string, string> = {
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'home/.gemini/settings.json': '{"security":{"folderTrust":{"enabled":false}}}\n',
  };
  const roots = ['home/.claude/skills', 'work/.agents/skills', 'work/.claude/skills', 'home/.agents/skills'];
  for (let i = 0; i < skills; i++) {
    const name = `skill-${String(i).padStart(5, '0')}`;
    tree[`${roots[i % roots.length]}/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: "Use when: the user asks for ${name}, with steps and checks"\n---\n\n# ${name}\n\nBody.\n`;
  }
  await writeTree(root, tree);
  return { home: `${root}/home`, work: `${root}/work` };
}

async function serve(t: TestContext, tree: { home: string; work: string }) {
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', tree.work], { home: tree.home });
  t.after(() => daemon.process.kill());
  // The default view first: its own first index is not what is measured here.
  await waitUntil('the default view', async () => (await fetch(`${daemon.url}/skills`)).status === 200, ANSWER_MS);
  return daemon;
}

/**
 * `GET /agents` until it answers other than 503, polling `/health` meanwhile: for each `/health`, the CPU time the
 * daemon's main thread used while it waited (its wall time where /proc is missing).
 */
async function healthDuringFirstViews(
  url: string,
  pid: number,
): Promise<{ status: number; rows: number; delays: number[] }> {
  let answer: { status: number; rows: number } | undefined;
  const views = (async () => {
    for (;;) {
      const response = await fetch(`${url}/agents`, { signal: AbortSignal.timeout(ANSWER_MS) });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 503) {
        answer = {
          status: response.status,
          rows: (JSON.parse(body.toString()) as { skills: unknown[] }).skills.length,
        };
        return;
      }
    }
  })();
  const delays: number[] = [];
  while (answer === undefined) {
    const start = performance.now();
    const cpuBefore = mainThreadCpuMs(pid);
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(ANSWER_MS) });
    await health.arrayBuffer();
    const wall = performance.now() - start;
    const cpuAfter = mainThreadCpuMs(pid);
    delays.push(cpuBefore === undefined || cpuAfter === undefined ? wall : Math.min(wall, cpuAfter - cpuBefore));
    assert.equal(health.status, 200);
    assert.ok(wall < HELD_MS, `/health took ${Math.round(wall)} ms while the views were computed`);
  }
  await views;
  return { ...answer, delays };
}

describe('the first agent views of 4,000 skills (built CLI)', () => {
  it('/health answers within 250 ms while every view and the matrix are computed', async (t) => {
    const tree = await agentsTree(t);
    const rounds: number[][] = [];
    for (let round = 0; round < 3; round++) {
      const daemon = await serve(t, tree);
      const { status, rows, delays } = await healthDuringFirstViews(daemon.url, daemon.process.child.pid as number);
      assert.equal(status, 200);
      assert.equal(rows, SKILLS);
      rounds.push(delays);
      await daemon.process.kill();
      if (Math.max(...delays) < HEALTH_MS) break;
    }
    t.diagnostic(
      `/health while the views were computed, the daemon's main thread at work during the longest wait, per round ` +
        `(ms): ${rounds.map((d) => Math.round(Math.max(...d)))}`,
    );
    assert.ok(
      rounds.some((delays) => Math.max(...delays) < HEALTH_MS),
      `/health waited on ${HEALTH_MS} ms or more of the daemon's work in every round: ` +
        JSON.stringify(rounds.map((d) => d.map(Math.round))),
    );
  });

  it('SIGTERM during the first computation of the views ends the daemon within 5 s', async (t) => {
    const tree = await agentsTree(t, SIGTERM_SKILLS);
    const daemon = await serve(t, tree);
    const first = fetch(`${daemon.url}/agents`).then(
      (response) => response.status,
      () => 'closed',
    );
    // The computation is under way once the daemon has answered NotReady (it is started by that request).
    assert.equal(await first, 503);
    const start = performance.now();
    daemon.process.child.kill('SIGTERM');
    const exit = await daemon.process.waitForExit(30_000);
    const took = performance.now() - start;
    t.diagnostic(`SIGTERM to exit: ${Math.round(took)} ms`);
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.ok(took < SHUTDOWN_MS, `the daemon took ${Math.round(took)} ms to end after SIGTERM`);
  });
});
