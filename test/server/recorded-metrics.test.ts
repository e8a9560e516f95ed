// The counters and histograms recorded without prom-client (src/server/recorded-metrics.ts) write the same samples
// prom-client writes for the same observations, and every observation made before the first scrape is in it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { SkillsdMetrics } from '../../src/server/metrics.js';
import { CounterTable, HistogramTable } from '../../src/server/recorded-metrics.js';

/** `name{labels} value` lines, without comments and blank lines, sorted, with the labels in name order. */
function samples(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([^{ ]+)(?:\{(.*)\})? (.+)$/.exec(line);
      assert.ok(match, line);
      const labels = (match[2] ?? '').match(/[a-z_]+="(?:[^"\\]|\\.)*"/g) ?? [];
      return `${match[1]}{${labels.sort().join(',')}} ${Number(match[3])}`;
    })
    .sort();
}

const BUCKETS = [0.001, 0.01, 0.1, 1];
const VALUES = [0, 0.0005, 0.001, 0.0011, 0.01, 0.05, 0.1, 0.75, 1, 3, 1e9];

describe('recorded metrics', () => {
  it('a histogram with labels writes the samples prom-client writes', async () => {
    const registry = new Registry();
    const theirs = new Histogram({
      name: 'h_seconds',
      help: 'h',
      labelNames: ['method', 'route'],
      buckets: BUCKETS,
      registers: [registry],
    });
    const ours = new HistogramTable('h_seconds', 'h', ['method', 'route'], BUCKETS);
    for (const [index, value] of VALUES.entries()) {
      const route = index % 3 === 0 ? '/skills' : '/skill/:name/*';
      theirs.observe({ method: 'GET', route }, value);
      ours.observe(['GET', route], value);
    }
    assert.deepEqual(samples(ours.exposition()), samples(await registry.metrics()));
    assert.equal(samples(ours.exposition()).length, 2 * (BUCKETS.length + 3));
  });

  it('a histogram and a counter without labels are written as zero before anything happens', async () => {
    const registry = new Registry();
    new Histogram({ name: 'h_seconds', help: 'h', buckets: BUCKETS, registers: [registry] });
    new Counter({ name: 'c_total', help: 'c', registers: [registry] });
    const ours = [new HistogramTable('h_seconds', 'h', [], BUCKETS), new CounterTable('c_total', 'c', [])];
    assert.deepEqual(samples(ours.map((table) => table.exposition()).join('\n')), samples(await registry.metrics()));
    assert.deepEqual(samples(ours[1]!.exposition()), ['c_total{} 0']);
  });

  it('counter label values are escaped as prom-client escapes them', async () => {
    const registry = new Registry();
    const theirs = new Counter({
      name: 'c_total',
      help: 'c\\ "x"\nnext',
      labelNames: ['route'],
      registers: [registry],
    });
    const ours = new CounterTable('c_total', 'c\\ "x"\nnext', ['route']);
    for (const route of ['/a"b', '/back\\slash', '/new\nline', '/a"b']) {
      theirs.inc({ route });
      ours.inc([route]);
    }
    assert.deepEqual(samples(ours.exposition()), samples(await registry.metrics()));
    // The whole text too: HELP escaped, one line per label set, in the order first counted.
    assert.equal(ours.exposition(), await registry.metrics());
  });

  it('what is counted before the first scrape is in it, and counting goes on after it', async () => {
    const metrics = new SkillsdMetrics();
    metrics.attach({
      eventStreams: () => 2,
      mcpSessions: () => 1,
      index: () => ({ skills: 7, watchMode: 'polling', workspaces: 1, ready: true }),
    });
    // Binary fractions, so that the sum is exact: 2^-11 s and 2^-9 s.
    metrics.observeRequest('GET', '/skills', 200, 0.00048828125);
    metrics.observeRequest('GET', '/skills', 304, 0.001953125);
    metrics.observeReload(0.3, true);
    metrics.countShed();
    metrics.countDoctorReport();
    const first = await metrics.scrape();
    assert.equal(first.contentType, 'text/plain; version=0.0.4; charset=utf-8');
    const firstSamples = samples(first.body);
    for (const line of [
      'skillsd_http_requests_total{method="GET",route="/skills",status="200"} 1',
      'skillsd_http_requests_total{method="GET",route="/skills",status="304"} 1',
      'skillsd_http_request_duration_seconds_bucket{le="0.0005",method="GET",route="/skills"} 1',
      'skillsd_http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/skills"} 2',
      'skillsd_http_request_duration_seconds_count{method="GET",route="/skills"} 2',
      'skillsd_http_request_duration_seconds_sum{method="GET",route="/skills"} 0.00244140625',
      'skillsd_index_reloads_total{changed="true"} 1',
      'skillsd_index_reload_duration_seconds_bucket{le="0.25"} 0',
      'skillsd_index_reload_duration_seconds_bucket{le="0.5"} 1',
      'skillsd_index_reload_duration_seconds_count{} 1',
      'skillsd_shed_requests_total{} 1',
      'skillsd_doctor_reports_total{} 1',
      'skillsd_sse_streams{} 2',
      'skillsd_mcp_sessions{} 1',
      'skillsd_index_skills{} 7',
      'skillsd_watch_mode{mode="polling"} 1',
      'skillsd_watch_mode{mode="events"} 0',
    ]) {
      assert.ok(firstSamples.includes(line), `missing ${line}`);
    }
    // Each family is written once, its HELP and TYPE before its samples.
    const types = first.body.split('\n').filter((line) => line.startsWith('# TYPE '));
    assert.equal(new Set(types).size, types.length);
    assert.ok(types.includes('# TYPE process_resident_memory_bytes gauge'));

    metrics.observeRequest('GET', '/skills', 200, 0.0004);
    metrics.countShed();
    const second = samples((await metrics.scrape()).body);
    assert.ok(second.includes('skillsd_http_requests_total{method="GET",route="/skills",status="200"} 2'));
    assert.ok(second.includes('skillsd_shed_requests_total{} 2'));
  });
});
