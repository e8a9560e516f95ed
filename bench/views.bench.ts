// The per-agent views at N skills spread over every root some agent reads (fixture `agents`, docs/agents.md "The
// agents"), each row against the daemon's own default view measured in the same run:
// - the first `GET /agents` (503 NotReady retried until 200) against the daemon's first full `GET /skills`, per round
//   on a fresh daemon;
// - a SKILL.md description edit → `index` event on `GET /events` with every view armed, against the same edits on a
//   daemon whose views were never requested; the same edits on the per-view stream `GET /events?agent=codex`;
// - `GET /skills?agent=codex` read right after each default-stream event: does it already show the edit;
// - VmRSS per skill with every view armed, minus an empty-tree daemon with its views armed too.
// `--busy` measures everything a second time next to one `node -e 'for(;;){}'` loop.

import { readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Fixture } from './fixtures.js';
import { startBusyLoop } from './lib/busy-loop.js';
import type { BenchContext } from './lib/context.js';
import { indexNames, waitForArmed, waitForFullList, withDescription } from './lib/daemon-ready.js';
import { type RssReading, readRss, SETTLE_AS_FLOOR, type SettleOptions, vmRss } from './lib/rss.js';
import { httpGet, type ServerProcess, spawnDaemon } from './lib/server-process.js';
import { SseClient } from './lib/sse-client.js';
import { count, max, median, ms, verdict } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

/** Every view id of `GET /agents` (docs/api.md "Agent views"). */
const VIEW_IDS = [
  'claude-code',
  'codex',
  'opencode',
  'gemini-cli',
  'copilot-cli',
  'vscode',
  'goose',
  'musepi',
  'omp',
  'xcsh',
] as const;
/** The view whose per-view stream and answer are checked after each edit. */
const CHECKED_VIEW = 'codex';
/**
 * The edited SKILL.md files are taken in turn from these roots, each read by several agents (docs/agents.md "The
 * agents"): `.agents/skills` by Codex, OpenCode, Gemini CLI, Copilot CLI, VS Code, Goose and the profiles;
 * `.claude/skills` by Claude Code, OpenCode, Copilot CLI, VS Code, Goose and the profiles, not by Codex.
 */
const EDITED_ROOTS: ReadonlyArray<{ base: 'home' | 'workspace'; dir: string }> = [
  { base: 'workspace', dir: '.agents/skills' },
  { base: 'home', dir: '.claude/skills' },
  { base: 'home', dir: '.agents/skills' },
  { base: 'workspace', dir: '.claude/skills' },
];

const TARGET = { firstAgents: 2, editP50: 15, editMax: 100, stale: 0 };
/** `GET /agents` read this many times with nothing changed, before the edits: the answer served as kept. */
const UNCHANGED_READS = 5;
/** Every wait is bounded: an edit's event, a view's answer, the first `GET /agents`. */
const EDIT_TIMEOUT_MS = 30_000;
const VIEW_TIMEOUT_MS = 600_000;
/** Longer than the watcher's confirmation re-read (75 ms), so one edit's follow-up never overlaps the next. */
const SETTLE_MS = 120;
/** Between two `GET /agents` while it answers 503 NotReady: small next to what it measures. */
const NOT_READY_POLL_MS = 50;

interface Plan {
  rounds: number;
  edits: number;
  settle: SettleOptions;
}

type Condition = 'quiet' | 'busy';

interface Tables {
  first: string[][];
  edits: string[][];
  fresh: string[][];
  memory: string[][];
  matrix: string[][];
  /** Under the edit table. */
  notes: string[];
}

