// What every benchmark receives from the runner.

import type { FixtureStore } from './fixture-store.js';

export interface BenchContext {
  /** `--quick`: small N, few iterations (the whole suite in under two minutes). */
  quick: boolean;
  /** `--large` or SKILLSD_BENCH_LARGE=1: the bigger sizes (N = 50,000) as well. */
  large: boolean;
  /** `--sizes=100,10000`: the N of every selected benchmark instead of its own list (one N, a focused re-run). */
  sizes?: readonly number[];
  fixtures: FixtureStore;
  /** Progress lines (stderr), so stdout keeps only the tables. */
  log: (message: string) => void;
}
