// The search index (docs/api.md §GET /search) at N skills of the benchmark fixture, whose prose is shaped like English
// (bench/fixtures.ts: Zipf-distributed words, function words included): build time, memory, query latency by kind, and
// what following a reload costs against building it again. One fresh `--expose-gc` child per N.

import { readFile, writeFile } from 'node:fs/promises';
import { runChild } from './lib/child.js';
import type { BenchContext } from './lib/context.js';
import { max, median, mib, ms, percentile, verdict } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';
import type { QueryKind, SearchWorkerInput, SearchWorkerResult } from './workers/search-worker.js';

const WORKER = new URL('./workers/search-worker.ts', import.meta.url);
/** docs/performance.md §Search: one query at 10,000 skills. */
const QUERY_TARGET_MS = 5;

export async function runSearchBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [1_000] : [10_000, ...(ctx.large ? [50_000] : [])]);
  const rows: string[][] = [];
  const queryRows: string[][] = [];
  const notes: string[] = [];
  for (const n of sizes) {
    ctx.log(`search: N=${n}`);
    const fixture = await ctx.fixtures.get(n);
    const editable = fixture.editable.slice(0, 20);
    const originals = await Promise.all(editable.map((file) => readFile(file)));
    let result: SearchWorkerResult;
    try {
      const input: SearchWorkerInput = {
        home: fixture.home,
        workspace: fixture.workspace,
        editable,
        queries: ctx.quick ? 100 : 500,
        updates: editable.length,
      };
      result = await runChild<SearchWorkerResult>(WORKER, input, {
        nodeFlags: ['--expose-gc'],
        timeoutMs: 60_000 + n * 30,
      });
    } finally {
      await Promise.all(editable.map((file, i) => writeFile(file, originals[i]!)));
    }
    const all = Object.values(result.queryMs).flat();
    rows.push([
      n.toLocaleString('en-US'),
      String(result.skills),
      ms(result.buildMs, 0),
      `${mib(result.rssWith - result.rssWithout)} (${((result.rssWith - result.rssWithout) / n / 1024).toFixed(1)} KiB)`,
      `${mib(result.heapWith - result.heapWithout)} (${((result.heapWith - result.heapWithout) / n / 1024).toFixed(1)} KiB)`,
      ms(median(result.updateMs), 2),
      ms(result.fullCheckMs, 0),
      ms(median(all), 2),
      ms(percentile(all, 95), 2),
      ms(max(all), 2),
      n === 10_000 ? verdict(median(all) <= QUERY_TARGET_MS) : 'n/a',
    ]);
    for (const kind of Object.keys(result.queryMs) as QueryKind[]) {
      const samples = result.queryMs[kind];
      queryRows.push([
        n.toLocaleString('en-US'),
        kind,
        String(samples.length),
        ms(median(samples), 2),
        ms(percentile(samples, 95), 2),
        ms(max(samples), 2),
      ]);
    }
    const empty = (Object.keys(result.emptyAnswers) as QueryKind[]).map(
      (kind) => `${kind} ${result.emptyAnswers[kind]}`,
    );
    notes.push(
      `N = ${n.toLocaleString('en-US')}: ${result.meanResults.toFixed(1)} results per query on average; queries ` +
        `that matched nothing: ${empty.join(', ')}.`,
    );
  }
  return [
    {
      title: 'Search index',
      intro:
        'A fresh `--expose-gc` child per N: the skill index built (watch off), then its search index built from the ' +
        'snapshot (every SKILL.md body read once, tokenised, dropped). Memory = after `gc()` with the search index ' +
        'minus before it (per skill in brackets). Update = one body edited and its path reported (median of 20); ' +
        'full check = a build with no paths (every file identity compared). Query = `searchAnswer(q, 10)` as the ' +
        `route calls it, all kinds together; target p50 ≤ ${QUERY_TARGET_MS} ms at 10,000.`,
      headers: [
        'N',
        'indexed',
        'build',
        'RSS added (per skill)',
        'heap added (per skill)',
        'update p50',
        'full check',
        'query p50',
        'query p95',
        'query max',
        'query target',
      ],
      rows,
      notes,
    },
    {
      title: 'Search queries by kind',
      intro:
        'Each query is asked once. Words come from the skills’ descriptions: every distinct word of six letters or ' +
        'more, from the commonest to the rarest, picked at positions spread evenly on a log scale (as many words ' +
        'found in most skills as in a tenth, a hundredth or one). `word` one whole word, `prefix` its first four ' +
        'letters, `typo` the word with its third letter dropped, `phrase` three words of different frequency. The ' +
        'matching rules are the route’s (docs/api.md §GET /search).',
      headers: ['N', 'kind', 'queries', 'p50', 'p95', 'max'],
      rows: queryRows,
      notes: [],
    },
  ];
}
