// HTTP throughput: autocannon (in this process, 10 connections) against the daemon and against a bare node:http
// server that answers the very bytes and headers the daemon answered, from memory. Both servers are child processes
// on loopback, measured in alternating rounds in the same run.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type AutocannonResult } from 'autocannon';
import type { BenchContext } from './lib/context.js';
import { httpGet, type ServerProcess, spawnBareServer, spawnDaemon, waitForStatus } from './lib/server-process.js';
import { count, ms, ratio, verdict } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

const CONNECTIONS = 10;
const TARGET_RATIO = 0.8;
const WARMUP_S = 1;
/** Hop-by-hop and per-answer headers node:http writes itself. */
const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

interface Case {
  label: string;
  path: string;
  headers: Record<string, string>;
  status: number;
  bytes: number;
  /** Cached answers carry the ≥ 0.8 target; a file streamed from disk per request does not. */
  target: boolean;
}

interface Plan {
  duration: number;
  rounds: number;
}

export async function runHttpBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.sizes ?? (ctx.quick ? [100] : [100, 1_000]);
  const plan: Plan = { duration: 2, rounds: ctx.quick ? 1 : 2 };
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const n of sizes) {
    const fixture = await ctx.fixtures.get(n);
    const reference = fixture.references[0];
    if (reference === undefined) throw new Error(`fixture N=${n} has no reference file`);
    const tmp = await mkdtemp(join(tmpdir(), 'skillsd-bench-http-'));
    let daemon: ServerProcess | undefined;
    let bare: ServerProcess | undefined;
    try {
      ctx.log(`http: N=${n}, starting servers`);
      daemon = await spawnDaemon(fixture.home, fixture.workspace);
      await waitForStatus(daemon, '/skills', 200, 120_000);
      const filePath = `/skill/${encodeURIComponent(reference.name)}/${reference.file.split('/').map(encodeURIComponent).join('/')}`;
      const list = await httpGet(`${daemon.url}/skills`);
      const file = await httpGet(`${daemon.url}${filePath}`);
      const etag = list.headers.etag;
      if (list.status !== 200 || etag === undefined) throw new Error(`GET /skills: ${list.status}, ETag ${etag}`);
      if (file.status !== 200) throw new Error(`GET ${filePath}: ${file.status} ${file.body.toString().slice(0, 300)}`);
      bare = await spawnBareServer(
        await writeRoutes(tmp, [
          { path: '/skills', answer: list },
          { path: filePath, answer: file },
        ]),
      );
      await waitForStatus(bare, '/skills', 200, 30_000);

      const cases: Case[] = [
        {
          label: 'GET /skills → 200',
          path: '/skills',
          headers: {},
          status: 200,
          bytes: list.body.length,
          target: true,
        },
        {
          label: 'GET /skills If-None-Match → 304',
          path: '/skills',
          headers: { 'if-none-match': etag },
          status: 304,
          bytes: 0,
          target: true,
        },
        {
          label: 'GET /skill/{name}/{file} → 200',
          path: filePath,
          headers: {},
          status: 200,
          bytes: file.body.length,
          target: false,
        },
      ];
      for (const c of cases) {
        notes.push(...(await checkAnswers(daemon, bare, c, list.body.length, n)));
        ctx.log(`http: N=${n}, ${c.label}`);
        rows.push(await measure(n, c, daemon, bare, plan, notes));
      }
      if (!ctx.quick) {
        // The same cached answers with the per-request log line switched off: what logging costs.
        await daemon.stop();
        daemon = await spawnDaemon(fixture.home, fixture.workspace, ['--log-level', 'warn']);
        await waitForStatus(daemon, '/skills', 200, 120_000);
        for (const c of cases.filter((x) => x.target)) {
          const quiet = { ...c, label: `${c.label}, \`--log-level warn\`` };
          ctx.log(`http: N=${n}, ${quiet.label}`);
          rows.push(await measure(n, quiet, daemon, bare, plan, notes));
        }
      }
    } finally {
      await daemon?.stop();
      await bare?.stop();
      await rm(tmp, { recursive: true, force: true });
    }
  }
  return [
    {
      title: 'HTTP throughput vs bare node:http',
      intro:
        `autocannon, ${CONNECTIONS} connections, ${plan.rounds} round(s) of ${plan.duration} s per server (daemon, ` +
        `bare, daemon, bare…) after a ${WARMUP_S} s warm-up of each; req/s = completed requests / time over all ` +
        'rounds; latency = mean / worst p99 (autocannon records whole milliseconds). Load generator in the ' +
        "benchmark process, servers as child processes on 127.0.0.1. The bare server answers the daemon's own body " +
        'and headers (minus `date`/`connection`) from memory. The daemon runs with its default `info` log level (one ' +
        'JSON line per request) unless the row says otherwise.',
      headers: [
        'N',
        'request',
        'body bytes',
        'daemon req/s',
        'bare req/s',
        'ratio',
        'daemon mean / p99',
        'bare mean / p99',
        'target',
      ],
      rows,
      notes,
    },
  ];
}

