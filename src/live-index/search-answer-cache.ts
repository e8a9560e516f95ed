// The ranked answers of one search index (docs/api.md §GET /search), by canonical query: remembered while the index
// stays as it is (at most MAX_ENTRIES answers and MAX_BYTES of them, the least recently used dropped first), and
// shared while they are computed: identical requests at once cost one computation, which stops when every request
// waiting for it has gone away (its client closed the connection or cancelled).

/** Answers remembered per search index. */
export const MAX_ENTRIES = 256;
/** What they may hold, as counted by `approximateBytes`. */
export const MAX_BYTES = 4 * 1024 * 1024;

/** What the cache did for the requests it was asked for: tests and the benchmark read it. */
export interface SearchAnswerStats {
  /** Answers computed (started). */
  computed: number;
  /** Requests answered from a remembered answer. */
  remembered: number;
  /** Requests that joined a computation another request had started. */
  shared: number;
  /** Computations stopped because every request waiting for them went away. */
  abandoned: number;
}

export interface CachedValue {
  /** What it holds, roughly (UTF-16 strings at two bytes a character, plus the objects around them). */
  bytes: number;
}

interface Running<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiters: number;
  done: boolean;
}

export class SearchAnswerCache<T extends CachedValue> {
  readonly stats: SearchAnswerStats = { computed: 0, remembered: 0, shared: 0, abandoned: 0 };
  private readonly remembered = new Map<string, T>();
  private rememberedBytes = 0;
  private readonly running = new Map<string, Running<T>>();
  /** Every computation not yet settled, those left by all their requests included. */
  private readonly unsettled = new Set<Promise<unknown>>();
  /** Moves with every `clear`: a computation started before it is not remembered after it. */
  private version = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** Answers remembered now. */
  get size(): number {
    return this.remembered.size;
  }

  get bytes(): number {
    return this.rememberedBytes;
  }

  /** Resolves once no computation is under way (an update of the index waits for this: search-index.ts). */
  async idle(): Promise<void> {
    while (this.unsettled.size > 0) await Promise.allSettled([...this.unsettled]);
  }

  /**
   * The answer for `key`: remembered, joined, or computed now by `compute` (which stops when its signal aborts).
   * Synchronous up to the start of a computation, so a caller that checked the index is quiet can rely on it.
   */
  get(key: string, compute: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const known = this.remembered.get(key);
    if (known !== undefined) {
      // Most recently used last.
      this.remembered.delete(key);
      this.remembered.set(key, known);
      this.stats.remembered++;
      return Promise.resolve(known);
    }
    let running = this.running.get(key);
    if (running === undefined) {
      running = this.start(key, compute);
    } else {
      this.stats.shared++;
    }
    return this.wait(key, running, signal);
  }

  /** Forgets every answer (the index changed); computations under way finish for the requests waiting on them. */
  clear(): void {
    this.version++;
    this.remembered.clear();
    this.rememberedBytes = 0;
  }

  private start(key: string, compute: (signal: AbortSignal) => Promise<T>): Running<T> {
    const controller = new AbortController();
    this.stats.computed++;
    const version = this.version;
    const running: Running<T> = { controller, waiters: 0, done: false, promise: compute(controller.signal) };
    this.running.set(key, running);
    this.unsettled.add(running.promise);
    running.promise.then(
      (value) => {
        this.settle(key, running);
        if (version === this.version) this.remember(key, value);
      },
      () => {
        this.settle(key, running);
        if (controller.signal.aborted) this.stats.abandoned++;
      },
    );
    return running;
  }

  private settle(key: string, running: Running<T>): void {
    running.done = true;
    this.unsettled.delete(running.promise);
    if (this.running.get(key) === running) this.running.delete(key);
  }

  private remember(key: string, value: T): void {
    if (value.bytes > this.maxBytes) return;
    this.remembered.set(key, value);
    this.rememberedBytes += value.bytes;
    for (const [oldest, entry] of this.remembered) {
      if (this.remembered.size <= this.maxEntries && this.rememberedBytes <= this.maxBytes) break;
      this.remembered.delete(oldest);
      this.rememberedBytes -= entry.bytes;
    }
  }

  /** Waits for `running` on behalf of one request; the last request to leave stops it. */
  private wait(key: string, running: Running<T>, signal: AbortSignal | undefined): Promise<T> {
    running.waiters++;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        signal?.removeEventListener('abort', onAbort);
        running.waiters--;
      };
      const onAbort = () => {
        leave();
        if (running.waiters === 0 && !running.done) {
          if (this.running.get(key) === running) this.running.delete(key);
          running.controller.abort(signal?.reason);
        }
        reject(signal?.reason);
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      running.promise.then(
        (value) => {
          if (signal?.aborted) return;
          leave();
          resolve(value);
        },
        (error: unknown) => {
          if (signal?.aborted) return;
          leave();
          reject(error);
        },
      );
    });
  }
}
