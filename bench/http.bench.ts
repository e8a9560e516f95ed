// HTTP throughput: autocannon (in this process, 10 connections) against the daemon and against a bare node:http
// server that answers the very bytes and headers the daemon answered, from memory. Both servers are child processes
// on loopback, measured one after the other in the same run.

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

export async function runHttpBench(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = ctx.quick ? [100] : [100, 1_000];
  const duration = ctx.quick ? 2 : 5;
  const warmup = 1;
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

      const routes = [
        { path: '/skills', answer: list },
        { path: filePath, answer: file },
      ].map(({ path, answer }, i) => ({
        path,
        headers: Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !SKIPPED_HEADERS.has(k))),
        bodyFile: join(tmp, `body-${i}`),
        etag: answer.headers.etag,
        body: answer.body,
      }));
      for (const route of routes) await writeFile(route.bodyFile, route.body);
      const routesFile = join(tmp, 'routes.json');
      await writeFile(routesFile, JSON.stringify(routes.map(({ body: _body, ...rest }) => rest)));
      bare = await spawnBareServer(routesFile);
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
      const servers: ServerProcess[] = [daemon, bare];
      for (const c of cases) {
        for (const server of servers) {
          const check = await httpGet(`${server.url}${c.path}`, c.headers);
          if (check.status !== c.status)
            throw new Error(`${server.url}${c.path}: ${check.status}, expected ${c.status}`);
          // RFC 9110 §8.6: a 304 may carry Content-Length only with the length the 200 would have had. A client
          // that trusts another value waits for body bytes that never come.
          const length = check.headers['content-length'];
          if (
            server === servers[0] &&
            c.status === 304 &&
            length !== undefined &&
            Number(length) !== list.body.length
          ) {
            notes.push(
              `N = ${n}: the daemon's 304 carries \`Content-Length: ${length}\` (its 200 has ${list.body.length}); ` +
                "RFC 9110 §8.6 allows only the 200's value, and autocannon waits for those bytes (0 req/s).",
            );
          }
        }
        ctx.log(`http: N=${n}, ${c.label}`);
        await load(daemon.url + c.path, c.headers, warmup);
        const d = await load(daemon.url + c.path, c.headers, duration);
        await load(bare.url + c.path, c.headers, warmup);
        const b = await load(bare.url + c.path, c.headers, duration);
        const wrong = unexpected(d, c.status) + unexpected(b, c.status);
        if (wrong > 0) notes.push(`N = ${n}, ${c.label}: ${wrong} answers with another status or errors.`);
        const r = d.requests.average / b.requests.average;
        rows.push([
          n.toLocaleString('en-US'),
          c.label,
          count(c.bytes),
          count(d.requests.average),
          count(b.requests.average),
          ratio(d.requests.average, b.requests.average),
          `${ms(d.latency.p50, 2)} / ${ms(d.latency.p99, 2)}`,
          `${ms(b.latency.p50, 2)} / ${ms(b.latency.p99, 2)}`,
          c.target ? `≥ ${TARGET_RATIO}: ${verdict(r >= TARGET_RATIO)}` : 'none (read from disk per request)',
        ]);
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
        `autocannon, ${CONNECTIONS} connections, ${duration} s per measurement after a ${warmup} s warm-up, load ` +
        'generator in the benchmark process, servers as child processes on 127.0.0.1. The bare server answers the ' +
        "daemon's own body and headers (minus `date`/`connection`) from memory. The daemon runs with its default " +
        '`info` log level (one JSON line per request).',
      headers: [
        'N',
        'request',
        'body bytes',
        'daemon req/s',
        'bare req/s',
        'ratio',
        'daemon p50 / p99',
        'bare p50 / p99',
        'target',
      ],
      rows,
      notes,
    },
  ];
}

async function load(url: string, headers: Record<string, string>, duration: number): Promise<AutocannonResult> {
  return await autocannon({ url, connections: CONNECTIONS, duration, headers });
}

function unexpected(result: AutocannonResult, status: number): number {
  let other = result.errors + result.timeouts;
  for (const [code, stats] of Object.entries(result.statusCodeStats)) if (Number(code) !== status) other += stats.count;
  return other;
}
