// How long to wait before the next onChange: at once for a single edit, longer and longer during a burst (a checkout,
// a copy, a `git stash pop`), so that thousands of files give the index a handful of rebuilds instead of thousands.

/** Events arriving within this long of an onChange belong to the same burst. */
export const BURST_WINDOW_MS = 50;
/** …or within this long of an onChange that carried at least BURST_SIZE paths (a slow burst still is one). */
export const BURST_MEMORY_MS = 2000;
export const BURST_SIZE = 8;
/** The longest wait, reached after a few flushes of one burst. */
export const MAX_COALESCE_MS = 300;

export class BurstDelay {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastSize = 0;
  private level = 0;

  constructor(private readonly baseMs: number) {}

  /** The delay for a flush scheduled at `now` (milliseconds, monotonic): each flush of a burst waits twice longer. */
  next(now: number): number {
    const since = now - this.lastAt;
    const inBurst = since < BURST_WINDOW_MS || (since < BURST_MEMORY_MS && this.lastSize >= BURST_SIZE);
    this.level = inBurst ? Math.min(this.level + 1, 8) : 0;
    if (this.level === 0) return this.baseMs;
    return Math.min(Math.max(this.baseMs, 2) * 2 ** this.level, MAX_COALESCE_MS);
  }

  /** Records an onChange of `size` paths at `now`. */
  emitted(size: number, now: number): void {
    this.lastAt = now;
    this.lastSize = size;
  }
}
