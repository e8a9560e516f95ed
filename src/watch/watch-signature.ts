// The last known state of everything that can change discovery's answer, as cheap fingerprints:
// each skills directory (exists, inode), each entry in it (docs/discovery.md §3: a directory or symlink not starting with
// `.`, its link target) and its SKILL.md (type, inode, size, mtime, ctime), each `.git` marker (docs/discovery.md §0: its
// presence and type only; git rewrites `.git`'s contents all the time), and any extra single file.
// Refreshing a set of keys re-reads only those and says which paths differ: it is the baseline taken before each
// onChange (so a second write that chokidar drops is seen by the re-check), the re-check itself, and the periodic
// reconciliation scan.
// The reads are synchronous, a slice at a time with the event loop let go between slices: a deep fingerprint of
// 10,000 skills is two `lstat`s each, and as 20,000 promises it filled libuv's thread pool for about a second on this
// 2-core machine (every other file operation of the daemon, a rebuild's or a file request's, queued behind it), where
// the same calls made synchronously take a few tens of milliseconds in all (docs/platform-notes.md §3).

import { lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { danglingLinkWatch } from './watch-resolve.js';
import { SKILL_FILE } from './watch-skills-root.js';

export type WatchKeyKind = 'dir' | 'entry' | 'marker' | 'file';

/** A thing to fingerprint: a skills directory, one entry of one (`<dir>/<entry>`), a `.git` marker, a file. */
export interface WatchKey {
  kind: WatchKeyKind;
  path: string;
}

export interface RefreshResult {
  /** Paths whose fingerprint differs from the last known one (entries: `<dir>/<entry>` and/or its SKILL.md). */
  changed: string[];
  /**
   * Of the keys given a time in `readAt`, the paths that may differ from what was read then: missing, or changed
   * (ctime) at or after that time.
   */
  changedSinceRead: string[];
  /** Skills directories holding an entry directory replaced by a new one under the same name. */
  staleDirs: string[];
}

/** A watch needed outside chokidar's reach: `<dir>/<name>` is what `entryPath`'s SKILL.md really is, or where a dangling `entryPath` link's target would appear. */
export interface LinkTarget {
  dir: string;
  name: string;
  entryPath: string;
}

interface EntryState {
  entryFp: string;
  skillFp: string;
  ino: number;
  isLink: boolean;
  entryReal: string | null;
  skillReal: string | null;
  /** A symlinked entry that leads nowhere yet: where its target would appear. */
  pendingLink: { dir: string; name: string } | null;
}

const ABSENT = 'absent';
const NO_SKILL = 'none';

export function keyId(key: WatchKey): string {
  return `${key.kind}:${key.path}`;
}

export class WatchSignature {
  /** `dir`, `marker` and `file` fingerprints by key id. */
  private readonly simple = new Map<string, string>();
  private readonly entries = new Map<string, EntryState>();
  /** Entry names known per skills directory. */
  private readonly entriesByDir = new Map<string, Set<string>>();
  /** The entries with a link target (see `linkTargets`), so listing those does not walk every entry on each flush. */
  private readonly linked = new Set<string>();
  /** Moves whenever what `linkTargets` returns may have changed: a flush re-subscribes the link watches only then. */
  private linkChanges = 0;

  /** A number that moves whenever `linkTargets` may give another answer than the last time it was asked. */
  get linksVersion(): number {
    return this.linkChanges;
  }

  /**
   * Re-reads `keys` and records their state. A `dir` key also notices entries added or removed; with `deep` (or
   * when listed in `deepDirs`) it re-reads every entry of the directory, else only the new ones.
   */
  async refresh(
    keys: Iterable<WatchKey>,
    options: {
      deep?: boolean;
      deepDirs?: ReadonlySet<string>;
      /** Waited for between slices of synchronous reads (see Slice). */
      yieldTo?: () => Promise<unknown> | null;
      /** The length of a slice (default SLICE_MS). */
      sliceMs?: number;
      /**
       * Per `dir` or `file` key path, a wall-clock time (ms) its caller read it at or after: what changed since is
       * listed in `changedSinceRead` (see ReadAt).
       */
      readAt?: ReadonlyMap<string, number>;
      /** See ReadAt (default READ_AT_SLACK_MS). */
      readAtSlackMs?: number;
    } = {},
  ): Promise<RefreshResult> {
    const unique = new Map<string, WatchKey>();
    for (const key of keys) unique.set(keyId(key), key);
    const changed = new Set<string>();
    const sinceRead = new ReadAt(options.readAt, options.readAtSlackMs ?? READ_AT_SLACK_MS);
    const staleDirs = new Set<string>();
    const done = new Set<string>();
    const all = [...unique.values()];
    const slice = new Slice(options.sliceMs ?? SLICE_MS, options.yieldTo);
    for (const key of all) {
      if (key.kind !== 'dir') continue;
      const deep = options.deep === true || options.deepDirs?.has(key.path) === true;
      await this.refreshDir(key.path, deep, changed, staleDirs, done, slice, sinceRead);
    }
    for (const key of all) {
      if (key.kind === 'entry' && !done.has(key.path)) await this.refreshEntry(key.path, changed, staleDirs);
      else if (key.kind === 'marker') this.refreshSimple(key, markerFingerprint, changed);
      else if (key.kind === 'file') {
        this.refreshSimple(key, fileFingerprint, changed);
        sinceRead.file(key.path);
      } else continue;
      await slice.step();
    }
    return { changed: [...changed], changedSinceRead: sinceRead.paths(), staleDirs: [...staleDirs] };
  }

  /** Forgets a key (its target is no longer watched): nothing is reported. */
  drop(key: WatchKey): void {
    this.simple.delete(keyId(key));
    if (key.kind !== 'dir') return;
    for (const name of this.entriesByDir.get(key.path) ?? []) {
      this.entries.delete(join(key.path, name));
      if (this.linked.delete(join(key.path, name))) this.linkChanges++;
    }
    this.entriesByDir.delete(key.path);
  }

  /** Whether `<dir>/<entry>` is known as an entry that is a directory (not a symlink). */
  isDirectoryEntry(path: string): boolean {
    const state = this.entries.get(path);
    return state !== undefined && !state.isLink;
  }

  /** Real locations of symlinked entries' SKILL.md and of symlinked SKILL.md files. */
  linkTargets(): LinkTarget[] {
    const out: LinkTarget[] = [];
    for (const entryPath of this.linked) {
      const state = this.entries.get(entryPath);
      if (state === undefined) continue;
      if (state.isLink && state.entryReal !== null) out.push({ dir: state.entryReal, name: SKILL_FILE, entryPath });
      if (state.pendingLink !== null) out.push({ ...state.pendingLink, entryPath });
      if (state.skillReal !== null) {
        out.push({ dir: dirname(state.skillReal), name: basename(state.skillReal), entryPath });
      }
    }
    return out;
  }

  private async refreshDir(
    dir: string,
    deep: boolean,
    changed: Set<string>,
    staleDirs: Set<string>,
    done: Set<string>,
    slice: Slice,
    sinceRead: ReadAt,
  ): Promise<void> {
    const id = keyId({ kind: 'dir', path: dir });
    const before = this.simple.get(id) ?? ABSENT;
    let statError: string | undefined;
    const stats = attempt(
      () => statSync(dir),
      (error) => {
        statError = error.code ?? 'error';
      },
    );
    const known = this.entriesByDir.get(dir) ?? new Set<string>();
    sinceRead.dir(dir, stats);
    if (stats === null || !stats.isDirectory()) {
      // Missing is silent, but a file (or a file in the path: ENOTDIR) is a scan warning (docs/discovery.md §3): those
      // states must differ from absent, or the warning would never appear or never go away.
      const fingerprint =
        stats !== null
          ? `notdir:${typeOf(stats)}:${stats.ino}`
          : statError === 'ENOENT'
            ? ABSENT
            : `error:${statError}`;
      if (fingerprint === ABSENT) this.simple.delete(id);
      else this.simple.set(id, fingerprint);
      if (fingerprint !== before) changed.add(dir);
      for (const name of [...known]) this.removeEntry(join(dir, name), changed);
      this.entriesByDir.delete(dir);
      return;
    }
    const listing = attempt(() => readdirSync(dir, { withFileTypes: true }));
    // Only the directory's identity counts here: its listing is reported through the entries themselves.
    const fingerprint = listing === null ? `unreadable:${stats.ino}` : `dir:${stats.ino}`;
    this.simple.set(id, fingerprint);
    if (fingerprint !== before) changed.add(dir);
    const names = (listing ?? [])
      .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
      .map((entry) => entry.name);
    const present = new Set(names);
    for (const name of [...known]) if (!present.has(name)) this.removeEntry(join(dir, name), changed);
    const toRead = deep ? names : names.filter((name) => !known.has(name));
    for (const name of toRead) {
      const path = join(dir, name);
      done.add(path);
      await this.refreshEntry(path, changed, staleDirs, sinceRead.of(dir));
      await slice.step();
    }
  }

  private async refreshEntry(
    path: string,
    changed: Set<string>,
    staleDirs: Set<string>,
    sinceRead?: (path: string, stats: Stats | null) => void,
  ): Promise<void> {
    const link = attempt(() => lstatSync(path));
    sinceRead?.(path, link);
    if (link === null || !(link.isDirectory() || link.isSymbolicLink()) || basename(path).startsWith('.')) {
      this.removeEntry(path, changed);
      return;
    }
    const isLink = link.isSymbolicLink();
    const entryReal = isLink ? attempt(() => realpathSync(path)) : null;
    const entryFp = flat([isLink ? 'link' : 'dir', link.ino, entryReal ?? '']);
    // Dangling: its target may be created anywhere, outside every watched directory.
    const pendingLink = isLink && entryReal === null ? await danglingLinkWatch(path) : null;
    const skillPath = join(path, SKILL_FILE);
    const skill = attempt(() => lstatSync(skillPath));
    let skillFp = NO_SKILL;
    let skillReal: string | null = null;
    if (skill !== null) sinceRead?.(skillPath, skill);
    if (skill?.isSymbolicLink()) {
      const target = attempt(() => statSync(skillPath));
      if (target !== null) sinceRead?.(skillPath, target);
      skillReal = attempt(() => realpathSync(skillPath));
      skillFp = target === null ? 'link:dangling' : flat(['link', skillReal, describe(target)]);
    } else if (skill !== null) {
      skillFp = describe(skill);
    }
    const before = this.entries.get(path);
    if (before === undefined) {
      changed.add(path);
      if (skillFp !== NO_SKILL) changed.add(skillPath);
    } else {
      if (before.entryFp !== entryFp) changed.add(path);
      if (before.skillFp !== skillFp) changed.add(skillPath);
      // Same name, new directory: chokidar's watch on the old one is dead (docs/platform-notes.md §2).
      if (!before.isLink && !isLink && before.ino !== link.ino) staleDirs.add(dirname(path));
    }
    this.entries.set(path, { entryFp, skillFp, ino: link.ino, isLink, entryReal, skillReal, pendingLink });
    const linked = (isLink && entryReal !== null) || pendingLink !== null || skillReal !== null;
    if (linked !== this.linked.has(path) || (linked && !sameLinks(before, isLink, entryReal, skillReal, pendingLink))) {
      this.linkChanges++;
    }
    if (linked) this.linked.add(path);
    else this.linked.delete(path);
    const dir = dirname(path);
    let known = this.entriesByDir.get(dir);
    if (known === undefined) {
      known = new Set();
      this.entriesByDir.set(dir, known);
    }
    known.add(basename(path));
  }

  private removeEntry(path: string, changed: Set<string>): void {
    const before = this.entries.get(path);
    this.entriesByDir.get(dirname(path))?.delete(basename(path));
    if (before === undefined) return;
    this.entries.delete(path);
    if (this.linked.delete(path)) this.linkChanges++;
    changed.add(path);
    if (before.skillFp !== NO_SKILL) changed.add(join(path, SKILL_FILE));
  }

  private refreshSimple(key: WatchKey, fingerprint: (path: string) => string, changed: Set<string>): void {
    const id = keyId(key);
    const before = this.simple.get(id) ?? ABSENT;
    const after = fingerprint(key.path);
    if (after === ABSENT) this.simple.delete(id);
    else this.simple.set(id, after);
    if (after !== before) changed.add(key.path);
  }
}

/**
 * What may have changed since a caller read a target it asks to watch only now (skill-watcher.ts `update`): the
 * target missing or not a directory, or the target, one of its entries or an entry's SKILL.md (or the file a link
 * leads to) changed at or after the time of the read. A change moves ctime, which cannot be set back; `READ_AT_SLACK_MS`
 * covers file systems whose timestamps are coarse (whole seconds) and a clock that runs a tick behind.
 */
class ReadAt {
  private readonly changed = new Set<string>();

  constructor(
    private readonly times: ReadonlyMap<string, number> | undefined,
    private readonly slackMs: number,
  ) {}

  dir(path: string, stats: Stats | null): void {
    const since = this.times?.get(path);
    if (since === undefined) return;
    if (stats === null ? !absentThroughout(path, since - this.slackMs) : stats.ctimeMs >= since - this.slackMs) {
      this.changed.add(path);
    }
  }

  /** The check of a directory's entries (and their SKILL.md), or undefined when the directory has no read time. */
  of(dir: string): ((path: string, stats: Stats | null) => void) | undefined {
    const since = this.times?.get(dir);
    if (since === undefined) return undefined;
    return (path, stats) => {
      if (stats !== null && stats.ctimeMs >= since - this.slackMs) this.changed.add(path);
    };
  }

  file(path: string): void {
    const since = this.times?.get(path);
    if (since === undefined) return;
    const link = attempt(() => lstatSync(path));
    if (link === null) {
      if (!absentThroughout(path, since - this.slackMs)) this.changed.add(path);
      return;
    }
    const target = link.isSymbolicLink() ? attempt(() => statSync(path)) : link;
    if (target === null || Math.max(link.ctimeMs, target.ctimeMs) >= since - this.slackMs) this.changed.add(path);
  }

  paths(): string[] {
    return [...this.changed];
  }
}

/** See ReadAt. */
const READ_AT_SLACK_MS = 2000;

/**
 * A missing path was missing all along since `since` (slack taken off): its nearest existing ancestor is a directory
 * that no entry was added to or removed from since (its ctime is older), so nothing was created or deleted below it.
 */
function absentThroughout(path: string, since: number): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const stats = attempt(() => lstatSync(dir));
    if (stats !== null) return stats.isDirectory() && stats.ctimeMs < since;
    if (dirname(dir) === dir) return false;
  }
}

