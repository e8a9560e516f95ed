// Watches single names inside directories: "tell me when <dir>/<name> appears, disappears or changes".
// Used for what chokidar is not given: a missing skills directory's nearest existing ancestor, the parent of every
// skills directory (a deleted and recreated root must be re-armed, docs/platform-notes.md §2), the `.git` markers that move REPO
// (docs/discovery.md §0), and the real targets of symlinked skills (chokidar runs with `followSymlinks: false`).
// One `fs.watch` per directory, filtered by name, costs one inotify watch and no readdir per event. In polling mode
// (watches exhausted, or `--watch-mode poll`) one timer `lstat`s every watched name instead.
// It is the one presence watch of the daemon: the skill watcher's, the `--config` file's (src/cli/config-file.ts) and
// the MCP resource subscriptions' (src/mcp/change-notifications.ts), so `--watch-mode poll` holds for all of them.

import { type FSWatcher, lstatSync, watch } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, join } from 'node:path';

export type WatchMode = 'events' | 'polling';
/** `dirGone`: the watched directory itself was deleted or moved, so its watch is closed: subscribe again. */
export type PresenceCallback = (dirGone: boolean) => void;

/** `--watch-mode poll`'s default period (docs/deploy.md §Watching). */
export const DEFAULT_POLL_INTERVAL_MS = 1000;

export interface PresenceWatcherOptions {
  mode: WatchMode;
  pollIntervalMs: number;
  /** Whether the watches keep the process alive (default true). */
  persistent?: boolean;
  /** Errors from `fs.watch` (ENOSPC, EMFILE…); the watcher keeps running. */
  onError: (error: Error) => void;
}

interface DirWatch {
  watcher: FSWatcher | null;
  names: Map<string, Set<PresenceCallback>>;
}

interface PolledName {
  fingerprint: string;
  callbacks: Set<PresenceCallback>;
}

export class PresenceWatcher {
  private readonly dirs = new Map<string, DirWatch>();
  private readonly polled = new Map<string, PolledName>();
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private closed = false;

  constructor(private readonly options: PresenceWatcherOptions) {}

  get mode(): WatchMode {
    return this.options.mode;
  }

  /** Calls `callback` (possibly more often than needed) when `<dir>/<name>` may have changed. Returns the undo. */
  watch(dir: string, name: string, callback: PresenceCallback): () => void {
    if (this.closed) return () => {};
    return this.options.mode === 'events'
      ? this.watchEvents(dir, name, callback)
      : this.watchPolled(dir, name, callback);
  }

  /** Directories (events mode) or names (polling mode) being watched. */
  size(): number {
    return this.options.mode === 'events' ? this.dirs.size : this.polled.size;
  }

  close(): void {
    this.closed = true;
    for (const entry of this.dirs.values()) entry.watcher?.close();
    this.dirs.clear();
    this.polled.clear();
    if (this.pollTimer !== null) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private watchEvents(dir: string, name: string, callback: PresenceCallback): () => void {
    let entry = this.dirs.get(dir);
    if (entry === undefined) {
      const created: DirWatch = { watcher: null, names: new Map() };
      try {
        created.watcher = watch(dir, { persistent: this.options.persistent ?? true }, (_event, filename) =>
          this.dispatch(dir, created, filename),
        );
      } catch (error) {
        // ENOENT: the directory vanished since it was resolved; ENOSPC/EMFILE: no watch left. Either way the
        // caller looks again (and the error handler may switch the whole watcher to polling).
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') this.options.onError(error as Error);
        queueMicrotask(() => callback(true));
        return () => {};
      }
      created.watcher.on('error', (error) => {
        this.options.onError(error);
        this.dispatch(dir, created, null);
      });
      this.dirs.set(dir, created);
      entry = created;
    }
    let callbacks = entry.names.get(name);
    if (callbacks === undefined) {
      callbacks = new Set();
      entry.names.set(name, callbacks);
    }
    callbacks.add(callback);
    const owner = entry;
    return () => {
      const set = owner.names.get(name);
      set?.delete(callback);
      if (set?.size === 0) owner.names.delete(name);
      if (owner.names.size === 0 && this.dirs.get(dir) === owner) {
        owner.watcher?.close();
        this.dirs.delete(dir);
      }
    };
  }

  private dispatch(dir: string, entry: DirWatch, filename: string | Buffer | null): void {
    if (this.closed) return;
    const name = filename === null ? null : filename.toString();
    // No name, or the directory's own name: it was deleted or moved (that is how inotify reports it), or the watch
    // failed. The watch is dead even if a new directory takes the name (and maybe the inode number): close it, so that
    // the next subscription opens a fresh one, and tell everyone.
    if (name === null || name === basename(dir)) {
      entry.watcher?.close();
      if (this.dirs.get(dir) === entry) this.dirs.delete(dir);
      for (const callbacks of [...entry.names.values()]) for (const callback of [...callbacks]) callback(true);
      return;
    }
    const callbacks = entry.names.get(name);
    if (callbacks !== undefined) for (const callback of [...callbacks]) callback(false);
  }

  private watchPolled(dir: string, name: string, callback: PresenceCallback): () => void {
    const path = join(dir, name);
    let entry = this.polled.get(path);
    if (entry === undefined) {
      entry = { fingerprint: fingerprintSync(path), callbacks: new Set() };
      this.polled.set(path, entry);
    }
    entry.callbacks.add(callback);
    if (this.pollTimer === null) {
      this.pollTimer = setInterval(() => void this.poll(), this.options.pollIntervalMs);
      if (this.options.persistent === false) this.pollTimer.unref();
    }
    const owner = entry;
    return () => {
      owner.callbacks.delete(callback);
      if (owner.callbacks.size === 0 && this.polled.get(path) === owner) this.polled.delete(path);
      if (this.polled.size === 0 && this.pollTimer !== null) {
        clearInterval(this.pollTimer);
        this.pollTimer = null;
      }
    };
  }

  private async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      const entries = [...this.polled];
      const fingerprints = await Promise.all(entries.map(([path]) => fingerprint(path)));
      entries.forEach(([, entry], index) => {
        const next = fingerprints[index]!;
        if (this.closed || next === entry.fingerprint) return;
        entry.fingerprint = next;
        for (const callback of [...entry.callbacks]) callback(false);
      });
    } finally {
      this.polling = false;
    }
  }
}

/** The presence watch a `server.watchMode` (`--watch-mode`) and `server.pollIntervalMs` ask for. */
export function presenceModeOf(server: { watchMode?: 'events' | 'poll'; pollIntervalMs?: number }): {
  mode: WatchMode;
  pollIntervalMs: number;
} {
  return {
    mode: server.watchMode === 'poll' ? 'polling' : 'events',
    pollIntervalMs: server.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
  };
}

function describe(stats: import('node:fs').Stats): string {
  const type = stats.isDirectory() ? 'dir' : stats.isSymbolicLink() ? 'link' : stats.isFile() ? 'file' : 'other';
  return `${type}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

function fingerprintSync(path: string): string {
  try {
    return describe(lstatSync(path));
  } catch {
    return 'absent';
  }
}

async function fingerprint(path: string): Promise<string> {
  return lstat(path).then(describe, () => 'absent');
}
