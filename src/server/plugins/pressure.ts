// Load shedding: when the event loop lags, memory runs high or descriptors ran out, requests are refused with 503
// `Overloaded` and `Retry-After` instead of queueing until the daemon falls over. `/health` is exempt (a liveness probe
// must still get an answer) and reports the state instead. Thresholds are documented in SECURITY.md.
//
// This replaces @fastify/under-pressure, whose sampler calls `process.memoryUsage()`: that opens a file under /proc,
// throws EMFILE once descriptors are exhausted, and, thrown from a timer, ended the process. The figures here come
// from sources that open nothing per sample (V8's heap statistics; the RSS from a /proc file opened once), and a
// sample that fails anyway counts as a descriptor shortage rather than throwing. Each sample stands alone, so the
// state clears as soon as its cause goes.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { collectGarbage } from '../../live-index/collect-garbage.js';
import { errorBody, isDescriptorShortage } from '../errors.js';
import { residentMemoryReader } from '../resident-memory.js';

export interface PressureOptions {
  /** Mean event-loop delay over a sample above which requests are refused (ms); 0 turns the check off. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use above which requests are refused (bytes); 0 turns the check off. */
  maxHeapUsedBytes: number;
  /** Resident set size above which requests are refused (bytes); 0 turns the check off. */
  maxRssBytes: number;
  /** How often the figures are sampled (ms). */
  sampleIntervalMs: number;
  /** Seconds sent in `Retry-After`. */
  retryAfterS: number;
  /** Told of every refused request (the daemon's metrics count them). */
  onShed?: () => void;
  /** Collects garbage before the RSS is judged over its bound (default: a full collection, collect-garbage.ts). */
  collect?: () => void;
  /** The least time between two collections that each brought the RSS under its bound (default COLLECT_GAP_MS). */
  collectGapMs?: number;
  /** The least time after a collection that left the RSS over its bound (default COLLECT_EVERY_MS). */
  collectEveryMs?: number;
}

export type PressureType = 'eventLoopDelay' | 'heapUsedBytes' | 'rssBytes' | 'descriptors';

/**
 * A lagging loop for a full second means every client already waits that long; the heap bound leaves room below
 * V8's own limit (crossing it aborts the process); 1.5 GiB of RSS is far beyond any skill tree's index.
 */
export function defaultPressureOptions(): PressureOptions {
  return {
    maxEventLoopDelayMs: 1000,
    maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    maxRssBytes: 1.5 * 1024 ** 3,
    sampleIntervalMs: 1000,
    retryAfterS: 5,
  };
}

/**
 * A collection that left the RSS over its bound is not asked for again for this long: the RSS is overload, judged so
 * by every sample until then.
 */
export const COLLECT_EVERY_MS = 60_000;
/** How long after a collection the RSS is not judged: V8 gives the freed memory back as it sweeps, after it returns. */
export const COLLECT_SETTLE_MS = 500;
/**
 * The least time between two collections when the last one brought the RSS under its bound: garbage that crosses it
 * again sooner comes faster than a collection should be paid for, and is refused until then.
 */
export const COLLECT_GAP_MS = 5_000;

// Probes and the metrics scrape must answer under load: liveness stays 200 (an overloaded pod is drained by its
// readiness, not restarted), readiness says why it is not ready, and the scrape shows the load.
const EXEMPT = new Set(['/health', '/health/live', '/health/ready', '/metrics']);
/** The histogram's own resolution, subtracted from its mean as @fastify/under-pressure did. */
const RESOLUTION_MS = 10;

declare module 'fastify' {
  interface FastifyInstance {
    /** True while requests are being refused for load. */
    isUnderPressure(): boolean;
    /** What the last sample found over its bound, or undefined. */
    pressureType(): PressureType | undefined;
    /**
     * Records that an operation failed for want of a descriptor (EMFILE/ENFILE): requests are refused until
     * `Retry-After` seconds pass without another such failure.
     */
    reportDescriptorShortage(): void;
  }
}