export async function runViewsBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [1_000] : [10_000]);
  const plan: Plan = ctx.quick
    ? { rounds: 2, edits: 10, settle: { ...SETTLE_AS_FLOOR, samples: 10, maxMs: 15_000 } }
    : { rounds: 3, edits: 50, settle: { ...SETTLE_AS_FLOOR, maxMs: 60_000 } };
  const conditions: Condition[] = process.argv.includes('--busy') ? ['quiet', 'busy'] : ['quiet'];
  const empty = await ctx.fixtures.get(0, 'agents');
  const sections: BenchSection[] = [];
  for (const condition of conditions) {
    const loop = condition === 'busy' ? startBusyLoop() : undefined;
    const label =
      loop === undefined
        ? 'quiet (nothing started next to it)'
        : `next to one busy loop (\`node -e 'for(;;){}'\`, pid ${loop.pid})`;
    const tables: Tables = { first: [], edits: [], fresh: [], memory: [], matrix: [], notes: [] };
    try {
      for (const n of sizes) {
        const fixture = await ctx.fixtures.get(n, 'agents');
        const log = (message: string): void => ctx.log(`views (${condition}): N=${n}, ${message}`);
        tables.first.push(await measureFirst(log, n, fixture, empty, plan));
        const files = editedFiles(fixture, plan.edits);
        const originals = new Map(files.map((file) => [file, readFileSync(file)]));
        let baseline: EditRun;
        let armed: EditRun;
        try {
          log(`${files.length} edits, views never requested`);
          baseline = await measureEdits(log, fixture, files, plan, false);
          await restore(originals);
          log(`${files.length} edits, every view armed`);
          armed = await measureEdits(log, fixture, files, plan, true);
        } finally {
          await restore(originals);
        }
        log('an empty-tree daemon, before and after its views are requested');
        const zero = await emptyRss(empty, plan);
        tables.edits.push(...editRows(n, baseline, armed));
        tables.fresh.push(freshRow(n, armed));
        tables.memory.push(memoryRow(n, baseline, armed, zero));
        if (armed.matrix !== undefined) tables.matrix.push(matrixRow(n, armed.matrix));
        if ((armed.behind ?? 0) > 0)
          tables.notes.push(
            `N = ${count(n)}: after ${armed.behind} edits the views were not up to date ${EDIT_TIMEOUT_MS / 1000} s ` +
              'later; the next edit was made all the same.',
          );
      }
    } finally {
      await loop?.stop();
    }
    sections.push(...render(tables, label, plan));
  }
  return sections;
}

// ————— first GET /agents —————

async function measureFirst(
  log: (message: string) => void,
  n: number,
  fixture: Fixture,
  empty: Fixture,
  plan: Plan,
): Promise<string[]> {
  const firstMs: number[] = [];
  const emptyMs: number[] = [];
  const agentsMs: number[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    log(`first GET /agents, round ${round + 1}/${plan.rounds}`);
    emptyMs.push(await firstAnswer(empty));
    const daemon = await spawnDaemon(fixture.home, fixture.workspace);
    try {
      firstMs.push((await waitForFullList(daemon, fixture.names.length)) - daemon.spawnedAt);
      // The views are asked for on a daemon in the state the edit rows measure: watcher armed, nothing pending.
      await waitForArmed(daemon, probeFile(fixture));
      const asked = performance.now();
      agentsMs.push((await viewAnswer(daemon, '/agents')).at - asked);
    } finally {
      await daemon.stop();
    }
  }
  const ratios = agentsMs.map((a, i) => a / firstMs[i]!);
  const workRatios = agentsMs.map((a, i) => a / (firstMs[i]! - emptyMs[i]!));
  return [
    count(n),
    count(fixture.names.length),
    ms(median(firstMs)),
    ms(median(emptyMs)),
    ms(median(agentsMs)),
    spread(ratios),
    spread(workRatios),
    `≤ ${TARGET.firstAgents}×: ${verdict(median(ratios) <= TARGET.firstAgents)}`,
  ];
}

/** Spawn → the first `GET /skills` listing every name of `fixture` (ms). */
async function firstAnswer(fixture: Fixture): Promise<number> {
  const daemon = await spawnDaemon(fixture.home, fixture.workspace);
  try {
    return (await waitForFullList(daemon, fixture.names.length)) - daemon.spawnedAt;
  } finally {
    await daemon.stop();
  }
}

/**
 * `path` until a 200 (503 NotReady while the views are computed; docs/agents.md "Live"), at most VIEW_TIMEOUT_MS;
 * `at` is performance.now() when the 200's body was in.
 */