function describe(stats: Stats): string {
  return flat([typeOf(stats), stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs]);
}

function typeOf(stats: Stats): string {
  if (stats.isDirectory()) return 'dir';
  if (stats.isSymbolicLink()) return 'link';
  return stats.isFile() ? 'file' : 'other';
}

/**
 * Fingerprints are kept for every entry: a template literal of five parts is a tree of rope nodes in V8 (about 15 per
 * entry, 190,000 objects and 6 MiB in a heap snapshot at 10,000 skills), where `join` makes one flat string.
 */
function flat(parts: ReadonlyArray<string | number | null>): string {
  return parts.join(':');
}

/** REPO only asks whether a `.git` entry exists (file or directory): its type is all that is kept. */
function markerFingerprint(path: string): string {
  const stats = attempt(() => lstatSync(path));
  return stats === null ? ABSENT : typeOf(stats);
}

function fileFingerprint(path: string): string {
  const link = attempt(() => lstatSync(path));
  if (link === null) return ABSENT;
  if (!link.isSymbolicLink()) return describe(link);
  const target = attempt(() => statSync(path));
  return target === null ? 'link:dangling' : `link:${describe(target)}`;
}

/** A file system call's result, or null when it failed (`onError` told why). */
function attempt<T>(call: () => T, onError?: (error: NodeJS.ErrnoException) => void): T | null {
  try {
    return call();
  } catch (error) {
    onError?.(error as NodeJS.ErrnoException);
    return null;
  }
}

/**
 * Synchronous reads, a few milliseconds at a time: `step()` lets the event loop run (requests, timers, other I/O)
 * once SLICE_MS have gone by since it last did, and then waits for the work `yieldTo` names, if any (a rebuild that
 * must not share the cores with a fingerprint nobody waits for).
 */
const SLICE_MS = 4;

class Slice {
  private since = performance.now();

  constructor(
    private readonly sliceMs: number,
    private readonly yieldTo?: () => Promise<unknown> | null,
  ) {}

  async step(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // One wait per slice: a stream of rebuilds slows the arming down, it cannot stop it.
    await this.yieldTo?.()?.catch(() => undefined);
    this.since = performance.now();
  }
}

/** Whether an entry's link targets (what `linkTargets` gives for it) are those of `before`. */
function sameLinks(
  before: EntryState | undefined,
  isLink: boolean,
  entryReal: string | null,
  skillReal: string | null,
  pendingLink: EntryState['pendingLink'],
): boolean {
  return (
    before !== undefined &&
    before.isLink === isLink &&
    before.entryReal === entryReal &&
    before.skillReal === skillReal &&
    before.pendingLink?.dir === pendingLink?.dir &&
    before.pendingLink?.name === pendingLink?.name
  );
}
