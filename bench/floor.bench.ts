// skillsd against the floor of what it does, on a tree shaped like real skill sets (`real` fixture: N/6 siblings in
// one directory, half the descriptions with an unquoted `": "`, 5 % symlinked skill directories). Every row is a
// ratio to a floor measured in the same run, daemon and floor alternating round by round:
// - first full answer: spawn of `dist/cli.js serve` → first `200 GET /skills` listing every skill, minus the same
//   on an empty tree, against the synchronous floor (readdirSync + statSync + readFileSync loop, fresh process) and
//   the asynchronous one (fs/promises with the pipeline's concurrency);
// - a skill added right after that first answer → its SSE `index` event, against fs.watch + read of the same write;
// - edits and structural changes (skill directory added, renamed, removed) in the crowded directory → SSE;
// - RSS per skill after start and after a few hundred reloads;
// - `GET /skill/{name}/{file}` and the `GET /skills` 304 against bare node:http servers.

import { spawn } from 'node:child_process';
import { type FSWatcher, mkdirSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';
import { CROWDED_DIR_INDEX, type Fixture, SKILL_DIRS } from './fixtures.js';
import type { BenchContext } from './lib/context.js';
import { waitForFullList } from './lib/daemon-ready.js';
import { stopChild, track } from './lib/processes.js';
import { httpGet, type ServerProcess, spawnBareServer, spawnDaemon, waitForStatus } from './lib/server-process.js';
import { SseClient, type SseEvent } from './lib/sse-client.js';
import { median, ms } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

const FLOOR_WALK = fileURLToPath(new URL('./servers/floor-walk.mjs', import.meta.url));
const EVENT_TIMEOUT_MS = 10_000;
/** Longer than the watcher's confirmation re-read (75 ms), so one change's follow-up never overlaps the next. */
const SETTLE_MS = 120;
const HTTP_CONNECTIONS = 10;
const HTTP_ROUND_S = 2;

/** Targets printed next to each row. */
const TARGET = {
  firstAnswer: 3,
  addAfterFirst: 10,
  editP50: 15,
  editMax: 100,
  structuralP50: 30,
  rssKiBPerSkill: 8,
  fileRoute: 0.5,
  notModified: 0.8,
};

interface IndexEventData {
  added: string[];
  removed: string[];
  changed: string[];
}

interface Plan {
  firstAnswerRounds: number;
  edits: number;
  structural: number;
  reloads: number;
  httpRounds: number;
}

const FLOOR_PARTS = ['first', 'live', 'memory', 'http'] as const;

/** SKILLSD_FLOOR_PARTS=first,live,memory,http (any subset) measures only those tables; unset: all of them. */
function floorParts(value: string | undefined): Set<string> {
  if (value === undefined || value.trim() === '') return new Set(FLOOR_PARTS);
  const parts = new Set(value.split(',').map((part) => part.trim()));
  for (const part of parts) {
    if (!(FLOOR_PARTS as readonly string[]).includes(part))
      throw new Error(`SKILLSD_FLOOR_PARTS: unknown part ${part} (known: ${FLOOR_PARTS.join(', ')})`);
  }
  return parts;
}

export async function runFloorBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [1_000] : ctx.large ? [10_000, 50_000] : [10_000]);
  const plan: Plan = ctx.quick
    ? { firstAnswerRounds: 2, edits: 20, structural: 6, reloads: 100, httpRounds: 2 }
    : { firstAnswerRounds: 3, edits: 100, structural: 20, reloads: 300, httpRounds: 3 };
  const parts = floorParts(process.env.SKILLSD_FLOOR_PARTS);
  const sections: BenchSection[] = [];
  const first: string[][] = [];
  const live: string[][] = [];
  const memory: string[][] = [];
  const http: string[][] = [];
  const notes: string[] = [];
  const empty = await ctx.fixtures.get(0, 'real');
  for (const n of sizes) {
    const fixture = await ctx.fixtures.get(n, 'real');
    const scratch = await mkdtemp(join(dirname(fixture.home), 'floor-scratch-'));
    try {
      if (parts.has('first')) {
        const firstAnswer = await measureFirstAnswer(ctx, n, fixture, empty, plan, scratch);
        first.push(...firstAnswer.rows);
        live.push(firstAnswer.addRow);
      }
      if (parts.has('live')) live.push(...(await measureLive(ctx, n, fixture, plan, scratch)));
      if (parts.has('memory')) memory.push(await measureMemory(ctx, n, fixture, empty, plan));
      if (parts.has('http')) http.push(...(await measureHttp(ctx, n, fixture, plan, scratch, notes)));
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
  const shape =
    'Fixture `real`: N/6 siblings in `~/.claude/skills`, half the descriptions `Use when: …` unquoted, 5 % ' +
    'symlinked skill directories. Ratios are per round, daemon and floor alternating; min / median / max over rounds.';
  sections.push(
    {
      title: 'Floor: first full answer',
      intro:
        `${shape} Daemon: spawn of \`node dist/cli.js serve\` → first \`200 GET /skills\` whose \`skills\` lists ` +
        'every fixture name (polled every 2 ms), minus the same on an empty tree (process start, module load, listen). ' +
        'Sync floor: a fresh `node` process running one `readdirSync` + `statSync` + `readFileSync` loop over the ' +
        'same skills directories (walk time only). Async floor: the same walk with fs/promises and the pipeline\u2019s ' +
        `concurrency. ${plan.firstAnswerRounds} rounds after one unmeasured round.`,
      headers: [
        'N',
        'daemon − empty (median)',
        'sync floor',
        'async floor',
        'vs sync min / median / max',
        'vs async (median)',
        `target ≤ ${TARGET.firstAnswer}× sync`,
      ],
      rows: first,
      notes: [],
    },
    {
      title: 'Floor: changes → SSE event',
      intro:
        'The first row: the daemon of each first-answer round, right after that answer (its watcher may still be ' +
        'arming). The others: one daemon on the tree once its watcher is armed, an SSE client on `/events`. ' +
        'Each change is timed from just before its first file ' +
        'operation to the `index` event naming it. Floor: the same operations in a scratch directory seen by ' +
        '`fs.watch` in the benchmark process, followed by a `readFileSync` of the SKILL.md (when there is one), ' +
        `alternating with the daemon's. Changes are made in the directory holding N/6 siblings, ${SETTLE_MS} ms apart.`,
      headers: ['N', 'change', 'count', 'daemon p50', 'daemon max', 'floor p50', 'p50 ratio', 'target'],
      rows: live,
      notes: [],
    },
    {
      title: 'Floor: daemon RSS per skill',
      intro:
        'VmRSS of the daemon process (/proc) once its first full answer is served and its watcher armed (+ 2 s), and after reloads (description ' +
        'edits, each waited for on SSE, + 1 s), minus an empty-tree daemon measured the same way, per skill. Each is given twice: at that ' +
        `moment (a/), and settled (/b: sampled every ${RSS_SAMPLE_MS} ms until ${RSS_SETTLED_SAMPLES} samples in a row stay within ` +
        `${RSS_SETTLED_MIB} MiB, at most ${RSS_SETTLE_MAX_S} s): V8 gives the young generation and the old space grown by a burst of ` +
        'allocation back some seconds after a burst, but not on a schedule (an idle empty daemon may shrink its young generation while ' +
        'a loaded one has not yet), so the target is read on the first figures, taken under the same conditions for both daemons.',
      headers: [
        'N',
        'RSS at N (a/b)',
        'RSS empty (a/b)',
        'per skill after start (a/b)',
        'reloads',
        'per skill after reloads (a/b)',
        'target',
      ],
      rows: memory,
      notes: [],
    },
    {
      title: 'Floor: HTTP answers vs bare node:http',
      intro:
        `Daemon with its watcher armed; autocannon, ${HTTP_CONNECTIONS} connections, ${plan.httpRounds} rounds of ${HTTP_ROUND_S} s per server, ` +
        'daemon and bare alternating, after a 1 s warm-up of each; ratio = daemon req/s ÷ bare req/s of the same ' +
        'round. File route floor: node:http reading the file with `fs.readFile` on every request. 304 floor: ' +
        'node:http comparing `If-None-Match` with a tag held in memory.',
      headers: ['N', 'request', 'daemon req/s', 'bare req/s', 'ratio min / median / max', 'target'],
      rows: http,
      notes,
    },
  );
  return sections;
}

// ————— first full answer —————

async function measureFirstAnswer(
  ctx: BenchContext,
  n: number,
  fixture: Fixture,
  empty: Fixture,
  plan: Plan,
  scratch: string,
): Promise<{ rows: string[][]; addRow: string[] }> {
  const dirsFile = join(scratch, 'dirs.json');
  await writeFile(dirsFile, JSON.stringify(skillDirs(fixture)));
  const crowded = skillDirs(fixture)[CROWDED_DIR_INDEX]!;
  const daemonMs: number[] = [];
  const syncMs: number[] = [];
  const asyncMs: number[] = [];
  const ratios: number[] = [];
  const asyncRatios: number[] = [];
  const addMs: number[] = [];
  const addFloorMs: number[] = [];
  for (let round = -1; round < plan.firstAnswerRounds; round++) {
    ctx.log(`floor: N=${n}, first answer ${round < 0 ? 'warm-up' : `round ${round + 1}/${plan.firstAnswerRounds}`}`);
    const sync = await floorWalk('sync', dirsFile, n);
    const asynchronous = await floorWalk('async', dirsFile, n);
    const full = await firstFullAnswer(fixture, fixture.names.length, async (daemon) => {
      // Right after the first answer: a new skill directory, then the event that lists it.
      const client = await SseClient.connect(`${daemon.url}/events`);
      try {
        await client.next((e) => e.event === 'hello', EVENT_TIMEOUT_MS);
        const floor = await floorChange(scratch, 'add', `floor-add-${round + 1}`);
        const name = `bench-added-${round + 1}`;
        const started = performance.now();
        writeSkill(join(crowded, name), 'A skill added right after the first answer. Use when: measuring');
        const event = await client.next((e) => indexNames(e, 'added').includes(name), EVENT_TIMEOUT_MS);
        return { add: event.at - started, floor };
      } finally {
        client.close();
      }
    });
    rmSync(join(crowded, `bench-added-${round + 1}`), { recursive: true, force: true });
    const none = await firstFullAnswer(empty, 0);
    if (round < 0) continue;
    const work = full.ms - none.ms;
    daemonMs.push(work);
    syncMs.push(sync);
    asyncMs.push(asynchronous);
    ratios.push(work / sync);
    asyncRatios.push(work / asynchronous);
    addMs.push(full.extra.add);
    addFloorMs.push(full.extra.floor);
  }
  const r = median(ratios);
  const addRatios = addMs.map((a, i) => a / addFloorMs[i]!);
  return {
    rows: [
      [
        count(n),
        ms(median(daemonMs)),
        ms(median(syncMs)),
        ms(median(asyncMs)),
        spread(ratios),
        `${median(asyncRatios).toFixed(2)}×`,
        verdict(r <= TARGET.firstAnswer),
      ],
    ],
    addRow: [
      count(n),
      'skill added right after the first answer',
      String(addMs.length),
      ms(median(addMs)),
      ms(Math.max(...addMs)),
      ms(median(addFloorMs), 2),
      `${spread(addRatios)}`,
      `≤ ${TARGET.addAfterFirst}× floor: ${verdict(median(addRatios) <= TARGET.addAfterFirst)}`,
    ],
  };
}

/** Walk time (ms) of floor-walk.mjs in a fresh process; checks it read `expected` SKILL.md files. */
async function floorWalk(mode: 'sync' | 'async', dirsFile: string, expected: number): Promise<number> {
  const child = track(spawn(process.execPath, [FLOOR_WALK, mode, dirsFile], { stdio: ['ignore', 'pipe', 'inherit'] }));
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const timer = setTimeout(() => void stopChild(child, 1000), 120_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`floor-walk ${mode} exited with ${code}`);
  const result = JSON.parse(out) as { ms: number; files: number };
  if (result.files !== expected) throw new Error(`floor-walk ${mode} read ${result.files} files, expected ${expected}`);
  return result.ms;
}

/**
 * Spawns the daemon on `fixture` and polls `GET /skills` until a 200 lists `names` skills; `then` runs on the live
 * daemon before it is stopped. `ms`: spawn → that answer.
 */
async function firstFullAnswer<T = undefined>(
  fixture: Fixture,
  names: number,
  then?: (daemon: ServerProcess) => Promise<T>,
): Promise<{ ms: number; extra: T }> {
  const daemon = await spawnDaemon(fixture.home, fixture.workspace);
  try {
    const at = await waitForFullList(daemon, names);
    const extra = then === undefined ? (undefined as T) : await then(daemon);
    return { ms: at - daemon.spawnedAt, extra };
  } finally {
    await daemon.stop();
  }
}

/**
 * Until the daemon's watcher is armed, then 2 s more: the steady state the change, memory and HTTP rows measure (the
 * daemon answers before that, see the first-answer rows). An edit inside a skill directory is seen only by the armed
 * watcher or by the re-check that follows the arming, so its event says the arming is over. The probe's bytes are
 * restored afterwards (and that edit's event awaited too).
 */
async function waitForArmed(daemon: ServerProcess, probe: string): Promise<void> {
  const client = await SseClient.connect(`${daemon.url}/events`);
  const original = readFileSync(probe);
  const name = basename(dirname(probe));
  try {
    await client.next((e) => e.event === 'hello', EVENT_TIMEOUT_MS);
    writeFileSync(probe, withDescription(original, 'Probe: is the watcher armed'));
    await client.next((e) => indexNames(e, 'changed').includes(name), 300_000);
    writeFileSync(probe, original);
    await client.next((e) => indexNames(e, 'changed').includes(name), EVENT_TIMEOUT_MS);
  } finally {
    client.close();
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
}

// ————— live changes —————

type Change = 'edit' | 'add' | 'rename' | 'remove';

async function measureLive(
  ctx: BenchContext,
  n: number,
  fixture: Fixture,
  plan: Plan,
  scratch: string,
): Promise<string[][]> {
  const crowded = skillDirs(fixture)[CROWDED_DIR_INDEX]!;
  const editable = fixture.editable.filter((file) => dirname(dirname(file)) === crowded);
  const stride = Math.max(1, Math.floor(editable.length / plan.edits));
  const files = Array.from({ length: Math.min(plan.edits, editable.length) }, (_, i) => editable[i * stride]!);
  const originals = new Map(files.map((file) => [file, readFileSync(file)]));
  const samples: Record<Change, { daemon: number[]; floor: number[] }> = {
    edit: { daemon: [], floor: [] },
    add: { daemon: [], floor: [] },
    rename: { daemon: [], floor: [] },
    remove: { daemon: [], floor: [] },
  };
  let missed = 0;
  const daemon = await spawnDaemon(fixture.home, fixture.workspace);
  let client: SseClient | undefined;
  try {
    await waitForStatus(daemon, '/skills', 200, 300_000);
    await waitForArmed(daemon, fixture.editable.at(-1)!);
    client = await SseClient.connect(`${daemon.url}/events`);
    await client.next((e) => e.event === 'hello', EVENT_TIMEOUT_MS);
    const sse = client;
    const timed = async (change: Change, floorName: string, act: () => number, seen: (e: SseEvent) => boolean) => {
      samples[change].floor.push(await floorChange(scratch, change, floorName));
      const started = act();
      try {
        const event = await sse.next(seen, EVENT_TIMEOUT_MS);
        samples[change].daemon.push(event.at - started);
      } catch {
        missed++;
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    };
    ctx.log(`floor: N=${n}, ${files.length} edits among ${editable.length} siblings`);
    for (const [i, file] of files.entries()) {
      const name = basename(dirname(file));
      const next = withDescription(originals.get(file)!, `Edited ${i}. Use when: timing an edit`);
      await timed(
        'edit',
        'floor-edit',
        () => {
          const started = performance.now();
          writeFileSync(file, next);
          return started;
        },
        (e) => indexNames(e, 'changed').includes(name),
      );
    }
    ctx.log(`floor: N=${n}, ${plan.structural} × add, rename, remove`);
    for (let i = 0; i < plan.structural; i++) {
      const added = `bench-new-${i}`;
      const renamed = `bench-renamed-${i}`;
      await timed(
        'add',
        `floor-new-${i}`,
        () => {
          const started = performance.now();
          writeSkill(join(crowded, added), 'A new skill. Use when: timing an addition');
          return started;
        },
        (e) => indexNames(e, 'added').includes(added),
      );
      await timed(
        'rename',
        `floor-new-${i}`,
        () => {
          const started = performance.now();
          renameSync(join(crowded, added), join(crowded, renamed));
          return started;
        },
        (e) => indexNames(e, 'added').includes(renamed),
      );
      await timed(
        'remove',
        `floor-new-${i}`,
        () => {
          const started = performance.now();
          rmSync(join(crowded, renamed), { recursive: true });
          return started;
        },
        (e) => indexNames(e, 'removed').includes(renamed),
      );
    }
  } finally {
    client?.close();
    await daemon.stop();
    for (const [file, content] of originals) await writeFile(file, content);
    for (let i = 0; i < plan.structural; i++) {
      for (const dir of [`bench-new-${i}`, `bench-renamed-${i}`])
        rmSync(join(crowded, dir), { recursive: true, force: true });
    }
  }
  const rows: string[][] = [];
  const row = (label: string, change: Change[], target: (p50: number, max: number) => string): void => {
    const daemonSamples = change.flatMap((c) => samples[c].daemon);
    const floorSamples = change.flatMap((c) => samples[c].floor);
    const p50 = median(daemonSamples);
    const worst = Math.max(...daemonSamples);
    rows.push([
      count(n),
      label,
      String(daemonSamples.length),
      ms(p50),
      ms(worst),
      ms(median(floorSamples), 2),
      `${(p50 / median(floorSamples)).toFixed(1)}×`,
      target(p50, worst),
    ]);
  };
  row(
    `SKILL.md edit, N/6 = ${count(editable.length)} siblings`,
    ['edit'],
    (p50, worst) =>
      `p50 ≤ ${TARGET.editP50} ms: ${verdict(p50 <= TARGET.editP50)}; max ≤ ${TARGET.editMax} ms: ${verdict(worst <= TARGET.editMax)}`,
  );
  for (const change of ['add', 'rename', 'remove'] as const) {
    row(
      `skill directory ${change === 'add' ? 'added' : change === 'rename' ? 'renamed' : 'removed'}`,
      [change],
      (p50) => `p50 ≤ ${TARGET.structuralP50} ms: ${verdict(p50 <= TARGET.structuralP50)}`,
    );
  }
  row(
    'structural, all three',
    ['add', 'rename', 'remove'],
    (p50) => `p50 ≤ ${TARGET.structuralP50} ms: ${verdict(p50 <= TARGET.structuralP50)}`,
  );
  if (missed > 0)
    rows.push([count(n), `**${missed} changes got no event within ${EVENT_TIMEOUT_MS} ms**`, '', '', '', '', '', '']);
  return rows;
}

/**
 * The floor of one change: the same file operations on `scratch/<name>`, until `fs.watch` on `scratch` reports the
 * entry (and, when a SKILL.md is there afterwards, it is read). `add` creates `name`, `rename` moves it to
 * `name-renamed`, `remove` deletes `name-renamed`: the daemon's side makes the same moves in the same order.
 */
async function floorChange(scratch: string, change: Change, name: string): Promise<number> {
  const dir = change === 'edit' ? join(scratch, 'floor-edit') : scratch;
  if (change === 'edit') mkdirSync(dir, { recursive: true });
  const target = change === 'edit' ? 'SKILL.md' : change === 'remove' || change === 'rename' ? `${name}-renamed` : name;
  if (change === 'rename') rmSync(join(scratch, `${name}-renamed`), { recursive: true, force: true });
  let watcher: FSWatcher | undefined;
  const seen = new Promise<void>((resolve) => {
    watcher = watch(dir, (_type, changed) => {
      if (changed === target) resolve();
    });
  });
  const started = performance.now();
  if (change === 'edit') writeFileSync(join(dir, 'SKILL.md'), `---\ndescription: floor ${started}\n---\n`);
  else if (change === 'add') writeSkill(join(scratch, name), 'A new skill. Use when: timing an addition');
  else if (change === 'rename') renameSync(join(scratch, name), join(scratch, `${name}-renamed`));
  else rmSync(join(scratch, `${name}-renamed`), { recursive: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`fs.watch saw no ${change} of ${target}`)), EVENT_TIMEOUT_MS);
  });
  try {
    await Promise.race([seen, timeout]);
  } finally {
    clearTimeout(timer);
    watcher?.close();
  }
  if (change === 'edit') readFileSync(join(dir, 'SKILL.md'), 'utf8');
  else if (change === 'add') readFileSync(join(scratch, name, 'SKILL.md'), 'utf8');
  else if (change === 'rename') readFileSync(join(scratch, `${name}-renamed`, 'SKILL.md'), 'utf8');
  return performance.now() - started;
}

