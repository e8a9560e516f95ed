// Memory per skill (RSS and heap after discovery at N, minus an empty run) and memory across many reloads (RSS and
// heap after R reloads vs after the first). Each figure comes from a fresh `--expose-gc` child, read after two
// `gc()` calls.

import { readFile, stat, writeFile } from 'node:fs/promises';
import { runChild } from './lib/child.js';
import type { BenchContext } from './lib/context.js';
import { mean, median, mib, ratio } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';
import type { MemoryWorkerInput, MemoryWorkerResult } from './workers/memory-worker.js';

const WORKER = new URL('./workers/memory-worker.ts', import.meta.url);
const RELOAD_FIXTURE = 100;

export async function runMemoryBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [100, 1_000] : [1_000, 10_000, ...(ctx.large ? [50_000] : [])]);
  const iterations = ctx.quick ? 1 : 3;
  const reloads = ctx.quick ? 300 : 10_000;

  const run = (input: MemoryWorkerInput, timeoutMs: number) =>
    runChild<MemoryWorkerResult>(WORKER, input, { nodeFlags: ['--expose-gc'], timeoutMs });
  const indexRun = async (n: number): Promise<{ rss: number; heap: number; skills: number }> => {
    const fixture = n === 0 ? await ctx.fixtures.empty() : await ctx.fixtures.get(n);
    const results: MemoryWorkerResult[] = [];
    for (let i = 0; i < (n >= 10_000 ? 1 : iterations); i++) {
      results.push(
        await run(
          { mode: 'index', home: fixture.home, workspace: fixture.workspace, editable: [], reloads: 0, maxMs: 0 },
          60_000 + n * 20,
        ),
      );
    }
    return {
      rss: median(results.map((r) => r.samples[0]!.rssBytes)),
      heap: median(results.map((r) => r.samples[0]!.heapUsedBytes)),
      skills: results[0]!.skills,
    };
  };

  ctx.log('memory: empty run');
  const empty = await indexRun(0);
  const perSkillRows: string[][] = [];
  for (const n of sizes) {
    ctx.log(`memory: N=${n}`);
    const fixture = await ctx.fixtures.get(n);
    const loaded = await indexRun(n);
    const sizes = await Promise.all(fixture.editable.slice(0, 500).map(async (f) => (await stat(f)).size));
    const avgFile = mean(sizes);
    const rssPerSkill = (loaded.rss - empty.rss) / n;
    const heapPerSkill = (loaded.heap - empty.heap) / n;
    perSkillRows.push([
      n.toLocaleString('en-US'),
      String(loaded.skills),
      mib(loaded.rss),
      mib(loaded.heap),
      `${(rssPerSkill / 1024).toFixed(1)} KiB`,
      `${(heapPerSkill / 1024).toFixed(1)} KiB`,
      `${(avgFile / 1024).toFixed(1)} KiB`,
      ratio(heapPerSkill, avgFile),
    ]);
  }

  ctx.log(`memory: ${reloads} reloads on N=${RELOAD_FIXTURE}`);
  const small = await ctx.fixtures.get(RELOAD_FIXTURE);
  const editable = small.editable.slice(0, 10);
  const originals = await Promise.all(editable.map((f) => readFile(f)));
  let reloadRun: MemoryWorkerResult;
  try {
    reloadRun = await run(
      {
        mode: 'reloads',
        home: small.home,
        workspace: small.workspace,
        editable,
        reloads,
        maxMs: ctx.quick ? 20_000 : 100_000,
      },
      ctx.quick ? 40_000 : 160_000,
    );
  } finally {
    await Promise.all(editable.map((f, i) => writeFile(f, originals[i]!)));
  }
  const first = reloadRun.samples[0]!;
  const last = reloadRun.samples.at(-1)!;

  return [
    {
      title: 'Memory per skill',
      intro:
        `Fresh \`--expose-gc\` child per figure (median of ${iterations} up to 1,000; one at 10,000 and above), read after \`gc()\` with the ` +
        `result and its SkillFileCache alive. Empty run (no skills): RSS ${mib(empty.rss)}, heap ${mib(empty.heap)}. ` +
        'Per skill = (figure at N − empty run) / N. The last column compares the heap per skill with the mean SKILL.md size.',
      headers: ['N', 'loaded', 'RSS', 'heap used', 'RSS / skill', 'heap / skill', 'mean SKILL.md', 'heap / file size'],
      rows: perSkillRows,
      notes: [],
    },
    {
      title: 'Memory across reloads',
      intro:
        `One \`--expose-gc\` child: N = ${RELOAD_FIXTURE}, one SkillFileCache, a SKILL.md description edited before each ` +
        `re-discovery (${reloadRun.samples.length} checkpoints; ${last.reloads} reloads in ${(reloadRun.elapsedMs / 1000).toFixed(1)} s).`,
      headers: ['reloads', 'RSS', 'heap used', 'RSS vs first', 'heap vs first'],
      rows: reloadRun.samples.map((s) => [
        s.reloads.toLocaleString('en-US'),
        mib(s.rssBytes),
        mib(s.heapUsedBytes),
        ratio(s.rssBytes, first.rssBytes),
        ratio(s.heapUsedBytes, first.heapUsedBytes),
      ]),
      notes: [
        `After ${last.reloads.toLocaleString('en-US')} reloads: RSS ${ratio(last.rssBytes, first.rssBytes)} and heap ` +
          `${ratio(last.heapUsedBytes, first.heapUsedBytes)} of the first reload's (a leak would grow with the count).`,
      ],
    },
  ];
}
