// Cold discovery time and peak RSS at each N against the I/O floor, and warm re-discovery (a SkillFileCache, the
// reload path) against the stat floor. Every measurement runs in a fresh child process; before measuring, one
// discovery and one floor pass warm the page cache for both sides (dropping the OS page cache needs root on the host).

import { planProviders } from '../src/discovery/pipeline/providers.js';
import { defaultSettings } from '../src/discovery/settings.js';
import { resolveWorkspaceContext } from '../src/discovery/workspace-context.js';
import { runChild } from './lib/child.js';
import type { BenchContext } from './lib/context.js';
import { median, mib, ms, ratio, verdict } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';
import type { DiscoveryWorkerInput, DiscoveryWorkerResult } from './workers/discovery-worker.js';

const WORKER = new URL('./workers/discovery-worker.ts', import.meta.url);
const WARM_RUNS = 3;
const TARGET_N = 10_000;
const TARGET_RATIO = 2;

interface Row {
  n: number;
  loaded: number;
  files: number;
  discoverMs: number;
  floorMs: number;
  discoverPeak: number;
  floorPeak: number;
  discoverBase: number;
  floorBase: number;
  warmMs: number;
  statFloorMs: number;
}

export async function runDiscoveryBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [100, 1_000] : [100, 1_000, 10_000, ...(ctx.large ? [50_000] : [])]);
  const rows: Row[] = [];
  for (const n of sizes) {
    // The largest N costs tens of seconds per child: fewer repeats there keep the full suite within its budget.
    const iterations = ctx.quick ? 2 : n >= 50_000 ? 1 : n >= 10_000 ? 3 : 5;
    const warmRuns = n >= 50_000 ? 1 : WARM_RUNS;
    const fixture = await ctx.fixtures.get(n);
    const timeoutMs = 60_000 + n * 20;
    const run = (mode: DiscoveryWorkerInput['mode'], dirs: string[], warm: number) =>
      runChild<DiscoveryWorkerResult>(
        WORKER,
        { mode, home: fixture.home, workspace: fixture.workspace, dirs, warmRuns: warm } satisfies DiscoveryWorkerInput,
        { timeoutMs },
      );
    const dirs = await providerDirs(fixture.home, fixture.workspace);
    // The warm-up reads every file once, for both sides: the page cache then holds the whole tree.
    ctx.log(`discovery: N=${n}, warm-up`);
    await run('floor', dirs, 0);

    const discover: DiscoveryWorkerResult[] = [];
    const floor: DiscoveryWorkerResult[] = [];
    const statFloor: DiscoveryWorkerResult[] = [];
    for (let i = 0; i < iterations; i++) {
      ctx.log(`discovery: N=${n}, iteration ${i + 1}/${iterations}`);
      // Alternate the sides so a slow phase of the machine hits both.
      discover.push(await run('discover', [], warmRuns));
      floor.push(await run('floor', dirs, 0));
      statFloor.push(await run('stat-floor', dirs, warmRuns));
    }
    const scanned = discover[0]?.scannedDirs ?? [];
    if (scanned.join('\n') !== dirs.join('\n'))
      throw new Error(`the floor read other directories than discovery: ${scanned.join(', ')}`);
    rows.push({
      n,
      loaded: discover[0]?.count ?? Number.NaN,
      files: floor[0]?.count ?? Number.NaN,
      discoverMs: median(discover.map((r) => r.coldMs)),
      floorMs: median(floor.map((r) => r.coldMs)),
      discoverPeak: median(discover.map((r) => r.peakRssBytes)),
      floorPeak: median(floor.map((r) => r.peakRssBytes)),
      discoverBase: median(discover.map((r) => r.rssBeforeBytes)),
      floorBase: median(floor.map((r) => r.rssBeforeBytes)),
      warmMs: median(discover.flatMap((r) => r.warmMs)),
      statFloorMs: median(statFloor.flatMap((r) => r.warmMs)),
    });
  }

  const targetRow = rows.find((r) => r.n === TARGET_N);
  const cold: BenchSection = {
    title: 'Cold discovery vs the I/O floor',
    intro:
      'Median of fresh child processes per N (5 up to 1,000, 3 at 10,000, 1 at 50,000; quick: 2). *Discovery* = `discoverSkills` with default settings (every provider). ' +
      "*Floor* = readdir of the same `scannedDirs` + `stat` + `readFile` of every SKILL.md, with the pipeline's " +
      'concurrency (every directory at once, 64 files at a time in each). ' +
      'Peak RSS is the process high-water mark (`resourceUsage().maxRSS`); Δ subtracts the RSS before the run.',
    headers: [
      'N',
      'loaded',
      'SKILL.md read',
      'discovery',
      'floor',
      'time ratio',
      'peak RSS discovery (Δ)',
      'peak RSS floor (Δ)',
      'Δ RSS ratio',
    ],
    rows: rows.map((r) => [
      r.n.toLocaleString('en-US'),
      String(r.loaded),
      String(r.files),
      ms(r.discoverMs),
      ms(r.floorMs),
      ratio(r.discoverMs, r.floorMs),
      `${mib(r.discoverPeak)} (${mib(r.discoverPeak - r.discoverBase)})`,
      `${mib(r.floorPeak)} (${mib(r.floorPeak - r.floorBase)})`,
      ratio(r.discoverPeak - r.discoverBase, r.floorPeak - r.floorBase),
    ]),
    notes: [
      targetRow === undefined
        ? `Target (≤ ${TARGET_RATIO}× the floor at N = 10,000): not measured in this mode.`
        : `Target ≤ ${TARGET_RATIO}× the floor at N = 10,000: ${ratio(targetRow.discoverMs, targetRow.floorMs)} — ${verdict(targetRow.discoverMs <= TARGET_RATIO * targetRow.floorMs)}.`,
      'Both sides run with the same loader (`node --import tsx`) so the fixed process overhead is equal; Δ is the part the work itself adds.',
    ],
  };
  const warm: BenchSection = {
    title: 'Warm re-discovery (the reload path) vs the stat floor',
    intro:
      `Median of ${WARM_RUNS} re-runs per child after the cold one (1 at 50,000). *Re-discovery* = \`discoverSkills\` with the ` +
      'SkillFileCache of the cold run, nothing changed. *Stat floor* = readdir + `stat` of every SKILL.md, no read.',
    headers: ['N', 're-discovery', 'stat floor', 'ratio', 'cold discovery', 'speed-up vs cold'],
    rows: rows.map((r) => [
      r.n.toLocaleString('en-US'),
      ms(r.warmMs),
      ms(r.statFloorMs),
      ratio(r.warmMs, r.statFloorMs),
      ms(r.discoverMs),
      ratio(r.discoverMs, r.warmMs),
    ]),
    notes: [],
  };
  return [cold, warm];
}

/** The skills directories discovery reads, in its order (default settings): the provider table of docs/discovery.md §4. */
async function providerDirs(home: string, workspace: string): Promise<string[]> {
  const ws = await resolveWorkspaceContext({ home, cwd: workspace, env: {}, settings: defaultSettings() });
  return planProviders(ws).flatMap((plan) => plan.dirs.map((d) => d.path));
}
