// The event-mode watch of one skills directory, straight on the kernel's watches (inotify on Linux): one `fs.watch` on
// the directory and one on each entry directory, which reports its SKILL.md being written, created, deleted or
// replaced. That is all discovery reads there (docs/discovery.md §3), so nothing deeper is watched.
//
// Why not chokidar here (it still serves the polling mode, watch-skills-root.ts): at 10,000 skills chokidar held two
// watches per skill (the entry and its SKILL.md) and about 20 KiB of RSS per skill, took seconds to arm, and reported
// a new entry only after re-reading the whole directory with an `lstat` of every sibling (35 % of a busy daemon's
// samples under a loop of changes in a directory of 1,524 skills). An `fs.watch` costs 1.3 KiB and 5 µs to open
// (10,000 measured on this machine: 13 MiB, 52 ms), and a change of the listing names the entry that changed, so
// one `lstat` of that entry is all the work before it is reported.

import { type FSWatcher, watch } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { concatFlat, flattened } from '../discovery/flat-string.js';
import type { SkillsRootWatch, SkillsRootWatchOptions } from './skills-root-watch.js';

const SKILL_FILE = 'SKILL.md';

/** Errors of an entry's watch that mean "no such directory any more": the root's next event tells what it became. */
const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM']);

type Options = Pick<SkillsRootWatchOptions, 'root' | 'onEvent' | 'onError'>;

/** Starts watching `root` and each of its entry directories; resolves once they are all watched. */
export async function watchSkillsRootNative(options: Options): Promise<SkillsRootWatch> {
  const watch = new NativeRootWatch(options);
  await watch.start();
  return watch;
}

class NativeRootWatch implements SkillsRootWatch {
  readonly root: string;
  readonly namesEntries = true;
  private readonly onEvent: Options['onEvent'];
  private readonly onError: Options['onError'];
  private rootWatch: FSWatcher | null = null;
  /** Entry name → the watch on that entry directory. */
  private readonly entries = new Map<string, FSWatcher>();
  /** Entry names being looked at, and whether another event for them came meanwhile (look again after). */
  private readonly syncing = new Map<string, { again: boolean; renamed: boolean }>();
  private closed = false;

  constructor(options: Options) {
    this.root = options.root;
    this.onEvent = options.onEvent;
    this.onError = options.onError;
  }

  async start(): Promise<void> {
    // The root first, then its listing: an entry created in between is both listed and announced, never neither.
    this.rootWatch = this.open(this.root, (type, name) => this.onRootName(type, name));
    if (this.rootWatch === null) return;
    for (const entry of await this.list()) {
      if (this.closed) return;
      if (!this.entries.has(entry)) this.watchEntry(entry);
    }
  }

  watchedPaths(): number {
    return (this.rootWatch === null ? 0 : 1) + this.entries.size;
  }

  close(): Promise<void> {
    this.closed = true;
    this.rootWatch?.close();
    this.rootWatch = null;
    for (const entry of this.entries.values()) entry.close();
    this.entries.clear();
    return Promise.resolve();
  }

  /** The root's listing changed (`rename`) or an entry's attributes did (`change`); no name: look at everything. */
  private onRootName(type: string, name: string | Buffer | null): void {
    if (this.closed) return;
    if (typeof name !== 'string') {
      void this.relist();
      return;
    }
    // Dot entries are never skills (docs/discovery.md §3), and their churn (editors' swap files, `.git`) is not ours.
    if (name === '' || name.startsWith('.') || name.includes('/')) return;
    if (type === 'change' && !this.entries.has(name)) return;
    void this.sync(name, type === 'rename');
  }

  /**
   * Looks at one entry after an event for it and reports it: a directory gets a fresh watch (it may be another
   * directory with the same inode number, reused at once after a delete, and the old watch died with the old one);
   * a symlink is followed by the caller; anything else is no entry.
   */
  private async sync(name: string, renamed: boolean): Promise<void> {
    const running = this.syncing.get(name);
    if (running !== undefined) {
      running.again = true;
      running.renamed ||= renamed;
      return;
    }
    const state = { again: false, renamed };
    this.syncing.set(name, state);
    try {
      do {
        state.again = false;
        const touched = state.renamed;
        state.renamed = false;
        const path = join(this.root, name);
        const stats = await lstat(path).catch(() => null);
        if (this.closed) return;
        const had = this.entries.get(name);
        if (stats?.isDirectory() === true) {
          // A fresh watch for every event of the name, whatever its kind: the directory may be another one with the
          // same inode number, and the old watch died with the old one.
          had?.close();
          this.entries.delete(name);
          this.watchEntry(name);
          this.onEvent(had === undefined ? 'addDir' : 'change', path);
          // A SKILL.md that came while no live watch was on the entry (written into a new directory before its watch
          // opened, or between closing the old watch and opening this one) has no event of its own: look once, now
          // that the new watch is open, so that it is reported by one or the other.
          this.reportSkillFileIfThere(name);
          continue;
        }
        if (had !== undefined) {
          had.close();
          this.entries.delete(name);
          this.onEvent('unlinkDir', path);
        }
        // A symlinked entry came, went or changed (the caller watches where it leads), or a file took a name.
        if (stats?.isSymbolicLink() === true) this.onEvent('add', path);
        else if (touched && had === undefined) this.onEvent('unlink', path);
      } while (state.again && !this.closed);
    } finally {
      this.syncing.delete(name);
    }
  }

  /** Reports the entry's SKILL.md as changed when one is there now (and the entry is still watched). */
  private reportSkillFileIfThere(name: string): void {
    const skillFile = join(this.root, name, SKILL_FILE);
    lstat(skillFile).then(
      () => {
        if (!this.closed && this.entries.has(name)) this.onEvent('change', skillFile);
      },
      () => {},
    );
  }

  /** Events were merged without names (a queue overflow): compare the listing with the watched entries. */
  private async relist(): Promise<void> {
    const listed = new Set(await this.list());
    if (this.closed) return;
    for (const name of listed) if (!this.entries.has(name)) void this.sync(name, true);
    for (const name of this.entries.keys()) if (!listed.has(name)) void this.sync(name, true);
    this.onEvent('change', this.root);
  }

  /** Entry directories of the root, not starting with a dot (symlinked ones are the caller's). */
  private async list(): Promise<string[]> {
    const dirents = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    return dirents.filter((dirent) => dirent.isDirectory() && !dirent.name.startsWith('.')).map((d) => d.name);
  }

  private watchEntry(name: string): void {
    // Kept by the entry's watch for as long as it lives: flat, not a tree of pieces (docs/memory.md "Kept strings").
    const dir = flattened(join(this.root, name));
    const skillFile = concatFlat(dir, sep, SKILL_FILE);
    const entry = this.open(dir, (_type, file) => {
      // Only SKILL.md is read in an entry; a nameless event may be it.
      if (!this.closed && (file === SKILL_FILE || file === null)) this.onEvent('change', skillFile);
    });
    if (entry !== null) this.entries.set(name, entry);
  }

  /** An `fs.watch`; null when the path is gone (its parent's event follows) or watches ran out (reported). */
  private open(path: string, listener: (type: string, name: string | Buffer | null) => void): FSWatcher | null {
    try {
      const watcher = watch(path, { persistent: true }, listener);
      watcher.on('error', (error: NodeJS.ErrnoException) => {
        watcher.close();
        if (error.code === undefined || !GONE_CODES.has(error.code)) this.onError(error);
      });
      return watcher;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== undefined && GONE_CODES.has(code)) return null;
      this.onError(error as Error);
      return null;
    }
  }
}
