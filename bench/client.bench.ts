// What a user pays per call and per idle hour, each row against a floor measured in the same run, rounds alternating:
// - client commands against a running daemon (empty tree): `skillsd --version`, `status`, `ls --json`, each run
//   through the package's bin as a user runs it, wall time of the whole process, against `node -e 0`, and beside it
//   an ES module and a CommonJS script that make one `node:http` request;
// - `skillsd stop`, from its start to its exit (the daemon gone), against `node -e 0`;
// - `skillsd ls --json` with no daemon (answered in-process) at N skills, against `node` + the plain synchronous walk
//   of the same tree (servers/floor-walk.mjs sync, its whole process);
// - VmRSS of an idle daemon on an empty tree after its first answer, and 30 s later, against an idle
//   `node` doing nothing and against the floor of the framework itself: a minimal Fastify app (one schema route,
//   pino at `warn`, servers/minimal-fastify.mjs) started and read alongside the daemon, in the same way; each reading
//   also split into private memory (RssAnon) and the pages of mapped files (RssFile: mostly the `node` binary).

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SKILL_DIRS } from './fixtures.js';
import type { BenchContext } from './lib/context.js';
import { type IdleReadings, type Resident, readIdle, residentOf, spawnMinimalFastify } from './lib/idle-memory.js';
import { stopChild, track } from './lib/processes.js';
import { CLIENT_BIN, freePort, spawnDaemon, waitForStatus } from './lib/server-process.js';
import { median, ratio } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

const FLOOR_WALK = fileURLToPath(new URL('./servers/floor-walk.mjs', import.meta.url));
const ONE_REQUEST = fileURLToPath(new URL('./servers/one-request.mjs', import.meta.url));
const ONE_REQUEST_CJS = fileURLToPath(new URL('./servers/one-request.cjs', import.meta.url));
/** How long the idle daemon is left alone before its second reading. */
const SETTLE_MS = 30_000;
const TARGET = { client: 1.5, version: 1.3, inProcess: 3, idleMiB: 64, stopMs: 500 };

interface Spread {
  min: number;
  median: number;
  max: number;
}

function spread(samples: readonly number[]): Spread {
  return { min: Math.min(...samples), median: median(samples), max: Math.max(...samples) };
}

const fmt = (s: Spread, unit: string, digits = 0) =>
  `${s.min.toFixed(digits)} / ${s.median.toFixed(digits)} / ${s.max.toFixed(digits)} ${unit}`;

