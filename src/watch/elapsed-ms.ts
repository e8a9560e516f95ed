// Durations in the watcher's debug lines: milliseconds since `started` (performance.now()), to two decimals.

import { performance } from 'node:perf_hooks';

export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