async function viewAnswer(
  daemon: ServerProcess,
  path: string,
  timeoutMs = VIEW_TIMEOUT_MS,
): Promise<{ at: number; body: unknown }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) throw new Error(`GET ${path}: no 200 within ${timeoutMs} ms`);
    const answer = await httpGet(`${daemon.url}${path}`, {}, left);
    const at = performance.now();
    if (answer.status === 200) return { at, body: JSON.parse(answer.body.toString('utf8')) };
    if (answer.status !== 503) throw new Error(`GET ${path}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, NOT_READY_POLL_MS));
  }
}

// ————— edits —————

interface EditRun {
  /** Edit → `index` event naming the skill on `GET /events`. */
  latencies: number[];
  timeouts: number;
  /** VmRSS once ready (views armed, or never requested), before any edit. */
  rss: RssReading;
  /** Only with views armed: */
  perView?: { latencies: number[]; timeouts: number } | { unavailable: string };
  reads?: { total: number; stale: number; notReady: number; missing: number };
  /** Edits after which `GET /agents` gave no 200 within EDIT_TIMEOUT_MS (the views still behind at the next edit). */
  behind?: number;
  /** Only with views armed: `GET /agents` after each edit (its matrix made again), and unchanged (served as kept). */
  matrix?: { afterEdit: number[]; unchanged: number[]; rssBefore: number; rssAfter: number };
}

/** `edits` files, taken in turn from EDITED_ROOTS, spread evenly over each root's editable skills. */
function editedFiles(fixture: Fixture, edits: number): string[] {
  const byRoot = EDITED_ROOTS.map((r) => {
    const root = join(r.base === 'home' ? fixture.home : fixture.workspace, r.dir);
    return fixture.editable.filter((file) => dirname(dirname(file)) === root);
  });
  const perRoot = Math.ceil(edits / EDITED_ROOTS.length);
  const picked = byRoot.map((files) => {
    if (files.length < perRoot)
      throw new Error(`fixture: ${files.length} editable skills in a root, ${perRoot} needed`);
    const stride = Math.floor(files.length / perRoot);
    return Array.from({ length: perRoot }, (_, i) => files[i * stride]!);
  });
  return Array.from({ length: edits }, (_, i) => picked[i % picked.length]![Math.floor(i / picked.length)]!);
}

/** The file the armed-watcher probe edits: editable, and never one of the measured edits. */
function probeFile(fixture: Fixture): string {
  return fixture.editable.at(-1)!;
}

/** How long the search index of the fixture may take to be built (14–16 s at 10,000 skills on 2 cores). */
const SEARCH_BUILT_TIMEOUT_MS = 180_000;

async function measureEdits(
  log: (message: string) => void,
  fixture: Fixture,
  files: string[],
  plan: Plan,
  views: boolean,
): Promise<EditRun> {
  const daemon = await spawnDaemon(fixture.home, fixture.workspace);
  const clients: SseClient[] = [];
  try {
    await waitForFullList(daemon, fixture.names.length);
    await waitForArmed(daemon, probeFile(fixture));
    // The search index a daemon builds after its first index (docs/api.md §GET /search) is built before the edits:
    // a search waits for it. Every edit then starts from a quiet daemon, on both daemons alike.
    const searched = await httpGet(`${daemon.url}/search?q=settled`, {}, SEARCH_BUILT_TIMEOUT_MS);
    if (searched.status !== 200) throw new Error(`GET /search: ${searched.status}`);
    let checked = new Set<string>();
    if (views) {
      await viewAnswer(daemon, '/agents');
      for (const id of VIEW_IDS) {
        const answer = await viewAnswer(daemon, `/skills?agent=${id}`);
        if (id === CHECKED_VIEW) checked = new Set(skillsOf(answer.body).map((s) => s.name));
      }
    }
    const rss = await readRss(daemon.child.pid!, plan.settle);
    const stream = await SseClient.connect(`${daemon.url}/events`);
    clients.push(stream);
    await stream.next((e) => e.event === 'hello', EDIT_TIMEOUT_MS);
    let perView: SseClient | undefined;
    let unavailable: string | undefined;
    if (views) {
      try {
        perView = await SseClient.connect(`${daemon.url}/events?agent=${CHECKED_VIEW}`);
        clients.push(perView);
        await perView.next((e) => e.event === 'hello', EDIT_TIMEOUT_MS);
      } catch (error) {
        // A daemon whose route does not take the parameter yet refuses it (docs/api.md "GET /events").
        if (!(error instanceof Error && error.message.endsWith(': 400'))) throw error;
        unavailable = 'the daemon answers 400 for `agent`';
      }
    }
    const run: EditRun = { latencies: [], timeouts: 0, rss };
    // The kept matrix served again, nothing changed: the floor of the reads after each edit below.
    const unchanged: number[] = [];
    if (views) {
      for (let i = 0; i < UNCHANGED_READS; i++) {
        const asked = performance.now();
        unchanged.push((await viewAnswer(daemon, '/agents', EDIT_TIMEOUT_MS)).at - asked);
      }
    }
    const afterEdit: number[] = [];
    const viewLatencies: number[] = [];
    let viewTimeouts = 0;
    const reads = { total: 0, stale: 0, notReady: 0, missing: 0 };
    let behind = 0;
    for (const [i, file] of files.entries()) {
      if (i > 0 && i % 10 === 0) log(`${i} of ${files.length} edits done`);
      const name = basename(dirname(file));
      const description = `Views bench edit ${i + 1} ${views ? 'with every view armed' : 'with no view requested'}`;
      const next = withDescription(readFileSync(file), description);
      const started = performance.now();
      writeFileSync(file, next);
      const deadline = started + EDIT_TIMEOUT_MS;
      let seen = false;
      try {
        const event = await stream.next((e) => indexNames(e, 'changed').includes(name), EDIT_TIMEOUT_MS);
        run.latencies.push(event.at - started);
        seen = true;
      } catch {
        run.timeouts++;
      }
      if (seen && views && checked.has(name)) {
        reads.total++;
        // Asked right after the default event; its answer (the view's every skill) is parsed once the per-view event
        // is in: parsed first, it held this process's event loop while that event arrived, and the event's arrival
        // was stamped late by as long.
        const reading = httpGet(`${daemon.url}/skills?agent=${CHECKED_VIEW}`, {}, EDIT_TIMEOUT_MS);
        reading.catch(() => undefined);
        if (perView !== undefined) {
          try {
            const mentions = `"${name}"`;
            const event = await perView.next(
              (e) => e.event === 'index' && e.data.includes(mentions),
              Math.max(1, deadline - performance.now()),
            );
            viewLatencies.push(event.at - started);
          } catch {
            viewTimeouts++;
          }
        }
        const answer = await reading;
        if (answer.status === 503) reads.notReady++;
        else if (answer.status !== 200) throw new Error(`GET /skills?agent=${CHECKED_VIEW}: ${answer.status}`);
        else {
          const skill = skillsOf(JSON.parse(answer.body.toString('utf8'))).find((s) => s.name === name);
          if (skill === undefined) reads.missing++;
          else if (skill.description !== description) reads.stale++;
        }
      }
      // Every view brought up to date before the next edit: a read waits for that (docs/agents.md "Live"), so each
      // edit starts from the same quiet state as the baseline's. Not timed.
      if (views) {
        const asked = performance.now();
        await viewAnswer(daemon, '/agents', EDIT_TIMEOUT_MS).then(
          (answer) => afterEdit.push(answer.at - asked),
          () => behind++,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    }
    log(`edit → GET /events (ms, in order): ${run.latencies.map((x) => x.toFixed(1)).join(' ')}`);
    if (views) log(`edit → per-view event (ms, in order): ${viewLatencies.map((x) => x.toFixed(1)).join(' ')}`);
    if (views) {
      run.behind = behind;
      run.reads = reads;
      run.perView = unavailable === undefined ? { latencies: viewLatencies, timeouts: viewTimeouts } : { unavailable };
      const rssAfter = vmRss(daemon.child.pid!);
      run.matrix = { afterEdit, unchanged, rssBefore: rss.at, rssAfter };
    }
    return run;
  } finally {
    for (const client of clients) client.close();
    await daemon.stop();
  }
}

function skillsOf(body: unknown): Array<{ name: string; description: string }> {
  return (body as { skills: Array<{ name: string; description: string }> }).skills;
}

async function restore(originals: Map<string, Buffer>): Promise<void> {
  for (const [file, content] of originals) await writeFile(file, content);
}

// ————— memory —————

interface EmptyRss {
  without: RssReading;
  armed: RssReading;
}

/** An empty-tree daemon once armed, then once its views are requested as the edit rows request them. */
async function emptyRss(empty: Fixture, plan: Plan): Promise<EmptyRss> {
  const daemon = await spawnDaemon(empty.home, empty.workspace);
  try {
    await waitForFullList(daemon, 0);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const without = await readRss(daemon.child.pid!, plan.settle);
    await viewAnswer(daemon, '/agents');
    for (const id of VIEW_IDS) await viewAnswer(daemon, `/skills?agent=${id}`);
    return { without, armed: await readRss(daemon.child.pid!, plan.settle) };
  } finally {
    await daemon.stop();
  }
}

// ————— tables —————

function editRows(n: number, baseline: EditRun, armed: EditRun): string[][] {
  const base = median(baseline.latencies);
  const row = (label: string, latencies: number[], timeouts: number, target: string): string[] => [
    count(n),
    label,
    String(latencies.length + timeouts),
    ms(median(latencies)),
    timeouts > 0 ? `> ${EDIT_TIMEOUT_MS / 1000} s` : ms(max(latencies)),
    String(timeouts),
    ratioOf(median(latencies), base),
    target,
  ];
  const p50 = median(armed.latencies);
  const worst = armed.timeouts > 0 ? Number.POSITIVE_INFINITY : max(armed.latencies);
  const rows = [
    row('`GET /events`, views never requested (the baseline)', baseline.latencies, baseline.timeouts, '—'),
    row(
      '`GET /events`, every view armed',
      armed.latencies,
      armed.timeouts,
      `p50 ≤ ${TARGET.editP50} ms: ${verdict(p50 <= TARGET.editP50)}; max ≤ ${TARGET.editMax} ms: ${verdict(worst <= TARGET.editMax)}`,
    ),
  ];
  const perView = armed.perView;
  const label = `\`GET /events?agent=${CHECKED_VIEW}\`, every view armed (the edits of files Codex reads)`;
  if (perView === undefined || 'unavailable' in perView)
    rows.push([count(n), label, '', `not available: ${perView?.unavailable ?? 'not measured'}`, '', '', '', '']);
  else {
    const viewP50 = median(perView.latencies);
    const viewWorst = perView.timeouts > 0 ? Number.POSITIVE_INFINITY : max(perView.latencies);
    rows.push(
      row(
        label,
        perView.latencies,
        perView.timeouts,
        `p50 ≤ ${TARGET.editP50} ms: ${verdict(viewP50 <= TARGET.editP50)}; max ≤ ${TARGET.editMax} ms: ${verdict(viewWorst <= TARGET.editMax)}`,
      ),
    );
  }
  return rows;
}

