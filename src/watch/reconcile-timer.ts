// When the skill watcher's reconciliation scan (its safety net for lost events, skill-watcher.ts) runs: every
// interval, but not in the middle of a burst of changes.

import { performance } from 'node:perf_hooks';

/**
 * A reconciliation due while changes are still arriving waits for this much quiet (or the interval, if shorter), at
 * most RECONCILE_MAX_WAITS times in a row: mid-burst it would count changes whose events are queued, not lost, and
 * pay a deep fingerprint of every skill (1.8 s at 5,000 skills on a loaded machine) for nothing.
 */
const RECONCILE_QUIET_MS = 2000;
const RECONCILE_MAX_WAITS = 5;

export class ReconcileTimer {
  private timer: NodeJS.Timeout | null = null;
  /** When the last change was reported (performance.now()), and how often the due reconciliation waited for quiet. */
  private lastActivity = 0;
  private waits = 0;
  private stopped = false;

  /** `onDue` runs the scan, then calls schedule() for the next one. */
  constructor(
    private readonly intervalMs: number,
    private readonly onDue: () => void,
  ) {}

  /** A change was seen now. */
  noteActivity(): void {
    this.lastActivity = performance.now();
  }

  schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const quiet = Math.min(RECONCILE_QUIET_MS, this.intervalMs);
      const quietFor = performance.now() - this.lastActivity;
      if (quietFor < quiet && this.waits < RECONCILE_MAX_WAITS) {
        this.waits++;
        this.schedule(quiet - quietFor);
        return;
      }
      this.waits = 0;
      this.onDue();
    }, delayMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