/** Wall time of one process from spawn to exit, in ms; fails on a non-zero exit. */
async function timed(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<number> {
  const started = performance.now();
  const child = track(
    spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], ...(cwd ? { cwd } : {}) }),
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const elapsed = performance.now() - started;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}: ${stderr.slice(-500)}`);
  return elapsed;
}

function clientEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // NODE_EXTRA_CA_CERTS makes every node process parse that file before any code runs (about 35 ms for a system
    // bundle): the same time added to each floor and each command, which would flatter every ratio.
    if (key.startsWith('SKILLSD_') || key === 'NODE_OPTIONS' || key === 'NODE_EXTRA_CA_CERTS') continue;
    env[key] = value;
  }
  return { ...env, HOME: home, ...extra };
}

export async function runClientBench(ctx: BenchContext): Promise<BenchSection[]> {
  const rounds = ctx.quick ? 3 : 7;
  const sizes = ctx.sizes ?? [ctx.quick ? 100 : 1000];
  const scratch = await mkdtemp(join(tmpdir(), 'skillsd-bench-client-'));
  try {
    const rows: string[][] = [];
    const empty = await ctx.fixtures.empty();

    // Client commands against one daemon, each round: the floor, then every command once.
    ctx.log(`client: commands against a daemon, ${rounds} rounds`);
    const daemon = await spawnDaemon(empty.home, empty.workspace);
    const commands: Array<[label: string, args: string[], target: number]> = [
      ['`skillsd --version`', ['--version'], TARGET.version],
      ['`skillsd status` (daemon running)', ['status'], TARGET.client],
      ['`skillsd ls --json` (daemon running)', ['ls', '--json'], TARGET.client],
    ];
    // The floors of any client: one `node:http` request to the same daemon, from an ES module and from CommonJS.
    const requestFloors: Array<[label: string, script: string, samples: number[]]> = [
      [
        'an ES module making one `node:http` request to the daemon (the floor of a client written as ES modules)',
        ONE_REQUEST,
        [],
      ],
      [
        'the same request from a CommonJS script, which starts no ES module loader (the floor of any Node client)',
        ONE_REQUEST_CJS,
        [],
      ],
    ];
    const floor: number[] = [];
    const samples = commands.map(() => [] as number[]);
    const unread: Resident = { total: Number.NaN, anon: Number.NaN, file: Number.NaN };
    let idle: IdleReadings = { afterFirstAnswer: unread, settled: unread };
    let floorIdle: IdleReadings = { afterFirstAnswer: unread, settled: unread };
    const minimal = await spawnMinimalFastify();
    try {
      // The idle daemon and the minimal Fastify app side by side, each read after its own first answer.
      [idle, floorIdle] = await Promise.all([
        readIdle(daemon, '/skills', SETTLE_MS),
        readIdle(minimal, '/skills', SETTLE_MS),
      ]);
      await minimal.stop();
      const env = clientEnv(empty.home);
      for (let round = 0; round < rounds; round++) {
        floor.push(await timed(['-e', '0'], env));
        for (const [, script, times] of requestFloors) times.push(await timed([script, `${daemon.url}/health`], env));
        for (const [index, [, args]] of commands.entries()) {
          samples[index]!.push(await timed([CLIENT_BIN, ...args], env, empty.workspace));
        }
      }
    } finally {
      await Promise.all([daemon.stop(), minimal.stop()]);
    }
    const floorSpread = spread(floor);
    rows.push(['`node -e 0` (floor)', fmt(floorSpread, 'ms'), '1.00×', '']);
    for (const [label, , times] of requestFloors) {
      const s = spread(times);
      rows.push([label, fmt(s, 'ms'), ratio(s.median, floorSpread.median), '']);
    }
    for (const [index, [label, , target]] of commands.entries()) {
      const s = spread(samples[index]!);
      rows.push([label, fmt(s, 'ms'), ratio(s.median, floorSpread.median), `≤ ${target}×`]);
    }

    // stop: a fresh daemon per round, the command timed from spawn to exit.
    ctx.log(`client: stop, ${rounds} rounds`);
    const stops: number[] = [];
    const stopFloor: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const home = join(scratch, `stop-${round}`);
      const workspace = join(home, 'workspace');
      await mkdir(workspace, { recursive: true });
      const stopped = await spawnDaemon(home, workspace);
      try {
        await waitForStatus(stopped, '/health', 200, 60_000);
        stopFloor.push(await timed(['-e', '0'], clientEnv(home)));
        stops.push(await timed([CLIENT_BIN, 'stop'], clientEnv(home), workspace));
      } finally {
        await stopChild(stopped.child, 1000);
      }
    }
    const stopSpread = spread(stops);
    rows.push([
      '`skillsd stop` (until the daemon is gone)',
      fmt(stopSpread, 'ms'),
      ratio(stopSpread.median, median(stopFloor)),
      `≤ ${TARGET.stopMs} ms`,
    ]);

    // In-process answers: no daemon (a port nothing listens on), against node + the synchronous walk.
    for (const n of sizes) {
      const fixture = await ctx.fixtures.get(n);
      const dirsFile = join(scratch, `dirs-${n}.json`);
      await writeFile(
        dirsFile,
        JSON.stringify(SKILL_DIRS.map((d) => join(d.base === 'home' ? fixture.home : fixture.workspace, d.dir))),
      );
      ctx.log(`client: in-process ls --json at N = ${n}, ${rounds} rounds`);
      const nobody = `http://127.0.0.1:${await freePort()}`;
      const env = clientEnv(fixture.home);
      const walk: number[] = [];
      const local: number[] = [];
      for (let round = 0; round < rounds; round++) {
        walk.push(await timed([FLOOR_WALK, 'sync', dirsFile], env));
        local.push(await timed([CLIENT_BIN, 'ls', '--json', '--url', nobody], env, fixture.workspace));
      }
      const w = spread(walk);
      const l = spread(local);
      rows.push([`\`node\` + sync walk, N = ${n} (floor)`, fmt(w, 'ms'), '1.00×', '']);
      rows.push([
        `\`skillsd ls --json\`, no daemon (in-process), N = ${n}`,
        fmt(l, 'ms'),
        ratio(l.median, w.median),
        `≤ ${TARGET.inProcess}×`,
      ]);
    }

    // An idle node, for scale: the runtime alone.
    const idleNode = await idleNodeResident();
    const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
    const split = (r: Resident) => `${mib(r.anon)} + ${mib(r.file)}`;
    rows.push(['idle `node` (setInterval, nothing loaded)', mib(idleNode.total), '1.00×', '']);
    rows.push([
      'idle daemon, empty tree, after its first answer (VmRSS)',
      mib(idle.afterFirstAnswer.total),
      ratio(idle.afterFirstAnswer.total, idleNode.total),
      `≤ ${TARGET.idleMiB} MiB`,
    ]);
    rows.push([
      `idle daemon, the same, ${SETTLE_MS / 1000} s later (VmRSS)`,
      mib(idle.settled.total),
      ratio(idle.settled.total, idleNode.total),
      `≤ ${TARGET.idleMiB} MiB`,
    ]);
    rows.push([
      'minimal Fastify app (one schema route, pino at warn), after its first answer (VmRSS; the framework floor)',
      mib(floorIdle.afterFirstAnswer.total),
      ratio(floorIdle.afterFirstAnswer.total, idleNode.total),
      '',
    ]);
    rows.push([
      `minimal Fastify app, the same, ${SETTLE_MS / 1000} s later (VmRSS)`,
      mib(floorIdle.settled.total),
      ratio(floorIdle.settled.total, idleNode.total),
      '',
    ]);
    rows.push([
      'idle daemon ÷ minimal Fastify app, after the first answer / 30 s later',
      `${mib(idle.afterFirstAnswer.total)} / ${mib(floorIdle.afterFirstAnswer.total)}; ${mib(idle.settled.total)} / ${mib(floorIdle.settled.total)}`,
      `${ratio(idle.afterFirstAnswer.total, floorIdle.afterFirstAnswer.total)} / ${ratio(idle.settled.total, floorIdle.settled.total)}`,
      '',
    ]);
    // VmRSS split: what the process holds for itself, and the pages of the files it maps, which every node process
    // shares (docs/performance.md "Idle memory").
    rows.push(['idle `node`: private (RssAnon) + mapped files (RssFile)', split(idleNode), '', '']);
    rows.push([
      'idle daemon, after its first answer / 30 s later: private + mapped files',
      `${split(idle.afterFirstAnswer)} / ${split(idle.settled)}`,
      '',
      '',
    ]);
    rows.push([
      'minimal Fastify app, the same: private + mapped files',
      `${split(floorIdle.afterFirstAnswer)} / ${split(floorIdle.settled)}`,
      '',
      '',
    ]);
    rows.push([
      'idle daemon ÷ minimal Fastify app, private memory, after the first answer / 30 s later',
      `${mib(idle.afterFirstAnswer.anon)} / ${mib(floorIdle.afterFirstAnswer.anon)}; ${mib(idle.settled.anon)} / ${mib(floorIdle.settled.anon)}`,
      `${ratio(idle.afterFirstAnswer.anon, floorIdle.afterFirstAnswer.anon)} / ${ratio(idle.settled.anon, floorIdle.settled.anon)}`,
      '',
    ]);

    return [
      {
        title: 'Client commands, in-process answers, stop, idle memory',
        intro:
          `Wall time of whole processes (min / median / max over ${rounds} rounds), each against a floor measured ` +
          'in the same run; the ratio is of medians. The idle daemon serves an empty tree; memory ratios are against ' +
          'an idle `node`, and the last row against the minimal Fastify app read alongside the daemon.',
        headers: ['what', 'min / median / max', 'ratio', 'target'],
        rows,
        notes: [],
      },
    ];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The resident memory of a `node` that loads nothing and waits, once it is up. */
async function idleNodeResident(): Promise<Resident> {
  const child = track(
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log("up")'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  try {
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    return residentOf(child.pid ?? 0);
  } finally {
    await stopChild(child, 1000);
  }
}
