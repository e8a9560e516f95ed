// `GET /agents` (every candidate × ten agents, each cell with its reason) against `GET /skills` on the same daemon and
// fixture: the first `GET /agents` computes the views; later ones are served from the answer kept for the state.
// Requests alternate between the two routes, one at a time on fresh connections, full 200 answers.

import type { BenchContext } from './lib/context.js';
import { httpGet, type ServerProcess, spawnDaemon, waitForStatus } from './lib/server-process.js';
import { count, median, ms, ratio, verdict } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

const TARGET = 3;

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const answer = await httpGet(url, {}, 120_000);
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
  return { ms: performance.now() - started, bytes: answer.body.length };
}

export async function runAgentsBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [100] : [10_000]);
  const rounds = ctx.quick ? 5 : 20;
  const rows: string[][] = [];
  for (const n of sizes) {
    const fixture = await ctx.fixtures.get(n);
    let daemon: ServerProcess | undefined;
    try {
      ctx.log(`agents: N=${n}, starting the daemon`);
      daemon = await spawnDaemon(fixture.home, fixture.workspace);
      await waitForStatus(daemon, '/skills', 200, 120_000);
      await timed(`${daemon.url}/skills`);
      // The first request starts the computation; past the request wait it answers 503 NotReady until done.
      const asked = performance.now();
      const ready = await waitForStatus(daemon, '/agents', 200, 900_000, 100);
      const first = { ms: ready - asked };
      const skills: number[] = [];
      const agents: number[] = [];
      let skillsBytes = 0;
      let agentsBytes = 0;
      for (let i = 0; i < rounds; i++) {
        const s = await timed(`${daemon.url}/skills`);
        const a = await timed(`${daemon.url}/agents`);
        skills.push(s.ms);
        agents.push(a.ms);
        skillsBytes = s.bytes;
        agentsBytes = a.bytes;
      }
      const factor = median(agents) / median(skills);
      rows.push([
        count(n),
        `${ms(median(skills))} (${count(skillsBytes)} B)`,
        ms(first.ms),
        `${ms(median(agents))} (${count(agentsBytes)} B)`,
        ratio(median(agents), median(skills)),
        verdict(factor <= TARGET),
      ]);
    } finally {
      await daemon?.stop();
    }
  }
  return [
    {
      title: 'Agent views: GET /agents against GET /skills',
      intro:
        'Median of sequential full answers (fresh connection each, alternating routes) on one daemon. "first" is the ' +
        'time from the first `GET /agents` to its first 200 (every view computed; 503 NotReady meanwhile); later ' +
        'answers are the one kept for the state.',
      headers: ['N', 'GET /skills ms', 'first GET /agents ms', 'GET /agents ms', '/agents ÷ /skills', `≤ ${TARGET}×`],
      rows,
      notes: [`Target: GET /agents within ${TARGET}× GET /skills once computed.`],
    },
  ];
}
