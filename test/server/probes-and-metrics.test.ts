// `GET /health/ready`, `GET /health/live` and `GET /metrics` (docs/deploy.md §Probes, §Metrics): the probes answer
// without a token and say why a daemon is not ready; the metrics are Prometheus text, parsed here line by line, behind
// the token unless `server.metrics` is `public`.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverSkillChange } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { ServerSettings } from '../../src/discovery/types.js';
import type { DiscoverFn } from '../../src/live-index/workspace-index-options.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

const TOKEN = 'probe-token-0123456789';
/** Load shedding on event-loop lag kept out of the tests that are not about it (a loaded machine trips it). */
const NO_LAG_SHEDDING = { maxEventLoopDelayMs: 60_000 };
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'work/.musepi/skills/docx/SKILL.md': SK({ name: 'docx', description: 'Word' }),
};

function security(server: Partial<ServerSettings> = {}) {
  const settings = { ...defaultSettings().server, ...server };
  return { token: TOKEN, bindHost: '127.0.0.1', getServerSettings: () => settings };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The text exposition format 0.0.4, strictly: `# HELP name text`, `# TYPE name type` before a family's samples,
 * `name{label="value",…} number`. Throws on any other line, so a malformed scrape fails the test.
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  // Values as Prometheus reads them (Go's ParseFloat): NaN and Inf in any case; prom-client writes an empty lag as `Nan`.
  const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[nN][aA][nN]|[+-][iI][nN][fF])$/;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const typeLine = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (typeLine !== null) {
      types.set(typeLine[1]!, typeLine[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = sampleLine.exec(line);
    assert.ok(match !== null, `not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(label)) labels[key!] = value!;
    const family = match[1]!.replace(/_(bucket|sum|count)$/, '');
    assert.ok(types.has(match[1]!) || types.has(family), `sample before its # TYPE: ${line}`);
    const raw = match[3]!.toLowerCase();
    const value = raw === 'nan' ? Number.NaN : raw === '+inf' ? Infinity : raw === '-inf' ? -Infinity : Number(raw);
    samples.push({ name: match[1]!, labels, value });
  }
  return { types, samples };
}

function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

async function scrape(base: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('GET /health/ready and /health/live', () => {
  it('answer without a token once the first index is built and the watcher runs', async (t) => {
    const s = await startServer(t, {
      tree: TREE,
      watch: true,
      app: { security: security(), pressure: NO_LAG_SHEDDING },
    });
    await (await s.registry.get()).ready;
    const ready = await getJson(`${s.base}/health/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', generation: 1, skills: 2, watchMode: 'events' });
    const live = await getJson(`${s.base}/health/live`);
    assert.equal(live.status, 200);
    assert.equal(live.body.status, 'live');
    assert.equal(Number.isInteger(live.body.uptimeS), true);
    // Everything else still needs the token.
    assert.equal((await getJson(`${s.base}/skills`)).status, 401);
  });

  it('ready is 503 NotReady while the first index is being built; live is 200 all along', async (t) => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: DiscoverFn = async (ctx, options) => {
      await gate;
      return discoverSkillChange(ctx, options);
    };
    const s = await startServer(t, {
      tree: TREE,
      ready: false,
      registry: { discover: slow },
      app: { pressure: NO_LAG_SHEDDING },
    });
    const waiting = await getJson(`${s.base}/health/ready`);
    assert.equal(waiting.status, 503);
    assert.equal(waiting.body.code, 'NotReady');
    assert.equal(waiting.body.message, 'Not ready: the first index of the default workspace is still being built');
    assert.equal(waiting.headers.get('retry-after'), '1');
    assert.equal((await getJson(`${s.base}/health/live`)).status, 200);
    release();
    await (await s.registry.get()).ready;
    assert.deepEqual((await getJson(`${s.base}/health/ready`)).body, {
      status: 'ready',
      generation: 1,
      skills: 2,
      watchMode: 'off',
    });
  });

  it('ready is 503 while the daemon sheds load; live stays 200', async (t) => {
    // A heap bound of one byte: every sample is over it, so the state is stable for the assertions.
    const s = await startServer(t, {
      tree: TREE,
      app: { pressure: { ...NO_LAG_SHEDDING, maxHeapUsedBytes: 1, sampleIntervalMs: 20 } },
    });
    await (await s.registry.get()).ready;
    const deadline = Date.now() + 20_000;
    let ready = await getJson(`${s.base}/health/ready`);
    while (ready.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ready = await getJson(`${s.base}/health/ready`);
    }
    assert.equal(ready.status, 503);
    assert.equal(ready.body.message, 'Not ready: the daemon is shedding load');
    assert.equal((await getJson(`${s.base}/health/live`)).status, 200);
    // The refused request is counted; the scrape itself is not refused.
    assert.equal((await getJson(`${s.base}/skills?q=x`)).status, 503);
    const { samples } = parseExposition((await scrape(s.base)).text);
    assert.ok((sampleValue(samples, 'skillsd_shed_requests_total') ?? 0) >= 1);
  });
});

describe('GET /metrics', () => {
  it('is Prometheus text with requests, latency, index size, reloads, streams, MCP sessions and watcher mode', async (t) => {
    const s = await startServer(t, { tree: TREE, watch: true, app: { pressure: NO_LAG_SHEDDING } });
    const workspace = await s.registry.get();
    await workspace.ready;
    // Traffic of known shape: two polls through the fast path (200, then 304), a 404, and one open SSE stream.
    const first = await fetch(`${s.base}/skills`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    assert.equal((await fetch(`${s.base}/skills`, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await getJson(`${s.base}/skills/nope`)).status, 404);
    const stream = await SseClient.connect(`${s.base}/events`);
    t.after(() => stream.close());
    await stream.next();
    // A real edit: one reload that changes the answer.
    const reloadsBefore = parseExposition((await scrape(s.base)).text).samples;
    await writeTree(s.root, { 'work/.musepi/skills/xlsx/SKILL.md': SK({ description: 'Sheets' }) });
    await stream.next((event) => event.event === 'index');

    const answer = await scrape(s.base);
    assert.equal(answer.status, 200);
    assert.equal(answer.type, 'text/plain; version=0.0.4; charset=utf-8');
    const { types, samples } = parseExposition(answer.text);
    assert.equal(types.get('skillsd_http_requests_total'), 'counter');
    assert.equal(types.get('skillsd_http_request_duration_seconds'), 'histogram');
    assert.equal(types.get('skillsd_index_reload_duration_seconds'), 'histogram');
    assert.equal(sampleValue(samples, 'skillsd_http_requests_total', { route: '/skills', status: '200' }), 1);
    assert.equal(sampleValue(samples, 'skillsd_http_requests_total', { route: '/skills', status: '304' }), 1);
    assert.equal(sampleValue(samples, 'skillsd_http_requests_total', { route: '/skills/:name', status: '404' }), 1);
    assert.equal(sampleValue(samples, 'skillsd_http_request_duration_seconds_count', { route: '/skills' }), 2);
    assert.equal(
      sampleValue(samples, 'skillsd_http_request_duration_seconds_bucket', { route: '/skills', le: '+Inf' }),
      2,
    );
    assert.equal(sampleValue(samples, 'skillsd_index_skills'), 3);
    assert.equal(sampleValue(samples, 'skillsd_index_ready'), 1);
    assert.equal(sampleValue(samples, 'skillsd_sse_streams'), 1);
    // No MCP session is open here; test/mcp/http-sessions.test.ts counts real ones.
    assert.equal(sampleValue(samples, 'skillsd_mcp_sessions'), 0);
    assert.equal(sampleValue(samples, 'skillsd_watch_mode', { mode: 'events' }), 1);
    assert.equal(sampleValue(samples, 'skillsd_watch_mode', { mode: 'polling' }), 0);
    const changedBefore = sampleValue(reloadsBefore, 'skillsd_index_reloads_total', { changed: 'true' }) ?? 0;
    assert.equal(sampleValue(samples, 'skillsd_index_reloads_total', { changed: 'true' }), changedBefore + 1);
    assert.ok((sampleValue(samples, 'skillsd_index_reload_duration_seconds_count') ?? 0) >= changedBefore + 1);
    assert.ok((sampleValue(samples, 'process_resident_memory_bytes') ?? 0) > 0);
  });

  it('needs the token unless server.metrics is public', async (t) => {
    const guarded = await startServer(t, { tree: TREE, app: { security: security(), pressure: NO_LAG_SHEDDING } });
    const refused = await scrape(guarded.base);
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.text).code, 'Unauthorized');
    assert.equal((await scrape(guarded.base, { authorization: `Bearer ${TOKEN}` })).status, 200);
    const open = await startServer(t, {
      tree: TREE,
      app: { security: security({ metrics: 'public' }), pressure: NO_LAG_SHEDDING },
    });
    await (await open.registry.get()).ready;
    const scraped = await scrape(open.base);
    assert.equal(scraped.status, 200);
    assert.equal(sampleValue(parseExposition(scraped.text).samples, 'skillsd_index_skills'), 2);
    // Public metrics open nothing else.
    assert.equal((await getJson(`${open.base}/skills`)).status, 401);
  });
});