// ————— memory —————

async function measureMemory(
  ctx: BenchContext,
  n: number,
  fixture: Fixture,
  empty: Fixture,
  plan: Plan,
): Promise<string[]> {
  ctx.log(`floor: N=${n}, RSS after start and ${plan.reloads} reloads`);
  const emptyRss = await daemonRss(empty, 0, [], ctx);
  const files = fixture.editable.slice(0, 20);
  const originals = files.map((file) => readFileSync(file));
  let loaded: DaemonRss;
  try {
    loaded = await daemonRss(fixture, plan.reloads, files, ctx);
  } finally {
    await Promise.all(files.map((file, i) => writeFile(file, originals[i]!)));
  }
  const per = (bytes: number, base: number): number => (bytes - base) / n / 1024;
  const perStart = per(loaded.start.at, emptyRss.start.at);
  const perAfter = per(loaded.after.at, emptyRss.start.at);
  const both = (a: number, b: number, format: (x: number) => string): string => `${format(a)} / ${format(b)}`;
  const kib = (x: number): string => `${x.toFixed(1)} KiB`;
  return [
    count(n),
    both(loaded.start.at, loaded.start.settled, mib),
    both(emptyRss.start.at, emptyRss.start.settled, mib),
    both(perStart, per(loaded.start.settled, emptyRss.start.settled), kib),
    String(loaded.reloads),
    both(perAfter, per(loaded.after.settled, emptyRss.start.settled), kib),
    `≤ ${TARGET.rssKiBPerSkill} KiB: ${verdict(Math.max(perStart, perAfter) <= TARGET.rssKiBPerSkill)}`,
  ];
}

