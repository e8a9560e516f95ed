// Long loops of the views give the event loop back between slices (docs/agents.md "Live"): a loop over thousands of
// files whose awaits all resolve at once (texts already read, readings memoised) runs in microtasks only, and would
// keep every other request, `/health` and SIGTERM waiting until it ends. One slice is a few milliseconds of work.

import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work done before a loop lets the event loop run what waits. */
export const SLICE_MS = 8;

/** The slices of one loop (or of several loops run one after the other by the same computation). */
export class TimeSlices {
  private deadline = performance.now() + SLICE_MS;
  /** How often the loop gave the event loop back (tests). */
  yields = 0;

  /** Whether this slice is used up: the loop should `await next()` before its next step. */
  due(): boolean {
    return performance.now() >= this.deadline;
  }

  /** Lets the event loop run what waits (I/O, timers, other requests), then starts a new slice. */
  async next(): Promise<void> {
    await nextTurn();
    this.yields++;
    this.deadline = performance.now() + SLICE_MS;
  }

  /** `next()` when the slice is used up; nothing otherwise. */
  async pass(): Promise<void> {
    if (this.due()) await this.next();
  }
}
