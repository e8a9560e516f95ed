// The live sessions of the MCP face over Streamable HTTP and their bounds (docs/mcp.md "Session bounds"):
// - a slot is reserved in the same synchronous step as the cap check, before anything is awaited: the check used to
//   run before the `await`s of opening a session, and 600 concurrent `initialize` on a workspace not yet open made
//   600 sessions past a cap of 64;
// - a full table makes room by ending the least recently used idle session; a session answering a request or holding
//   a GET stream open is never ended for room, and only when every session is such is the new one refused;
// - a session expires when no request of its client has arrived or been answered for the idle timeout: an open GET
//   stream is not activity (a client could otherwise hold a slot for ever by listening), and it ends with its session.
// Time comes from `now`, so tests move it instead of waiting on it.

export interface SessionTableOptions<T> {
  /** The bounds in force, read at every use (a config reload changes them). */
  limits: () => { maxSessions: number; idleTimeoutMs: number };
  /** Ends a session the table dropped (evicted or expired): close its transport and server. */
  end: (slot: SessionSlot<T>, reason: 'evicted' | 'expired') => void;
  now?: () => number;
  /** How often idle sessions are looked for (default: the idle timeout, at least 10 ms and at most a minute). */
  sweepIntervalMs?: number;
}

/** One session's place in the table; what the session is (`value`) is set once it opened. */
export interface SessionSlot<T> {
  readonly id: string;
  value: T | undefined;
  lastUsed: number;
  /** Requests being answered, the `initialize` that opens the session included. */
  inFlight: number;
  /** Open GET streams. */
  streams: number;
}

/** Anything with a `close` event: Node's response of a request. */
interface Closable {
  once(event: 'close', listener: () => void): unknown;
}

export class SessionTable<T> {
  private readonly slots = new Map<string, SessionSlot<T>>();
  private readonly options: SessionTableOptions<T>;
  private readonly now: () => number;
  private sweepTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The most sessions ever live at once. */
  peak = 0;

  constructor(options: SessionTableOptions<T>) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.scheduleSweep();
  }

  get size(): number {
    return this.slots.size;
  }

  /** Sessions answering a request or holding a GET stream open: those a full table cannot evict. */
  get busy(): number {
    let busy = 0;
    for (const slot of this.slots.values()) if (slot.inFlight > 0 || slot.streams > 0) busy++;
    return busy;
  }

  get(id: string): SessionSlot<T> | undefined {
    return this.slots.get(id);
  }

  ids(): string[] {
    return [...this.slots.keys()];
  }

  /**
   * Reserves a slot for a session being opened by the request answered on `response` (it counts as in flight until
   * that answer ends), making room by evicting the least recently used idle session; undefined when every session is
   * busy. Synchronous on purpose: nothing may run between the check and the reservation.
   */
  reserve(id: string, response: Closable): SessionSlot<T> | undefined {
    if (this.closed) return undefined;
    const { maxSessions } = this.options.limits();
    while (this.slots.size >= maxSessions) {
      const victim = this.leastRecentlyUsedIdle();
      if (victim === undefined) return undefined;
      this.slots.delete(victim.id);
      this.options.end(victim, 'evicted');
    }
    const slot: SessionSlot<T> = { id, value: undefined, lastUsed: this.now(), inFlight: 0, streams: 0 };
    this.slots.set(id, slot);
    this.peak = Math.max(this.peak, this.slots.size);
    this.request(slot, response);
    return slot;
  }

  /** A request of the session's client, in flight until its answer on `response` ends. */
  request(slot: SessionSlot<T>, response: Closable): void {
    slot.inFlight += 1;
    this.touch(slot);
    response.once('close', () => {
      slot.inFlight -= 1;
      this.touch(slot);
    });
  }

  /** A GET stream of the session, open until `response` closes. Opening it is a request; keeping it open is not. */
  stream(slot: SessionSlot<T>, response: Closable): void {
    slot.streams += 1;
    this.touch(slot);
    response.once('close', () => {
      slot.streams -= 1;
    });
  }

  /** Drops a session (it ended, or it never opened); true when it was in the table. */
  delete(id: string, slot?: SessionSlot<T>): boolean {
    const current = this.slots.get(id);
    if (current === undefined || (slot !== undefined && current !== slot)) return false;
    return this.slots.delete(id);
  }

  /** Ends every session that has been idle for the timeout; the timer calls it, tests may too. */
  sweep(): void {
    const now = this.now();
    const { idleTimeoutMs } = this.options.limits();
    for (const slot of [...this.slots.values()]) {
      if (slot.inFlight === 0 && now - slot.lastUsed >= idleTimeoutMs) {
        this.slots.delete(slot.id);
        this.options.end(slot, 'expired');
      }
    }
  }

  /** Stops the sweep; the owner ends the sessions still listed (`ids`). */
  close(): void {
    this.closed = true;
    clearTimeout(this.sweepTimer);
  }

  /** A use: the slot moves to the end of the table, which is so kept in order of last use (clock ties included). */
  private touch(slot: SessionSlot<T>): void {
    slot.lastUsed = this.now();
    if (this.slots.get(slot.id) !== slot) return;
    this.slots.delete(slot.id);
    this.slots.set(slot.id, slot);
  }

  private leastRecentlyUsedIdle(): SessionSlot<T> | undefined {
    for (const slot of this.slots.values()) if (slot.inFlight === 0 && slot.streams === 0) return slot;
    return undefined;
  }

  private scheduleSweep(): void {
    if (this.closed) return;
    const interval =
      this.options.sweepIntervalMs ?? Math.max(10, Math.min(this.options.limits().idleTimeoutMs, 60_000));
    this.sweepTimer = setTimeout(() => {
      this.sweep();
      this.scheduleSweep();
    }, interval);
    this.sweepTimer.unref();
  }
}