/** VmRSS at a moment (`at`) and once it stopped moving (`settled`). */
interface RssReading {
  at: number;
  settled: number;
}

interface DaemonRss {
  start: RssReading;
  after: RssReading;
  reloads: number;
}

/** VmRSS now, then sampled until RSS_SETTLED_SAMPLES in a row stay within RSS_SETTLED_MIB (at most RSS_SETTLE_MAX_S). */
async function readRss(daemon: ServerProcess): Promise<RssReading> {
  const at = vmRss(daemon);
  const samples = [at];
  const deadline = performance.now() + RSS_SETTLE_MAX_S * 1000;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
    samples.push(vmRss(daemon));
    const last = samples.slice(-RSS_SETTLED_SAMPLES);
    if (last.length === RSS_SETTLED_SAMPLES && Math.max(...last) - Math.min(...last) <= RSS_SETTLED_MIB * 1024 * 1024) {
      break;
    }
  }
  return { at, settled: Math.min(...samples.slice(-RSS_SETTLED_SAMPLES)) };
}

/** VmRSS after the first full answer, and after `reloads` edits of `files` each seen on SSE. */
async function daemonRss(fixture: Fixture, reloads: number, files: string[], ctx: BenchContext): Promise<DaemonRss> {
  const daemon = await spawnDaemon(fixture.home, fixture.workspace);
  let client: SseClient | undefined;
  try {
    await waitForFullList(daemon, fixture.names.length);
    if (fixture.editable.length > 0) await waitForArmed(daemon, fixture.editable.at(-1)!);
    else await new Promise((resolve) => setTimeout(resolve, 2000));
    const start = await readRss(daemon);
    if (reloads === 0) return { start, after: start, reloads: 0 };
    client = await SseClient.connect(`${daemon.url}/events`);
    await client.next((e) => e.event === 'hello', EVENT_TIMEOUT_MS);
    let done = 0;
    for (let i = 0; i < reloads; i++) {
      const file = files[i % files.length]!;
      const name = basename(dirname(file));
      writeFileSync(file, withDescription(readFileSync(file), `Reload ${i}. Use when: counting reloads`));
      try {
        await client.next((e) => indexNames(e, 'changed').includes(name), EVENT_TIMEOUT_MS);
        done++;
      } catch {
        ctx.log(`floor: reload ${i} got no event`);
      }
    }
    // The SSE client is closed first: a settled reading of an idle daemon, as the start one.
    client.close();
    client = undefined;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return { start, after: await readRss(daemon), reloads: done };
  } finally {
    client?.close();
    await daemon.stop();
  }
}