/** The bare server's route file: each answer's body in its own file, its headers minus the per-answer ones. */
async function writeRoutes(
  tmp: string,
  answers: Array<{ path: string; answer: { headers: Record<string, string>; body: Buffer } }>,
): Promise<string> {
  const routes = [];
  for (const [i, { path, answer }] of answers.entries()) {
    const bodyFile = join(tmp, `body-${i}`);
    await writeFile(bodyFile, answer.body);
    routes.push({
      path,
      headers: Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !SKIPPED_HEADERS.has(k))),
      bodyFile,
      etag: answer.headers.etag,
    });
  }
  const routesFile = join(tmp, 'routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  return routesFile;
}

/** Both servers give the expected status; notes a 304 whose Content-Length a client would wait for. */
async function checkAnswers(
  daemon: ServerProcess,
  bare: ServerProcess,
  c: Case,
  fullLength: number,
  n: number,
): Promise<string[]> {
  const notes: string[] = [];
  for (const server of [daemon, bare]) {
    const answer = await httpGet(`${server.url}${c.path}`, c.headers);
    if (answer.status !== c.status) throw new Error(`${server.url}${c.path}: ${answer.status}, expected ${c.status}`);
    // RFC 9110 §8.6: a 304 may carry Content-Length only with the length the 200 would have had; a client that
    // trusts another value waits for body bytes that never come.
    const length = answer.headers['content-length'];
    if (server === daemon && c.status === 304 && length !== undefined && Number(length) !== fullLength) {
      notes.push(
        `N = ${n}: the daemon's 304 carries \`Content-Length: ${length}\` (its 200 has ${fullLength}); RFC 9110 §8.6 ` +
          "allows only the 200's value, and autocannon waits for those bytes.",
      );
    }
  }
  return notes;
}

/** Short rounds, daemon then bare, repeated: a burst of load from elsewhere on the machine hits both sides. */
async function measure(
  n: number,
  c: Case,
  daemon: ServerProcess,
  bare: ServerProcess,
  plan: Plan,
  notes: string[],
): Promise<string[]> {
  const d: AutocannonResult[] = [];
  const b: AutocannonResult[] = [];
  await load(daemon.url + c.path, c.headers, WARMUP_S);
  await load(bare.url + c.path, c.headers, WARMUP_S);
  for (let round = 0; round < plan.rounds; round++) {
    d.push(await load(daemon.url + c.path, c.headers, plan.duration));
    b.push(await load(bare.url + c.path, c.headers, plan.duration));
  }
  const wrong = [...d, ...b].reduce((sum, result) => sum + unexpected(result, c.status), 0);
  if (wrong > 0) notes.push(`N = ${n}, ${c.label}: ${wrong} answers with another status, errors or timeouts.`);
  const dRate = rate(d);
  const bRate = rate(b);
  return [
    n.toLocaleString('en-US'),
    c.label,
    count(c.bytes),
    count(dRate),
    count(bRate),
    ratio(dRate, bRate),
    latency(d),
    latency(b),
    c.target ? `≥ ${TARGET_RATIO}: ${verdict(dRate / bRate >= TARGET_RATIO)}` : 'none (read from disk per request)',
  ];
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<AutocannonResult> {
  return await autocannon({ url, connections: CONNECTIONS, duration, headers });
}

/** Completed requests per second over all rounds. */
function rate(results: AutocannonResult[]): number {
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = results.reduce((sum, r) => sum + r.duration, 0);
  return seconds > 0 ? requests / seconds : Number.NaN;
}

/** Mean and worst p99 over the rounds. */
function latency(results: AutocannonResult[]): string {
  const total = results.reduce((sum, r) => sum + r.latency.totalCount, 0);
  const mean = results.reduce((sum, r) => sum + r.latency.mean * r.latency.totalCount, 0) / total;
  return `${ms(mean, 2)} / ${ms(Math.max(...results.map((r) => r.latency.p99)), 0)}`;
}

function unexpected(result: AutocannonResult, status: number): number {
  let other = result.errors + result.timeouts;
  for (const [code, stats] of Object.entries(result.statusCodeStats)) if (Number(code) !== status) other += stats.count;
  return other;
}
