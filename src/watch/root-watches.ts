// The open watches of skills directories, one per real path (docs/discovery.md §3): several logical skills
// directories that lead to the same place (a symlink, a duplicate) share it, and one deleted and recreated under the
// same name gets a new one, since the old watch died with the directory. Used by skill-watcher.ts, which decides when
// to attach, detach or reopen; what the watch itself sees is watch-skills-root.ts's.

import { performance } from 'node:perf_hooks';
import { elapsed } from './elapsed-ms.js';
import type { WatcherLogger } from './skill-watcher-types.js';
import type { WatchMode } from './watch-presence.js';
import { type SkillsRootWatch, watchSkillsRoot } from './watch-skills-root.js';

export interface RootEntry {
  real: string;
  ino: number;
  /** Logical skills directories whose real path this is. */
  aliases: Set<string>;
  watch: SkillsRootWatch | null;
  opening: Promise<void>;
}

export interface RootWatchesOptions {
  /** The watcher's mode at the time a root is opened (it switches to polling when watches run out). */
  mode: () => WatchMode;
  pollIntervalMs: number;
  logger: WatcherLogger | undefined;
  /** True once the watcher is closed: a root opened meanwhile is closed at once. */
  closed: () => boolean;
  onEvent: (entry: RootEntry, event: string, path: string) => void;
  onMissed: (entry: RootEntry, watch: SkillsRootWatch, paths: string[]) => void;
  onError: (error: unknown, source: string) => void;
  /** A root watch was just armed: anything written before it has no event, so its aliases must be looked at again. */
  onArmed: (entry: RootEntry) => void;
}

export class RootWatches {
  private readonly roots = new Map<string, RootEntry>();
  /** Roots being closed, by real path. */
  private readonly closingRoots = new Map<string, Promise<void>>();

  constructor(private readonly options: RootWatchesOptions) {}

  get(real: string): RootEntry | undefined {
    return this.roots.get(real);
  }

  /** Paths under the open root watches. */
  watchedPaths(): number {
    let watchedPaths = 0;
    for (const entry of this.roots.values()) watchedPaths += entry.watch?.watchedPaths() ?? 0;
    return watchedPaths;
  }

  attach(real: string, ino: number, alias: string): Promise<void> {
    const existing = this.roots.get(real);
    if (existing !== undefined) {
      existing.aliases.add(alias);
      return existing.ino === ino ? existing.opening : this.reopen(existing, ino);
    }
    const entry: RootEntry = { real, ino, aliases: new Set([alias]), watch: null, opening: Promise.resolve() };
    this.roots.set(real, entry);
    entry.opening = this.open(entry);
    return entry.opening;
  }

  detach(real: string, alias: string): void {
    const entry = this.roots.get(real);
    if (entry === undefined) return;
    entry.aliases.delete(alias);
    if (entry.aliases.size > 0) return;
    this.roots.delete(real);
    const closing = entry.opening
      .then(() => entry.watch?.close())
      .catch((error) => this.options.onError(error, 'close'))
      .finally(() => {
        if (this.closingRoots.get(real) === closing) this.closingRoots.delete(real);
      });
    this.closingRoots.set(real, closing);
  }

  reopen(entry: RootEntry, ino: number): Promise<void> {
    entry.ino = ino;
    const previous = entry.opening;
    entry.opening = (async () => {
      await previous;
      const old = entry.watch;
      entry.watch = null;
      await old?.close();
      await this.open(entry);
    })();
    return entry.opening;
  }

  /**
   * Forgets every root at once (synchronously, before the returned promise first waits), then resolves when each
   * watch, and each one still being closed, is closed.
   */
  async closeAll(): Promise<void> {
    const entries = [...this.roots.values()];
    this.roots.clear();
    await Promise.all([
      ...entries.map((entry) => entry.opening.then(() => entry.watch?.close()).catch(() => undefined)),
      ...this.closingRoots.values(),
    ]);
  }

  private async open(entry: RootEntry): Promise<void> {
    // chokidar (polling) shares one watch per path across instances, and libuv one inotify watch per inode: a new
    // instance opened while the old one for the same path is still open would join its watch, dead if the directory
    // was recreated.
    await this.closingRoots.get(entry.real);
    const started = performance.now();
    const watch = await watchSkillsRoot({
      root: entry.real,
      usePolling: this.options.mode() === 'polling',
      pollIntervalMs: this.options.pollIntervalMs,
      onEvent: (event, path) => this.options.onEvent(entry, event, path),
      onMissed: (paths) => this.options.onMissed(entry, watch, paths),
      onError: (error) => this.options.onError(error, this.options.mode() === 'polling' ? 'chokidar' : 'fs.watch'),
    });
    if (this.options.closed() || this.roots.get(entry.real) !== entry) {
      await watch.close();
      return;
    }
    entry.watch = watch;
    this.options.logger?.debug(
      { root: entry.real, ms: elapsed(started), paths: watch.watchedPaths() },
      'skills root watched',
    );
    this.options.onArmed(entry);
  }
}
