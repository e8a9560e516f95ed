// One chokidar watcher per skills directory (its real path), bounded to what discovery reads (SKILLS.md §3):
// the directory, its entries one level deep, and each entry's SKILL.md. Nothing deeper: a `references/` folder with
// thousands of files must not cost thousands of inotify watches (FINDINGS.md "chokidar on Node 20").
// One instance per root, so a root that is deleted and recreated is re-armed by closing its instance and opening a
// new one, never by chokidar's `unwatch` (which leaves the children's watches open).

import type { Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { FSWatcher } from 'chokidar';

export const SKILL_FILE = 'SKILL.md';

export interface SkillsRootWatchOptions {
  /** Absolute real path of an existing skills directory. */
  root: string;
  usePolling: boolean;
  pollIntervalMs: number;
  onEvent: (event: string, path: string) => void;
  onError: (error: Error) => void;
}

export interface SkillsRootWatch {
  readonly root: string;
  /** Paths chokidar tracks for this root (the root, entries, SKILL.md files). */
  watchedPaths(): number;
  close(): Promise<void>;
}

/**
 * Whether chokidar should look at `path` under the skills directory `root`: `root` itself; an entry not starting with
 * `.` that is a directory or a symlink (or not yet known); `<entry>/SKILL.md`. Everything else is ignored.
 */
export function isWatchedUnderSkillsRoot(root: string, path: string, stats?: Stats): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (!path.startsWith(prefix)) return false;
  const parts = path.slice(prefix.length).split(sep);
  if (parts.length === 1) {
    const name = parts[0]!;
    if (name === '' || name.startsWith('.')) return false;
    return stats === undefined || stats.isDirectory() || stats.isSymbolicLink();
  }
  return parts.length === 2 && parts[1] === SKILL_FILE;
}

/** Starts watching `root`; resolves once chokidar's initial scan is done. */
export async function watchSkillsRoot(options: SkillsRootWatchOptions): Promise<SkillsRootWatch> {
  const { root } = options;
  const watcher = new FSWatcher({
    persistent: true,
    ignoreInitial: true,
    // Symlinked entries are watched through their real targets by the caller; following links here pulled a whole
    // unrelated tree in (FINDINGS.md).
    followSymlinks: false,
    depth: 1,
    // `atomic` would hold every unlink back 100 ms; the coalescing above already merges unlink + add.
    atomic: false,
    ignorePermissionErrors: true,
    usePolling: options.usePolling,
    interval: options.pollIntervalMs,
    binaryInterval: options.pollIntervalMs,
    ignored: (path: string, stats?: Stats) => !isWatchedUnderSkillsRoot(root, path, stats),
  });
  // chokidar announces symlinked entries during its initial scan even with `ignoreInitial`: drop everything until
  // it is ready (the caller fingerprints the whole directory once it is).
  let isReady = false;
  watcher.on('all', (event, path) => {
    if (isReady) options.onEvent(event, path);
  });
  watcher.on('error', (error) => options.onError(error as Error));
  const ready = new Promise<void>((resolve) => watcher.once('ready', resolve));
  watcher.add(root);
  await ready;
  isReady = true;
  await closeScanGap(watcher, root);
  return {
    root,
    watchedPaths() {
      let count = 0;
      for (const children of Object.values(watcher.getWatched())) count += children.length;
      return count;
    },
    close: () => watcher.close(),
  };
}

/**
 * chokidar reads a directory, then watches it: an entry created in between is never tracked, so its SKILL.md edits
 * would go unseen. Compare the root's listing with what chokidar holds and hand it what it missed.
 */
async function closeScanGap(watcher: FSWatcher, root: string): Promise<void> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const tracked = new Set(watcher.getWatched()[root] ?? []);
  const missed = entries
    // Directories only: symlinked entries are followed through their targets by the caller.
    .filter((entry) => !tracked.has(entry.name) && entry.isDirectory())
    .map((entry) => join(root, entry.name))
    .filter((path) => isWatchedUnderSkillsRoot(root, path));
  if (missed.length > 0 && !watcher.closed) watcher.add(missed);
}
