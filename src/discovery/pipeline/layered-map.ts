// A read-only map made of a shared base and a few changes on top, so that a reload that adds or removes one skill
// does not copy the realpath of every winner (10,000 entries: 2–4 ms per reload on the benchmark machine) and the
// previous snapshot's map stays as it was (snapshots are immutable). Past MAX_CHANGES changes it is flattened into
// a plain Map again, so a lookup costs at most two Map lookups.

const MAX_CHANGES = 512;
/** Marks a key removed on top of the base. */
const REMOVED = Symbol('removed');

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  readonly #base: ReadonlyMap<K, V>;
  readonly #changes: ReadonlyMap<K, V | typeof REMOVED>;
  readonly size: number;

  private constructor(base: ReadonlyMap<K, V>, changes: Map<K, V | typeof REMOVED>) {
    this.#base = base;
    this.#changes = changes;
    let size = base.size;
    for (const [key, value] of changes) {
      const inBase = base.has(key);
      if (value === REMOVED) size -= inBase ? 1 : 0;
      else size += inBase ? 0 : 1;
    }
    this.size = size;
  }

  /** `map` with the keys of `removed` gone, then the entries of `set` put (a new object; `map` is not changed). */
  static update<K, V>(map: ReadonlyMap<K, V>, removed: Iterable<K>, set: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
    const base = map instanceof LayeredMap ? (map.#base as ReadonlyMap<K, V>) : map;
    const changes = new Map<K, V | typeof REMOVED>(map instanceof LayeredMap ? map.#changes : []);
    for (const key of removed) changes.set(key, REMOVED);
    for (const [key, value] of set) changes.set(key, value);
    const layered = new LayeredMap(base, changes);
    return changes.size > MAX_CHANGES ? new Map(layered) : layered;
  }

  get(key: K): V | undefined {
    const changed = this.#changes.get(key);
    if (changed === REMOVED) return undefined;
    return changed !== undefined || this.#changes.has(key) ? (changed as V) : this.#base.get(key);
  }

  has(key: K): boolean {
    const changed = this.#changes.get(key);
    if (changed === REMOVED) return false;
    return this.#changes.has(key) || this.#base.has(key);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.#base) {
      if (!this.#changes.has(key)) yield [key, value];
    }
    for (const [key, value] of this.#changes) if (value !== REMOVED) yield [key, value];
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