function freshRow(n: number, armed: EditRun): string[] {
  const reads = armed.reads ?? { total: 0, stale: 0, notReady: 0, missing: 0 };
  const wrong = reads.stale + reads.notReady + reads.missing;
  return [
    count(n),
    String(reads.total),
    String(reads.stale),
    String(reads.notReady),
    String(reads.missing),
    `${wrong} of ${reads.total}: ${verdict(reads.total > 0 ? wrong <= TARGET.stale : undefined)}`,
  ];
}

function memoryRow(n: number, baseline: EditRun, armed: EditRun, zero: EmptyRss): string[] {
  const kib = (bytes: number): string => `${(bytes / n / 1024).toFixed(1)} KiB`;
  const both = (a: RssReading, b: RssReading): string => `${kib(a.at - b.at)} / ${kib(a.settled - b.settled)}`;
  const mib = (r: RssReading): string => `${(r.at / 2 ** 20).toFixed(1)} / ${(r.settled / 2 ** 20).toFixed(1)} MiB`;
  return [
    count(n),
    mib(armed.rss),
    mib(zero.armed),
    both(armed.rss, zero.armed),
    mib(baseline.rss),
    mib(zero.without),
    both(baseline.rss, zero.without),
  ];
}

function matrixRow(n: number, matrix: NonNullable<EditRun['matrix']>): string[] {
  const growth = (matrix.rssAfter - matrix.rssBefore) / matrix.afterEdit.length / 2 ** 20;
  return [
    count(n),
    String(matrix.afterEdit.length),
    ms(median(matrix.afterEdit)),
    ms(max(matrix.afterEdit)),
    ms(median(matrix.unchanged)),
    ratioOf(median(matrix.afterEdit), median(matrix.unchanged)),
    `${growth.toFixed(1)} MiB`,
  ];
}

