// A job that runs at most once at a time, with at most one run waiting: every call made while a run is under way is
// answered by the one next run, which starts when the current one ends and sees whatever those calls asked for. A
// burst of calls costs two runs, and none of them is answered by a run that started before it was made.
// Used for the index's rebuilds (workspace-index.ts), the search index's updates (search-index.ts) and the doctor's
// live looks (diagnostic-tracker.ts).

export class RunOnceQueueOne {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly job: () => Promise<void>) {}

  /** Settles with the first run that starts after this call (a run's failure is its callers', not the next's). */
  run(): Promise<void> {
    if (this.running === null) {
      this.running = this.job().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.run();
      });
    return this.queued;
  }

  /** The run under way, if any. */
  get current(): Promise<void> | null {
    return this.running;
  }

  /** Resolves once no run is under way or waiting (whether they succeed or fail). */
  async idle(): Promise<void> {
    for (;;) {
      const next = this.queued ?? this.running;
      if (next === null) return;
      await next.catch(() => undefined);
    }
  }
}
