// At most a few walks of skill files at once (docs/api.md "Limits on walks"): each walk is bounded, but a burst of
// requests for distinct skills would otherwise run all their walks side by side. The others wait their turn, and a
// waiter whose client went away leaves the queue without ever starting.

export interface WalkGateStats {
  /** Walks running now. */
  running: number;
  /** Walks waiting for a turn. */
  waiting: number;
  /** The most that ever ran at once. */
  peak: number;
}

export class WalkGate {
  private readonly max: number;
  private running = 0;
  private peak = 0;
  private readonly queue: Array<() => void> = [];

  constructor(max: number) {
    this.max = Math.max(1, max);
  }

  get stats(): WalkGateStats {
    return { running: this.running, waiting: this.queue.length, peak: this.peak };
  }

  /** Runs `work` once a turn is free; rejects with the signal's reason if it aborts first. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.max) {
      this.start();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        this.start();
        resolve();
      };
      const leave = () => {
        const at = this.queue.indexOf(turn);
        if (at !== -1) this.queue.splice(at, 1);
        reject(signal?.reason);
      };
      this.queue.push(turn);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private start(): void {
    this.running++;
    if (this.running > this.peak) this.peak = this.running;
  }

  private release(): void {
    this.running--;
    this.queue.shift()?.();
  }
}