function render(tables: Tables, condition: string, plan: Plan): BenchSection[] {
  const fixture =
    'Fixture `agents`: the `spread` skills over every directory of `SKILL_DIRS` and the roots only other agents read ' +
    '(`.gemini/skills` in the workspace and HOME, `~/.copilot/skills`, `.goose/skills`, `~/.config/goose/skills`, ' +
    '`~/.config/agents/skills`); the workspace is a repository, trusted by Gemini CLI. N counts every skill ' +
    `directory; the default view lists those of \`SKILL_DIRS\` alone. Measured ${condition}.`;
  return [
    {
      title: `Views: first GET /agents against the first answer, ${condition}`,
      intro:
        `${fixture} Per round (${plan.rounds}), a fresh daemon: spawn → the first \`200 GET /skills\` listing every ` +
        'name (polled every 2 ms); then, once its watcher is armed (an edit inside a skill directory got its event, ' +
        `then 2 s), the first \`GET /agents\` → its first 200 (503 NotReady retried every ${NOT_READY_POLL_MS} ms). ` +
        'The empty-tree start (the same first answer on an empty HOME and workspace) is taken in each round too, for ' +
        'the second ratio.',
      headers: [
        'N',
        'skills in GET /skills',
        'first answer (median)',
        'empty-tree start (median)',
        'first GET /agents (median)',
        '÷ first answer, min / median / max',
        '÷ (first answer − empty start)',
        'target',
      ],
      rows: tables.first,
      notes: [],
    },
    {
      title: `Views: SKILL.md edit → index event, ${condition}`,
      intro:
        `${fixture} ${plan.edits} description edits per daemon, taken in turn from \`./.agents/skills\`, ` +
        '`~/.claude/skills`, `~/.agents/skills` and `./.claude/skills`, each timed from just before the write to ' +
        `the \`index\` event naming the skill, each waited for (at most ${EDIT_TIMEOUT_MS / 1000} s) and followed ` +
        `by ${SETTLE_MS} ms before the next. Baseline: a daemon whose views are never requested. Armed: a daemon ` +
        'that answered `GET /agents` and `GET /skills?agent=<id>` for every id first; there each edit is followed, ' +
        'untimed, by a `GET /agents` (a read waits until every view is up to date), so that every edit starts from ' +
        'a quiet daemon as on the baseline. Both once the watcher is armed; the ratio is of the p50s.',
      headers: ['N', 'stream', 'edits', 'p50', 'max', 'timeouts', 'p50 ÷ baseline', 'target'],
      rows: tables.edits,
      notes: tables.notes,
    },
    {
      title: `Views: GET /skills?agent=${CHECKED_VIEW} right after the default event, ${condition}`,
      intro:
        `On the armed daemon above, after each \`GET /events\` event of an edit of a file Codex reads (the ` +
        '`.agents/skills` ones), one `GET /skills?agent=codex`: stale if the skill still has its old description, ' +
        'not ready if it answers 503, missing if the skill is not in it.',
      headers: ['N', 'reads', 'stale', 'not ready (503)', 'missing', 'target 0'],
      rows: tables.fresh,
      notes: [],
    },
    {
      title: `Views: GET /agents after each edit, ${condition}`,
      intro:
        'On the armed daemon above: the `GET /agents` after each edit (its matrix made again for the new state of ' +
        `the views, then written), timed from the request to the whole body, against ${UNCHANGED_READS} reads ` +
        'before the edits with nothing changed (the answer kept, only written). The RSS growth is VmRSS after the ' +
        'last edit minus before the first, per edit: what each state of the views leaves until V8 collects it.',
      headers: ['N', 'reads', 'after an edit, p50', 'max', 'unchanged, p50', 'p50 ÷ unchanged', 'RSS growth per edit'],
      rows: tables.matrix,
      notes: [],
    },
    {
      title: `Views: daemon RSS per skill, ${condition}`,
      intro:
        'VmRSS (`/proc/<pid>/status`) of the daemons above before their first edit: the armed one once every view ' +
        'answered, the baseline one with none requested; minus an empty-tree daemon read the same way (once armed ' +
        'with no view requested, then again after `GET /agents` and every `GET /skills?agent=<id>`), divided by N. ' +
        `Each is given at that moment and settled (sampled every ${plan.settle.sampleMs} ms until ` +
        `${plan.settle.samples} samples in a row stay within ${plan.settle.bandBytes / 2 ** 20} MiB, at most ` +
        `${plan.settle.maxMs / 1000} s), as the floor benchmark reads it.`,
      headers: [
        'N',
        'RSS, views armed',
        'empty tree, views armed',
        'per skill, views armed',
        'RSS, no view requested',
        'empty tree, none requested',
        'per skill, none requested',
      ],
      rows: tables.memory,
      notes: [],
    },
  ];
}

/** `a / b` as `1.23×` (one digit at 10× and more). */
function ratioOf(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return 'n/a';
  const x = a / b;
  return `${x.toFixed(x >= 10 ? 0 : 2)}×`;
}

function spread(ratios: number[]): string {
  if (ratios.length === 0) return 'n/a';
  const digits = (x: number): string => x.toFixed(x >= 100 ? 0 : 2);
  return `${digits(Math.min(...ratios))}× / ${digits(median(ratios))}× / ${digits(Math.max(...ratios))}×`;
}
