// The watch of one skills directory (its real path), bounded to what discovery reads (docs/discovery.md §3): the directory,
// its entries one level deep, and each entry's SKILL.md. Nothing deeper: a `references/` folder with thousands of
// files must not cost thousands of watches. With events, the kernel's watches (watch-skills-root-native.ts); when
// polling, one chokidar instance per root, so a root that is deleted and recreated is re-armed by closing its
// instance and opening a new one, never by chokidar's `unwatch` (which leaves the children's watches open).

import type { Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { FSWatcher } from 'chokidar';
import type { SkillsRootWatch, SkillsRootWatchOptions } from './skills-root-watch.js';
import { watchSkillsRootNative } from './watch-skills-root-native.js';

export type { SkillsRootWatch, SkillsRootWatchOptions } from './skills-root-watch.js';

export const SKILL_FILE = 'SKILL.md';

/** Quiet time at the root's top level before its listing is compared with what chokidar tracks. */
const GAP_CHECK_DELAY_MS = 150;
/**
 * An entry still untracked this much later, with nothing heard at the root's top level meanwhile, is lost: not merely
 * queued behind a busy chokidar (each false alarm costs the caller a restart of the root).
 */
const GAP_CONFIRM_MS = 400;

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

/**
 * Errors of a listed symlink's resolution that mean "this link leads nowhere", like ENOENT: a target path running
 * through a regular file (ENOTDIR), or too long to exist (ENAMETOOLONG).
 */
const UNRESOLVABLE_LINK_CODES = new Set(['ENOTDIR', 'ENAMETOOLONG']);

interface ReaddirpInternals {
  destroyed: boolean;
  emit(event: 'warn', error: Error): boolean;
  _onError?: (error: NodeJS.ErrnoException) => void;
}

/**
 * chokidar lists directories with readdirp, which resolves every symlink it lists and, on any error other than
 * ENOENT, EPERM, EACCES and ELOOP, destroys the listing. chokidar drops that error (it ignores ENOTDIR) and waits for
 * the listing's end, which never comes: one link such as `bad -> ../file.txt/x` in a skills directory (or in one of
 * its entries) meant no `ready`, no watch on that directory, and so no event for any other skill in it. Here such a
 * link is a warning, as a dangling one is: the listing goes on, and chokidar's own symlink handling skips the link
 * (it cannot resolve it either). The caller watches where that link's target would appear (watch-resolve.ts).
 */
class SkillsRootWatcher extends FSWatcher {
  override _readdirp(...args: Parameters<FSWatcher['_readdirp']>): ReturnType<FSWatcher['_readdirp']> {
    const stream = super._readdirp(...args);
    if (stream !== undefined) tolerateUnresolvableLinks(stream as unknown as ReaddirpInternals);
    return stream;
  }
}

function tolerateUnresolvableLinks(stream: ReaddirpInternals): void {
  const onError = stream._onError;
  if (typeof onError !== 'function') return;
  stream._onError = (error) => {
    if (error.code !== undefined && UNRESOLVABLE_LINK_CODES.has(error.code)) {
      if (!stream.destroyed) stream.emit('warn', error);
      return;
    }
    onError.call(stream, error);
  };
}

/**
 * Starts watching `root`; resolves once every watch is armed. Events come from the kernel's watches
 * (watch-skills-root-native.ts); polling (watches exhausted, or asked for) goes through chokidar's stat polling.
 */
export function watchSkillsRoot(options: SkillsRootWatchOptions): Promise<SkillsRootWatch> {
  return options.usePolling ? watchSkillsRootPolling(options) : watchSkillsRootNative(options);
}

/** The polling mode: chokidar's stat polling, bounded like the kernel watches; resolves once its first scan is done. */
async function watchSkillsRootPolling(options: SkillsRootWatchOptions): Promise<SkillsRootWatch> {
  const { root } = options;
  const watcher = new SkillsRootWatcher({
    persistent: true,
    ignoreInitial: true,
    // Symlinked entries are watched through their real targets by the caller; following links here pulled a whole
    // unrelated tree in (docs/platform-notes.md §2).
    followSymlinks: false,
    depth: 1,
    // `atomic` would hold every unlink back 100 ms; the coalescing above already merges unlink + add.
    atomic: false,
    ignorePermissionErrors: true,
    usePolling: true,
    interval: options.pollIntervalMs,
    binaryInterval: options.pollIntervalMs,
    ignored: (path: string, stats?: Stats) => !isWatchedUnderSkillsRoot(root, path, stats),
  });
  // chokidar announces symlinked entries during its initial scan even with `ignoreInitial`: drop everything until
  // it is ready (the caller fingerprints the whole directory once it is).
  let isReady = false;
  const gaps = new GapCheck(watcher, root, options.onMissed);
  watcher.on('all', (event, path) => {
    if (!isReady) return;
    options.onEvent(event, path);
    if (!path.slice(root.length + 1).includes(sep)) gaps.schedule();
  });
  watcher.on('error', (error) => options.onError(error as Error));
  const ready = new Promise<void>((resolve) => watcher.once('ready', resolve));
  watcher.add(root);
  await ready;
  isReady = true;
  await closeScanGap(watcher, root);
  return {
    root,
    namesEntries: false,
    watchedPaths() {
      let count = 0;
      for (const children of Object.values(watcher.getWatched())) count += children.length;
      return count;
    },
    close: () => {
      gaps.close();
      return watcher.close();
    },
  };
}

/**
 * chokidar re-reads a changed directory at most once per second; changes during a read ask for one more read at its
 * end, but that request is forgotten once the second is over. A read of thousands of entries on a loaded machine
 * lasts longer, so entries created during it were never added: no event, no watch on their SKILL.md, until the
 * reconciliation scan 30 s later. Once the root's listing is quiet, what chokidar missed is reported here.
 */
class GapCheck {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private closed = false;
  /** Bumped by every top-level event: a check that saw one while confirming is dropped (another is scheduled). */
  private activity = 0;

  constructor(
    private readonly watcher: FSWatcher,
    private readonly root: string,
    private readonly onMissed: (paths: string[]) => void,
  ) {}

  /** Runs a check once the root has been quiet for GAP_CHECK_DELAY_MS. */
  schedule(): void {
    if (this.closed) return;
    this.activity++;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, GAP_CHECK_DELAY_MS);
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      const activity = this.activity;
      const first = await untracked(this.watcher, this.root);
      if (first.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, GAP_CONFIRM_MS));
      if (this.activity !== activity) return;
      const still = new Set(await untracked(this.watcher, this.root));
      const missed = first.filter((path) => still.has(path));
      if (!this.closed && missed.length > 0) this.onMissed(missed);
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }
}

/**
 * chokidar reads a directory, then watches it: an entry created in between is never tracked, so its SKILL.md edits
 * would go unseen. Compare the root's listing with what chokidar holds and hand it what it missed.
 */
async function closeScanGap(watcher: FSWatcher, root: string): Promise<void> {
  const missed = await untracked(watcher, root);
  if (missed.length > 0) watcher.add(missed);
}

/** Entry directories of `root` on disk that chokidar does not track. */
async function untracked(watcher: FSWatcher, root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  if (watcher.closed) return [];
  const tracked = new Set(watcher.getWatched()[root] ?? []);
  return (
    entries
      // Directories only: symlinked entries are followed through their targets by the caller.
      .filter((entry) => !tracked.has(entry.name) && entry.isDirectory())
      .map((entry) => join(root, entry.name))
      .filter((path) => isWatchedUnderSkillsRoot(root, path))
  );
}
