// Daemon start: spawn → first `200 GET /skills` (the index is built and served), against the process-start floor:
// spawn → first answer of a bare node:http script serving a static body. Both are polled the same way.

import type { BenchContext } from './lib/context.js';
import { listeningLine, spawnBareServer, spawnDaemon, waitForStatus } from './lib/server-process.js';
import { median, ms, ratio } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

export async function runStartupBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [1_000] : [1_000, 10_000]);
  const iterations = ctx.quick ? 2 : 3;
  const rows: string[][] = [];
  let listeningSeen = true;
  for (const n of sizes) {
    const fixture = await ctx.fixtures.get(n);
    const daemonMs: number[] = [];
    const listeningMs: number[] = [];
    const floorMs: number[] = [];
    // One unmeasured start of each warms the page cache (fixture files, node and the modules on disk).
    for (let i = -1; i < iterations; i++) {
      ctx.log(`startup: N=${n}, ${i < 0 ? 'warm-up' : `iteration ${i + 1}/${iterations}`}`);
      const daemon = await spawnDaemon(fixture.home, fixture.workspace);
      try {
        const ready = await waitForStatus(daemon, '/skills', 200, 120_000);
        if (i >= 0) daemonMs.push(ready - daemon.spawnedAt);
        const listening = await listeningLine(daemon);
        if (listening === undefined) listeningSeen = false;
        else if (i >= 0) listeningMs.push(listening.time - daemon.spawnedAtEpoch);
      } finally {
        await daemon.stop();
      }
      const bare = await spawnBareServer();
      try {
        const ready = await waitForStatus(bare, '/', 200, 30_000);
        if (i >= 0) floorMs.push(ready - bare.spawnedAt);
      } finally {
        await bare.stop();
      }
    }
    const d = median(daemonMs);
    const f = median(floorMs);
    const l = median(listeningMs);
    rows.push([
      n.toLocaleString('en-US'),
      ms(l, 0),
      ms(d - l, 0),
      ms(d),
      `${ms(Math.min(...daemonMs))} – ${ms(Math.max(...daemonMs))}`,
      ms(f),
      ratio(d, f),
      ms(d - f),
    ]);
  }
  return [
    {
      title: 'Startup: spawn → first 200 GET /skills',
      intro:
        `Median of ${iterations} starts after one unmeasured warm-up start. Daemon: \`node dist/cli.js serve\` on a ` +
        'fresh port; floor: a bare `node:http` script answering a static body. Both polled every 2 ms on new connections. ' +
        "The split uses the `time` of the daemon's listening log line (millisecond clock).",
      headers: [
        'N',
        'spawn → listening log',
        'listening → first 200',
        'daemon',
        'daemon range',
        'process floor',
        'ratio',
        'daemon − floor',
      ],
      rows,
      notes: listeningSeen
        ? ['Every daemon start also logged its listening URL in a JSON line (docs/api.md §Starting it).']
        : ['**A daemon start did not log a JSON line whose `msg` holds its URL** (docs/api.md §Starting it).'],
    },
  ];
}
