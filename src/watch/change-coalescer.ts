// What the skill watcher (skill-watcher.ts) has to look at since its last flush, and when the next flush runs: the
// events of a burst are gathered into one flush (watch-burst.ts says how long it waits), and what a flush reported
// is looked at again a little later, for a write seen half-way (docs/index-and-events.md "How changes are seen").

import { performance } from 'node:perf_hooks';
import { BurstDelay } from './watch-burst.js';
import { keyId, type WatchKey } from './watch-signature.js';
import type { Target } from './watch-targets.js';

export interface ChangeCoalescerOptions {
  coalesceMs: number;
  /** The re-check of what a flush reported, this long after it. */
  rereadDelayMs: number;
  /** A change was just noted (the reconciliation waits for quiet). */
  onActivity: () => void;
  /** The coalescing delay is over: run the flush. */
  onFlushDue: () => void;
}

/** Targets whose own name changed, to resolve again; `suspect` ones had it deleted, recreated or renamed. */
export interface DirtyTargets {
  dirty: Target[];
  suspect: ReadonlySet<Target>;
  /** Entries that vanished: if one is a directory again, the watch on it may be the dead one. */
  suspectEntries: ReadonlySet<string>;
}

export interface PendingChanges {
  /** Paths the events named. */
  paths: Set<string>;
  /** Fingerprints to take again (some may belong to targets removed since). */
  keys: WatchKey[];
  /** Skills directories whose every entry must be fingerprinted again (a root watch just (re)started). */
  deepDirs: Set<string>;
}

export class ChangeCoalescer {
  private pendingPaths = new Set<string>();
  private pendingKeys = new Map<string, WatchKey>();
  private pendingDeep = new Set<string>();
  private readonly dirtyTargets = new Set<Target>();
  private suspectTargets = new Set<Target>();
  private suspectEntries = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly recheckTimers = new Set<NodeJS.Timeout>();
  private readonly delay: BurstDelay;
  private stopped = false;

  constructor(private readonly options: ChangeCoalescerOptions) {
    this.delay = new BurstDelay(options.coalesceMs);
  }

  /** An event named `path`; `keys` are the fingerprints it may have changed. */
  note(path: string, keys: WatchKey[]): void {
    this.pendingPaths.add(path);
    for (const key of keys) this.pendingKeys.set(keyId(key), key);
    this.scheduleFlush();
  }

  /** Takes the fingerprint `key` again at the next flush; `deep`, a skills directory's, with every entry's. */
  addKey(key: WatchKey, deep = false): void {
    this.pendingKeys.set(keyId(key), key);
    if (deep) this.pendingDeep.add(key.path);
  }

  suspectEntry(path: string): void {
    this.suspectEntries.add(path);
  }

  markDirty(target: Target, suspect: boolean): void {
    this.dirtyTargets.add(target);
    if (suspect) this.suspectTargets.add(target);
    this.scheduleFlush();
  }

  /** A target removed from the watch list: nothing more to do for it. */
  forget(target: Target): void {
    this.dirtyTargets.delete(target);
  }

  scheduleFlush(): void {
    this.options.onActivity();
    if (this.stopped || this.flushTimer !== null) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.options.onFlushDue();
    }, this.delay.next(performance.now()));
  }

  /** A flush reported `size` paths from `keys`: look at them again later, and count the burst. */
  reported(keys: WatchKey[], size: number): void {
    this.scheduleRecheck(keys);
    this.delay.emitted(size, performance.now());
  }

  /** The dirty targets so far, and a fresh start for the next ones. */
  takeDirty(): DirtyTargets {
    const dirty = [...this.dirtyTargets];
    const suspect = this.suspectTargets;
    const suspectEntries = this.suspectEntries;
    this.dirtyTargets.clear();
    this.suspectTargets = new Set();
    this.suspectEntries = new Set();
    return { dirty, suspect, suspectEntries };
  }

  /** The paths and fingerprints noted so far, and a fresh start for the next ones. */
  takeChanges(): PendingChanges {
    const paths = this.pendingPaths;
    const keys = [...this.pendingKeys.values()];
    const deepDirs = this.pendingDeep;
    this.pendingPaths = new Set();
    this.pendingKeys = new Map();
    this.pendingDeep = new Set();
    return { paths, keys, deepDirs };
  }

  stop(): void {
    this.stopped = true;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    for (const timer of this.recheckTimers) clearTimeout(timer);
    this.flushTimer = null;
    this.recheckTimers.clear();
  }

  private scheduleRecheck(keys: WatchKey[]): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.recheckTimers.delete(timer);
      for (const key of keys) this.pendingKeys.set(keyId(key), key);
      // Through the coalescing timer: in a burst, re-checks join the next flush instead of adding calls.
      this.scheduleFlush();
    }, this.options.rereadDelayMs);
    this.recheckTimers.add(timer);
  }
}
