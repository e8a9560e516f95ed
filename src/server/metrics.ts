// The daemon's Prometheus metrics (`GET /metrics`, docs/deploy.md §Metrics). One set per app, not prom-client's global
// registry, so that several apps in one process (the tests) keep their figures apart.
//
// What happens (requests, reloads, shed requests, doctor reports) is counted where it happens, from the first
// request on, in the plain tables of recorded-metrics.ts: they cost a map entry each and no library. prom-client, with
// its process figures, is loaded on the first scrape only (docs/performance.md "Idle memory": an idle daemon that is
// never scraped does not hold it). Figures that another part already counts (open SSE streams, the index's size, the
// watcher's mode, MCP sessions, walks of skill files) are read when scraped, through prom-client's `collect`, so the
// hot paths pay nothing for them.

import type { Registry } from 'prom-client';
import { skillListingStats } from '../live-index/skill-listings.js';
import { CounterTable, HistogramTable } from './recorded-metrics.js';

/** What the metrics read at scrape time. */
export interface MetricsSources {
  /** Open `/events` streams, all workspaces. */
  eventStreams: () => number;
  /** Live MCP sessions over Streamable HTTP (reserved slots of sessions being opened included). */
  mcpSessions: () => number;
  /** The default workspace: loaded skills (0 before its first index), watcher mode, live workspaces. */
  index: () => { skills: number; watchMode: 'events' | 'polling' | 'off'; workspaces: number; ready: boolean };
}

export const WATCH_MODES = ['events', 'polling', 'off'] as const;

/** Seconds: a poll answered from memory takes well under a millisecond, a file read a few, a cold index seconds. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Seconds: a reload of a few changed files takes milliseconds; a full discovery of 10,000 skills about a second. */
const RELOAD_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class SkillsdMetrics {
  private readonly requests = new CounterTable(
    'skillsd_http_requests_total',
    'HTTP requests answered, by method, route pattern and status',
    ['method', 'route', 'status'],
  );
  private readonly requestSeconds = new HistogramTable(
    'skillsd_http_request_duration_seconds',
    'Time from a request to its answer, by method and route pattern',
    ['method', 'route'],
    REQUEST_BUCKETS,
  );
  private readonly reloads = new CounterTable(
    'skillsd_index_reloads_total',
    'Index rebuilds, by whether the answer changed',
    ['changed'],
  );
  private readonly reloadSeconds = new HistogramTable(
    'skillsd_index_reload_duration_seconds',
    'Time one index rebuild took (discovery and snapshot)',
    [],
    RELOAD_BUCKETS,
  );
  private readonly shed = new CounterTable(
    'skillsd_shed_requests_total',
    'Requests refused with 503 Overloaded while the daemon shed load',
    [],
  );
  private readonly doctorReports = new CounterTable(
    'skillsd_doctor_reports_total',
    'Doctor reports computed (one per workspace generation, shared by the requests that ask for it)',
    [],
  );
  private readonly recorded = [
    this.requests,
    this.requestSeconds,
    this.reloads,
    this.reloadSeconds,
    this.shed,
    this.doctorReports,
  ];
  private sources: MetricsSources | undefined;
  private registry: Promise<Registry> | undefined;

  /** Connects the scrape-time figures (the app does, once its plugins exist). */
  attach(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** One answered request; `route` is the route pattern (`/skill/:name`), never the raw path, to bound the labels. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc([method, route, String(status)]);
    this.requestSeconds.observe([method, route], seconds);
  }

  /** One index rebuild (any workspace). */
  observeReload(seconds: number, changed: boolean): void {
    this.reloads.inc([changed ? 'true' : 'false']);
    this.reloadSeconds.observe([], seconds);
  }

  /** One request refused for load. */
  countShed(): void {
    this.shed.inc([]);
  }

  /** One doctor report computed. */
  countDoctorReport(): void {
    this.doctorReports.inc([]);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    this.registry ??= this.createRegistry();
    const registry = await this.registry;
    const recorded = this.recorded.map((table) => table.exposition()).join('\n');
    return { body: `${recorded}\n${await registry.metrics()}`, contentType: registry.contentType };
  }

  /** The scrape-time figures and prom-client's process figures, created on the first scrape. */
  private async createRegistry(): Promise<Registry> {
    const { Counter, collectDefaultMetrics, Gauge, Registry } = await import('prom-client');
    const registry = new Registry();
    const registers = [registry];
    const metrics = this;
    new Gauge({
      name: 'skillsd_mcp_sessions',
      help: 'Open MCP sessions (Streamable HTTP)',
      registers,
      collect() {
        this.set(metrics.sources?.mcpSessions() ?? 0);
      },
    });
    // The walks of skill files are the process's (skill-listings.ts): read when scraped.
    new Counter({
      name: 'skillsd_skill_walks_total',
      help: "Walks of a skill's files started (archives, MCP listings)",
      registers,
      collect() {
        this.reset();
        this.inc(skillListingStats().walks);
      },
    });
    new Counter({
      name: 'skillsd_skill_walk_entries_total',
      help: 'Directory entries examined by walks of skill files, refused ones included',
      registers,
      collect() {
        this.reset();
        this.inc(skillListingStats().examined);
      },
    });
    new Gauge({
      name: 'skillsd_skill_walks_running',
      help: "Walks of a skill's files running now (at most 4; the others wait)",
      registers,
      collect() {
        this.set(skillListingStats().running);
      },
    });
    new Gauge({
      name: 'skillsd_sse_streams',
      help: 'Open /events streams, all workspaces',
      registers,
      collect() {
        this.set(metrics.sources?.eventStreams() ?? 0);
      },
    });
    new Gauge({
      name: 'skillsd_index_skills',
      help: 'Skills loaded in the default workspace',
      registers,
      collect() {
        this.set(metrics.sources?.index().skills ?? 0);
      },
    });
    new Gauge({
      name: 'skillsd_index_ready',
      help: '1 once the default workspace has its first index',
      registers,
      collect() {
        this.set(metrics.sources?.index().ready === true ? 1 : 0);
      },
    });
    new Gauge({
      name: 'skillsd_workspaces',
      help: 'Workspaces indexed, the default one included',
      registers,
      collect() {
        this.set(metrics.sources?.index().workspaces ?? 0);
      },
    });
    new Gauge({
      name: 'skillsd_watch_mode',
      help: "1 for the default workspace's watcher mode (events, polling, or off), 0 for the others",
      labelNames: ['mode'],
      registers,
      collect() {
        const mode = metrics.sources?.index().watchMode ?? 'off';
        for (const each of WATCH_MODES) this.set({ mode: each }, each === mode ? 1 : 0);
      },
    });
    // Process figures (CPU, memory, descriptors, event-loop lag, heap) under prom-client's standard names. Those
    // that are sampled rather than read (garbage-collection durations, event-loop lag) count from this first scrape.
    collectDefaultMetrics({ register: registry });
    return registry;
  }
}