const RSS_SAMPLE_MS = 500;
const RSS_SETTLED_SAMPLES = 40;
const RSS_SETTLED_MIB = 1;
const RSS_SETTLE_MAX_S = 90;

function vmRss(server: ServerProcess): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match === null) throw new Error('no VmRSS in /proc status');
  return Number(match[1]) * 1024;
}

// ————— HTTP —————

async function measureHttp(
  ctx: BenchContext,
  n: number,
  fixture: Fixture,
  plan: Plan,
  scratch: string,
  notes: string[],
): Promise<string[][]> {
  const reference = fixture.references[0];
  if (reference === undefined) throw new Error(`fixture N=${n} has no reference file`);
  const daemon = await spawnDaemon(fixture.home, fixture.workspace);
  let bare: ServerProcess | undefined;
  try {
    await waitForStatus(daemon, '/skills', 200, 300_000);
    await waitForArmed(daemon, fixture.editable.at(-1)!);
    const filePath = `/skill/${encodeURIComponent(reference.name)}/${reference.file.split('/').map(encodeURIComponent).join('/')}`;
    const list = await httpGet(`${daemon.url}/skills`);
    const file = await httpGet(`${daemon.url}${filePath}`);
    const etag = list.headers.etag;
    if (list.status !== 200 || etag === undefined) throw new Error(`GET /skills: ${list.status}, ETag ${etag}`);
    const notModified = await httpGet(`${daemon.url}/skills`, { 'if-none-match': etag });
    if (notModified.status !== 304) throw new Error(`GET /skills with its tag: ${notModified.status}`);
    if (file.status !== 200) throw new Error(`GET ${filePath}: ${file.status}`);
    const skillDir = fixture.editable.find((f) => basename(dirname(f)) === reference.name);
    if (skillDir === undefined) throw new Error(`no directory for ${reference.name}`);
    const onDisk = join(dirname(skillDir), reference.file);
    if (!readFileSync(onDisk).equals(file.body)) throw new Error(`GET ${filePath} is not the file's bytes`);
    const listBody = join(scratch, 'skills.json');
    await writeFile(listBody, list.body);
    const routes = join(scratch, 'routes.json');
    const headersOf = (answer: { headers: Record<string, string> }): Record<string, string> =>
      Object.fromEntries(
        Object.entries(answer.headers).filter(
          ([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k),
        ),
      );
    await writeFile(
      routes,
      JSON.stringify([
        // The floor answers with the daemon's own headers, 304 included: the same bytes on the wire.
        {
          path: '/skills',
          headers: headersOf(list),
          bodyFile: listBody,
          etag,
          notModifiedHeaders: headersOf(notModified),
        },
        { path: filePath, headers: headersOf(file), bodyFile: onDisk, perRequest: true },
      ]),
    );
    bare = await spawnBareServer(routes);
    await waitForStatus(bare, '/skills', 200, 30_000);
    const cases: Array<{
      label: string;
      path: string;
      headers: Record<string, string>;
      status: number;
      target: number;
    }> = [
      {
        label: 'GET /skill/{name}/{file} → 200',
        path: filePath,
        headers: {},
        status: 200,
        target: TARGET.fileRoute,
      },
      {
        label: 'GET /skills If-None-Match → 304',
        path: '/skills',
        headers: { 'if-none-match': etag },
        status: 304,
        target: TARGET.notModified,
      },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      ctx.log(`floor: N=${n}, ${c.label}`);
      await load(daemon.url + c.path, c.headers, 1);
      await load(bare.url + c.path, c.headers, 1);
      const d: number[] = [];
      const b: number[] = [];
      let wrong = 0;
      for (let round = 0; round < plan.httpRounds; round++) {
        const dr = await load(daemon.url + c.path, c.headers, HTTP_ROUND_S);
        const br = await load(bare.url + c.path, c.headers, HTTP_ROUND_S);
        wrong += unexpected(dr, c.status) + unexpected(br, c.status);
        d.push(dr.requests.total / dr.duration);
        b.push(br.requests.total / br.duration);
      }
      if (wrong > 0) notes.push(`N = ${count(n)}, ${c.label}: ${wrong} answers with another status or errors.`);
      const ratios = d.map((rate, i) => rate / b[i]!);
      rows.push([
        count(n),
        c.label,
        count(median(d)),
        count(median(b)),
        spread(ratios),
        `≥ ${c.target}× bare: ${verdict(median(ratios) >= c.target)}`,
      ]);
    }
    return rows;
  } finally {
    await daemon.stop();
    await bare?.stop();
  }
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<AutocannonResult> {
  return await autocannon({ url, connections: HTTP_CONNECTIONS, duration, headers });
}

function unexpected(result: AutocannonResult, status: number): number {
  let other = result.errors + result.timeouts;
  for (const [code, stats] of Object.entries(result.statusCodeStats)) if (Number(code) !== status) other += stats.count;
  return other;
}

// ————— helpers —————

function skillDirs(fixture: Fixture): string[] {
  return SKILL_DIRS.map((d) => join(d.base === 'home' ? fixture.home : fixture.workspace, d.dir));
}

/** A skill directory without a `name:` (its name is the directory's, so a rename renames the skill). */
function writeSkill(dir: string, description: string): void {
  mkdirSync(dir);
  writeFileSync(join(dir, 'SKILL.md'), `---\ndescription: ${description}\n---\n\n# Body\n\nText.\n`);
}

function withDescription(original: Buffer, description: string): string {
  const text = original.toString('utf8');
  const next = text.replace(/^description: .*$/m, `description: ${description}`);
  if (next === text) throw new Error('SKILL.md without a description line');
  return next;
}

function indexNames(event: SseEvent, field: keyof IndexEventData): string[] {
  if (event.event !== 'index') return [];
  return (JSON.parse(event.data) as IndexEventData)[field];
}

function spread(ratios: number[]): string {
  if (ratios.length === 0) return 'n/a';
  const digits = (x: number): string => x.toFixed(x >= 100 ? 0 : 2);
  return `${digits(Math.min(...ratios))}× / ${digits(median(ratios))}× / ${digits(Math.max(...ratios))}×`;
}

function verdict(ok: boolean): string {
  return ok ? 'met' : '**NOT met**';
}

function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