const pressure: FastifyPluginAsync<PressureOptions> = async (app, options) => {
  const residentBytes = residentMemoryReader();
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let current: PressureType | undefined;
  let shortageAt = Number.NEGATIVE_INFINITY;
  // Nothing measures free descriptors without using one: a shortage holds for as long as clients were told to wait.
  const shortageHoldMs = Math.max(options.sampleIntervalMs, options.retryAfterS * 1000);
  let sampleFailed = false;
  const collect = options.collect ?? collectGarbage;
  const collectGapMs = options.collectGapMs ?? COLLECT_GAP_MS;
  const collectEveryMs = options.collectEveryMs ?? COLLECT_EVERY_MS;
  let collectedAt = Number.NEGATIVE_INFINITY;
  /** Whether the last collection brought the RSS under its bound; undefined until a sample after it judged that. */
  let helped: boolean | undefined = true;
  /**
   * The RSS over its bound is judged once garbage is collected: a sample over it asks V8 for a collection instead, and
   * the samples from COLLECT_SETTLE_MS later judge what remains. Another collection comes COLLECT_GAP_MS after one
   * that helped, COLLECT_EVERY_MS after one that did not; meanwhile an RSS over the bound is overload.
   */
  const overRss = (rss: number): boolean => {
    const over = options.maxRssBytes > 0 && rss > options.maxRssBytes;
    const since = performance.now() - collectedAt;
    if (since < COLLECT_SETTLE_MS) return false;
    helped ??= !over;
    if (!over) return false;
    if (since < (helped ? collectGapMs : collectEveryMs)) return true;
    const started = performance.now();
    collectedAt = started;
    helped = undefined;
    collect();
    app.log.info(
      {
        ms: Math.round(performance.now() - started),
        rssBytes: rss,
        afterBytes: residentBytes(),
        maxRssBytes: options.maxRssBytes,
      },
      'resident set over its bound: garbage collected before it is judged',
    );
    return false;
  };

  const sample = () => {
    try {
      // No sample in the interval (a loop blocked throughout) is no information: the next interval has them.
      const mean = histogram.mean;
      const delayMs = Number.isNaN(mean) ? 0 : Math.max(0, mean / 1e6 - RESOLUTION_MS);
      histogram.reset();
      const heapUsed = getHeapStatistics().used_heap_size;
      const rss = residentBytes();
      if (options.maxEventLoopDelayMs > 0 && delayMs > options.maxEventLoopDelayMs) current = 'eventLoopDelay';
      else if (options.maxHeapUsedBytes > 0 && heapUsed > options.maxHeapUsedBytes) current = 'heapUsedBytes';
      else if (overRss(rss)) current = 'rssBytes';
      else if (performance.now() - shortageAt < shortageHoldMs) current = 'descriptors';
      else current = undefined;
      sampleFailed = false;
    } catch (error) {
      // Nothing above should throw. If something does for want of a descriptor, that is the overload; anything else
      // keeps the last state. Either way the daemon keeps serving, and says so once.
      if (isDescriptorShortage(error)) {
        shortageAt = performance.now();
        current = 'descriptors';
      }
      if (!sampleFailed) app.log.error({ err: error }, 'load sampling failed');
      sampleFailed = true;
    }
  };
  const timer = setInterval(sample, options.sampleIntervalMs);
  timer.unref();

  app.decorate('isUnderPressure', () => current !== undefined);
  app.decorate('pressureType', () => current);
  app.decorate('reportDescriptorShortage', () => {
    shortageAt = performance.now();
    current ??= 'descriptors';
  });

  app.addHook('onRequest', (request, reply, done) => {
    const type = current;
    if (type === undefined || EXEMPT.has(request.routeOptions.url ?? '')) {
      done();
      return;
    }
    request.log.warn({ type }, 'overloaded: refusing a request');
    options.onShed?.();
    reply
      .code(503)
      .header('retry-after', String(options.retryAfterS))
      .type('application/json; charset=utf-8')
      .send(errorBody(503, 'Overloaded', `The daemon is overloaded (${type}); retry in ${options.retryAfterS} s`));
  });

  // What ran before the port opened (building the app; the first index, for in-process callers) is start-up, not
  // load: counted, it refused the first requests after the listening line.
  app.addHook('onListen', (done) => {
    histogram.reset();
    current = undefined;
    done();
  });

  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    histogram.disable();
    done();
  });
};

export const pressurePlugin = fp(pressure, { name: 'skillsd-pressure', fastify: '5.x' });
