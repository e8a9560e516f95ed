// How many resource subscriptions MCP sessions may hold (docs/mcp.md "Session bounds"): each costs a directory watch.

/** Most subscriptions one session holds: each costs a directory watch. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 256;
/** Most subscriptions of all sessions together: 64 sessions × 256 could otherwise hold 16,384 inotify watches. */
export const MAX_SUBSCRIPTIONS = 4096;

/** The subscriptions every session of a daemon may hold, shared (docs/mcp.md "Session bounds"). */
export class SubscriptionBudget {
  readonly max: number;
  readonly perSession: number;
  private used = 0;

  constructor(max = MAX_SUBSCRIPTIONS, perSession = MAX_SUBSCRIPTIONS_PER_SESSION) {
    this.max = max;
    this.perSession = perSession;
  }

  get inUse(): number {
    return this.used;
  }

  /** Takes one subscription's place; false when all are taken. */
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used += 1;
    return true;
  }

  give(): void {
    this.used = Math.max(0, this.used - 1);
  }
}
