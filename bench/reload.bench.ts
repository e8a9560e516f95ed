// Hot reload latency: with N skills indexed by a running daemon, one SKILL.md's description is rewritten and the
// time from the write to the `index` SSE event naming that skill is measured in a client. The floor is the kernel's
// own notice: the same writes watched with fs.watch in the benchmark process.

import { type FSWatcher, watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { BenchContext } from './lib/context.js';
import { spawnDaemon, waitForStatus } from './lib/server-process.js';
import { SseClient } from './lib/sse-client.js';
import { max, ms, percentile, ratio, verdict } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

const EVENT_TIMEOUT_MS = 5_000;
/** Pause after each event: longer than the daemon's re-read of a changed file (FINDINGS: ~75 ms), so edits do not
 * overlap each other's confirmation read. */
const SETTLE_MS = 120;
const TARGET_P50 = 15;
const TARGET_P99 = 100;

interface IndexEventData {
  generation: number;
  added: string[];
  removed: string[];
  changed: string[];
}

export async function runReloadBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [100, 1_000] : [100, 1_000, 10_000]);
  const edits = ctx.quick ? 30 : 200;
  // Bounds each N's edit loop in time too: a reload that costs seconds would otherwise take the suite past its budget.
  const budgetMs = ctx.quick ? 20_000 : 75_000;
  const rows: string[][] = [];
  const verdicts: string[] = [];
  for (const n of sizes) {
    const fixture = await ctx.fixtures.get(n);
    // Spread the edits over the whole tree (every provider directory), each file at most once per run.
    const stride = Math.max(1, Math.floor(fixture.editable.length / edits));
    const files = Array.from({ length: edits }, (_, i) => fixture.editable[(i * stride) % fixture.editable.length]!);
    const originals = new Map<string, Buffer>();
    for (const file of files) if (!originals.has(file)) originals.set(file, await readFile(file));

    ctx.log(`reload: N=${n}, watch floor`);
    const floor = await watchFloor(files, originals);

    ctx.log(`reload: N=${n}, daemon`);
    const daemon = await spawnDaemon(fixture.home, fixture.workspace);
    const latencies: number[] = [];
    let missed = 0;
    let attempted = 0;
    let client: SseClient | undefined;
    try {
      await waitForStatus(daemon, '/skills', 200, 120_000);
      client = await SseClient.connect(`${daemon.url}/events`);
      await client.next((e) => e.event === 'hello', EVENT_TIMEOUT_MS);
      const loopStarted = performance.now();
      for (const [i, file] of files.entries()) {
        if (performance.now() - loopStarted > budgetMs) break;
        attempted++;
        const name = basename(dirname(file));
        const next = editedContent(originals.get(file)!, `Edited for reload ${i} at ${n}`);
        const started = performance.now();
        await writeFile(file, next);
        try {
          const event = await client.next(
            (e) => e.event === 'index' && (JSON.parse(e.data) as IndexEventData).changed.includes(name),
            EVENT_TIMEOUT_MS,
          );
          latencies.push(event.at - started);
        } catch {
          missed++;
        }
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
    } finally {
      client?.close();
      await daemon.stop();
      for (const [file, content] of originals) await writeFile(file, content);
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const floorP50 = percentile(floor, 50);
    rows.push([
      n.toLocaleString('en-US'),
      `${latencies.length}/${attempted}${attempted < edits ? ` (time cap)` : ''}`,
      ms(p50),
      ms(percentile(latencies, 90)),
      ms(p99),
      ms(max(latencies)),
      `${ms(floorP50, 2)} / ${ms(percentile(floor, 99), 2)}`,
      ratio(p50, floorP50),
    ]);
    verdicts.push(
      `N = ${n.toLocaleString('en-US')}: p50 ≤ ${TARGET_P50} ms ${verdict(missed === 0 && p50 <= TARGET_P50)}, ` +
        `p99 ≤ ${TARGET_P99} ms ${verdict(missed === 0 && p99 <= TARGET_P99)}` +
        (missed > 0 ? ` (${missed} edits got no event within ${EVENT_TIMEOUT_MS} ms)` : ''),
    );
  }
  return [
    {
      title: 'Hot reload: SKILL.md write → SSE `index` event',
      intro:
        `${edits} description edits per N, each to a different SKILL.md spread over all provider directories, ` +
        `${SETTLE_MS} ms apart; latency from just before \`writeFile\` to the arrival of the \`index\` event whose ` +
        '`changed` names the skill, in a fetch-based SSE client. Floor: the same writes seen by `fs.watch` (inotify) ' +
        'in the benchmark process.',
      headers: ['N', 'events', 'p50', 'p90', 'p99', 'max', 'fs.watch floor p50 / p99', 'p50 ratio'],
      rows,
      notes: verdicts,
    },
  ];
}

/** The same kind of write, seen by fs.watch on the skill's directory: the notification floor. */
async function watchFloor(files: string[], originals: Map<string, Buffer>): Promise<number[]> {
  const latencies: number[] = [];
  for (const [i, file] of files.entries()) {
    let watcher: FSWatcher | undefined;
    const seen = new Promise<number>((resolve) => {
      watcher = watch(dirname(file), (_type, changed) => {
        if (changed === 'SKILL.md') resolve(performance.now());
      });
    });
    const started = performance.now();
    await writeFile(file, editedContent(originals.get(file)!, `Floor edit ${i}`));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(Number.NaN), EVENT_TIMEOUT_MS);
    });
    const at = await Promise.race([seen, timeout]);
    clearTimeout(timer);
    watcher?.close();
    if (Number.isFinite(at)) latencies.push(at - started);
    await writeFile(file, originals.get(file)!);
  }
  return latencies;
}

function editedContent(original: Buffer, description: string): string {
  const text = original.toString('utf8');
  const next = text.replace(/^description: .*$/m, `description: ${description}`);
  if (next === text) throw new Error('fixture SKILL.md without a description line');
  return next;
}
