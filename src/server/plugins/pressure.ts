// Load shedding (@fastify/under-pressure): when the event loop lags or memory runs high, requests are refused with
// 503 `Overloaded` and `Retry-After` instead of queueing until the daemon falls over. `/health` is exempt (a liveness
// probe must still get an answer) and reports `overloaded` instead. Thresholds are documented in SECURITY.md.

import { getHeapStatistics } from 'node:v8';
import underPressureModule from '@fastify/under-pressure';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from '../errors.js';

// The package is CommonJS: Node's default import is `module.exports`, the fastify-plugin-wrapped function.
const underPressure = underPressureModule as unknown as FastifyPluginAsync<Record<string, unknown>>;

export interface PressureOptions {
  /** Mean event-loop delay over a sample above which requests are refused (ms). */
  maxEventLoopDelayMs: number;
  /** V8 heap in use above which requests are refused (bytes). */
  maxHeapUsedBytes: number;
  /** Resident set size above which requests are refused (bytes). */
  maxRssBytes: number;
  /** How often the figures are sampled (ms). */
  sampleIntervalMs: number;
  /** Seconds sent in `Retry-After`. */
  retryAfterS: number;
  /** Told of every refused request (the daemon's metrics count them). */
  onShed?: () => void;
}

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

// Probes and the metrics scrape must answer under load: liveness stays 200 (an overloaded pod is drained by its
// readiness, not restarted), readiness says why it is not ready, and the scrape shows the load.
const EXEMPT = new Set(['/health', '/health/live', '/health/ready', '/metrics']);

declare module 'fastify' {
  interface FastifyInstance {
    /** True while requests are being refused for load (decorated by @fastify/under-pressure). */
    isUnderPressure(): boolean;
  }
}

const pressure: FastifyPluginAsync<PressureOptions> = async (app, options) => {
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxHeapUsedBytes: options.maxHeapUsedBytes,
    maxRssBytes: options.maxRssBytes,
    sampleInterval: options.sampleIntervalMs,
    pressureHandler: (request: FastifyRequest, reply: FastifyReply, type: string, value: unknown) => {
      if (EXEMPT.has(request.routeOptions.url ?? '')) return undefined;
      request.log.warn({ type, value }, 'overloaded: refusing a request');
      options.onShed?.();
      reply.code(503).header('retry-after', String(options.retryAfterS)).type('application/json; charset=utf-8');
      return errorBody(503, 'Overloaded', `The daemon is overloaded (${type}); retry in ${options.retryAfterS} s`);
    },
  });
};

export const pressurePlugin = fp(pressure, { name: 'skillsd-pressure', fastify: '5.x' });
