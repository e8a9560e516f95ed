// Runs the benchmarks and prints their tables; writes them to bench/results/latest.md.
// Usage: npm run bench [-- [--quick] [--large] [--no-build] [--busy] [--sizes=N,N...] [floor|discovery|startup|reload|http|memory|search|agents|views|client|peers ...]]
// --large (or SKILLSD_BENCH_LARGE=1) adds N = 50,000 where a benchmark has it; without it the suite stays at 10,000.
// --busy: the views benchmark measures its tables a second time next to one `node -e 'for(;;){}'` loop.
// The daemon benchmarks rebuild dist/ first when a file under src/ is newer than dist/cli.js (--no-build: never).

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgentsBench } from './agents.bench.js';
import { runClientBench } from './client.bench.js';
import { runDiscoveryBench } from './discovery.bench.js';
import { runFloorBench } from './floor.bench.js';
import { runHttpBench } from './http.bench.js';
import type { BenchContext } from './lib/context.js';
import { FixtureStore } from './lib/fixture-store.js';
import { stopAll } from './lib/processes.js';
import { DAEMON_CLI, REPO_ROOT } from './lib/server-process.js';
import { type BenchSection, renderSection } from './lib/table.js';
import { runMemoryBench } from './memory.bench.js';
import { runPeerLookupBench } from './peer-lookup.bench.js';
import { runReloadBench } from './reload.bench.js';
import { runSearchBench } from './search.bench.js';
import { runStartupBench } from './startup.bench.js';
import { runViewsBench } from './views.bench.js';

interface Bench {
  name: string;
  needsDaemon: boolean;
  run: (ctx: BenchContext) => Promise<BenchSection[]>;
}

const BENCHES: Bench[] = [
  { name: 'floor', needsDaemon: true, run: runFloorBench },
  { name: 'discovery', needsDaemon: false, run: runDiscoveryBench },
  { name: 'memory', needsDaemon: false, run: runMemoryBench },
  { name: 'startup', needsDaemon: true, run: runStartupBench },
  { name: 'reload', needsDaemon: true, run: runReloadBench },
  { name: 'http', needsDaemon: true, run: runHttpBench },
  { name: 'search', needsDaemon: false, run: runSearchBench },
  { name: 'agents', needsDaemon: true, run: runAgentsBench },
  { name: 'views', needsDaemon: true, run: runViewsBench },
  { name: 'client', needsDaemon: true, run: runClientBench },
  { name: 'peers', needsDaemon: false, run: runPeerLookupBench },
];

const RESULTS = fileURLToPath(new URL('./results/latest.md', import.meta.url));

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const large = args.includes('--large') || process.env.SKILLSD_BENCH_LARGE === '1';
  const build = !args.includes('--no-build');
  const sizes = parseSizes(args.find((a) => a.startsWith('--sizes=')));
  if (sizes === null) {
    console.error('--sizes= takes a comma-separated list of positive integers, e.g. --sizes=100,10000');
    return 2;
  }
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !BENCHES.some((b) => b.name === n));
  if (unknown.length > 0) {
    console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${BENCHES.map((b) => b.name).join(', ')})`);
    return 2;
  }
  const selected = names.length === 0 ? BENCHES : BENCHES.filter((b) => names.includes(b.name));
  const log = (message: string): void => {
    process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${message}\n`);
  };
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? Number.NaN;

  let daemonProblem: string | undefined;
  if (selected.some((b) => b.needsDaemon)) {
    if (build && (await distIsStale())) {
      log('building dist/ (npm run build)');
      const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, encoding: 'utf8' });
      if (result.status !== 0) log(`build reported errors:\n${(result.stdout + result.stderr).slice(-3000)}`);
    }
    if (!existsSync(DAEMON_CLI)) daemonProblem = `${DAEMON_CLI} does not exist (the daemon is not built)`;
  }

  const fixtures = new FixtureStore();
  const ctx: BenchContext = { quick, large, fixtures, log, ...(sizes === undefined ? {} : { sizes }) };
  const onSignal = (): void => {
    void stopAll()
      .then(() => fixtures.cleanup())
      .finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const output: string[] = [];
  let failures = 0;
  try {
    for (const bench of selected) {
      const benchStarted = performance.now();
      let sections: BenchSection[];
      if (bench.needsDaemon && daemonProblem !== undefined) {
        sections = [skipped(bench.name, daemonProblem)];
        failures++;
      } else {
        try {
          sections = await bench.run(ctx);
        } catch (error) {
          failures++;
          sections = [skipped(bench.name, error instanceof Error ? (error.stack ?? error.message) : String(error))];
        }
        await stopAll();
      }
      log(`${bench.name}: ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);
      for (const section of sections) {
        const text = renderSection(section);
        output.push(text);
        process.stdout.write(`\n${text}`);
      }
    }
  } finally {
    await stopAll();
    await fixtures.cleanup();
  }

  const totalSeconds = (performance.now() - started) / 1000;
  const generation = [...fixtures.generationSeconds]
    .sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]))
    .map(
      ([n, shape, s]) =>
        `N = ${n.toLocaleString('en-US')}${shape === 'spread' ? '' : ` (${shape})`}: ${s.toFixed(1)} s`,
    )
    .join(', ');
  const header = [
    '# skillsd benchmark results',
    '',
    `- Mode: ${quick ? 'quick' : large ? 'full, large' : 'full'}; benchmarks: ${selected.map((b) => b.name).join(', ')}`,
    `- Date: ${new Date().toISOString()}; total ${totalSeconds.toFixed(0)} s`,
    `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}`,
    `- Fixture generation: ${generation || 'none'}`,
    // Other processes on the machine inflate every absolute figure; the ratios compare sides measured back to back.
    `- Load average (1 min) at start / end: ${loadAtStart.toFixed(1)} / ${(loadavg()[0] ?? Number.NaN).toFixed(1)}`,
    '',
  ].join('\n');
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  await writeFile(RESULTS, `${header}\n${output.join('\n')}`);
  log(`wrote ${RESULTS} (${totalSeconds.toFixed(0)} s)`);
  return failures === 0 ? 0 : 1;
}

/** dist/cli.js is missing or older than some file under src/. */
async function distIsStale(): Promise<boolean> {
  if (!existsSync(DAEMON_CLI)) return true;
  const built = statSync(DAEMON_CLI).mtimeMs;
  const entries = await readdir(join(REPO_ROOT, 'src'), { recursive: true, withFileTypes: true });
  return entries.some((e) => e.isFile() && statSync(join(e.parentPath, e.name)).mtimeMs > built);
}

function skipped(name: string, reason: string): BenchSection {
  return {
    title: `${name}: not measured`,
    intro: 'This benchmark did not run to the end:',
    headers: ['reason'],
    rows: [[reason.split('\n').slice(0, 8).join(' ⏎ ')]],
    notes: [],
  };
}

process.exitCode = await main();

/** undefined: no flag; null: a malformed one. */
function parseSizes(flag: string | undefined): number[] | undefined | null {
  if (flag === undefined) return undefined;
  const values = flag
    .slice('--sizes='.length)
    .split(',')
    .map((part) => Number(part.replaceAll('_', '')));
  return values.length > 0 && values.every((n) => Number.isInteger(n) && n > 0) ? values : null;
}
