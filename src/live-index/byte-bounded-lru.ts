// A map of kept answers bounded by entries and by bytes, least recently used out first (docs/api.md "Agent views",
// SECURITY.md "The views"): a client cycling through distinct requests costs one computation each and evicts the
// oldest answers, never everything at once and never past the bound.

export interface LruLimits {
  maxEntries: number;
  maxBytes: number;
}

export class ByteBoundedLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    private readonly limits: LruLimits,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The value kept for `key`, now the most recently used; undefined when none is. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps `value` as the most recently used, then evicts the least recently used until both bounds hold. The newest
   * entry always stays, alone when it is larger than the byte bound by itself: the answer just made is the one
   * clients are asking for.
   */
  set(key: string, value: V): void {
    const known = this.entries.get(key);
    if (known !== undefined) {
      this.entries.delete(key);
      this.held -= known.bytes;
    }
    const bytes = this.sizeOf(value);
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= 1) break;
      if (this.entries.size <= this.limits.maxEntries && this.held <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  /** Entries kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes kept, as `sizeOf` counts them. */
  get bytes(): number {
    return this.held;
  }
}
