// Tells the index when to run discovery again. It watches exactly what discovery reads (docs/discovery.md §3: every skills
// directory, its entries one level deep, their SKILL.md; §0: the `.git` markers that decide REPO) and reports the
// changed paths, coalesced. Skills directories are watched by watch-skills-root.ts (the kernel's watches, or chokidar
// when polling); the pitfalls of file watching on Node 20 are handled here:
// - a write seen mid-way (a truncate, then the content), or a second write dropped (chokidar drops one < 50 ms after
//   the first): each onChange is preceded by a fingerprint of what it reports, re-checked `rereadDelayMs` later, and
//   reported again if it moved;
// - a root deleted and recreated, or a path whose grandparent is missing: never watched directly; the nearest
//   existing ancestor is watched for the next name (watch-presence.ts) and the watch moves as directories appear;
// - links are not followed by the root watches, whose depth is bounded; symlinked skills are watched through their
//   real targets, and a skills directory that is a dangling link is watched where its target would appear;
// - lost events (inotify overflow, network file systems): a periodic reconciliation scan compares fingerprints;
// - watches exhausted (ENOSPC, EMFILE): the whole watcher switches to polling instead of failing.

import { dirname, join, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BaseLogger } from 'pino';
import { BurstDelay } from './watch-burst.js';
import { PresenceWatcher, type WatchMode } from './watch-presence.js';
import { type Resolution, resolveTarget } from './watch-resolve.js';
import { keyId, type WatchKey, WatchSignature } from './watch-signature.js';
import { SKILL_FILE, type SkillsRootWatch, watchSkillsRoot } from './watch-skills-root.js';

export interface WatchTargets {
  /** Skills directories as discovery scans them; may not exist yet, may be symlinks. */
  skillDirs: string[];
  /** Directories whose `.git` entry appearing or disappearing changes REPO (CWD and its ancestors). */
  markerDirs: string[];
  /** Single files to watch. */
  files?: string[];
  /** Paths watched for presence and type only, like a `.git` marker (a `CFG/` directory that moves an anchor). */
  markerPaths?: string[];
}

export interface WatcherStatus {
  mode: WatchMode;
  /**
   * Paths under watch: skills directories and their entry directories (each entry's watch sees its SKILL.md), or,
   * polling, chokidar's tracked paths; plus the directories (or, polling, the names) watched for presence.
   */
  watchedPaths: number;
  /** Skills directories and files that do not exist yet, armed on their nearest existing ancestor. */
  pendingAncestors: number;
  /** Reconciliation scans completed. */
  reconciliations: number;
  lastError: string | null;
}

/** The logger methods used (a pino Logger fits). */
export type WatcherLogger = Pick<BaseLogger, 'debug' | 'warn'>;

export interface SkillWatcherOptions {
  targets: WatchTargets;
  /** Coalesced: the changed paths (sorted, unique) since the last call. */
  onChange: (paths: string[]) => void;
  /** Debug lines for events and timings; a warning when switching to polling. */
  logger?: WatcherLogger;
  /** Delay before the first onChange of a quiet period (default 3). Bursts stretch it up to 300 ms. */
  coalesceMs?: number;
  /** Re-check of what an onChange reported (default 75): catches the second of two quick writes. */
  rereadDelayMs?: number;
  /** Reconciliation scan period (default 30 000). */
  reconcileIntervalMs?: number;
  /** Start in polling mode. */
  usePolling?: boolean;
  /** Poll period in polling mode (default 250). */
  pollIntervalMs?: number;
  /**
   * Work that goes first while the watcher arms (a rebuild in flight): the arming's fingerprints pause between slices
   * until it is done. Only the arming: later operations may be what such work waits for (`update`).
   */
  yieldTo?: () => Promise<unknown> | null;
}

export interface SkillWatcher {
  /**
   * Re-arms for a new target list; targets present before and after keep their watches (no event is lost). The new
   * targets are reported to onChange once armed.
   */
  update(targets: WatchTargets): Promise<void>;
  /** Runs the reconciliation scan now; true if it found a difference (and called onChange). */
  reconcileNow(): Promise<boolean>;
  /** Drops every event watch and polls instead (what a watcher error such as ENOSPC does by itself). */
  switchToPolling(reason: string): Promise<void>;
  status(): WatcherStatus;
  close(): Promise<void>;
}

const DEFAULT_COALESCE_MS = 3;
const DEFAULT_REREAD_DELAY_MS = 75;
const DEFAULT_RECONCILE_INTERVAL_MS = 30_000;
/**
 * A reconciliation due while changes are still arriving waits for this much quiet (or the interval, if shorter), at
 * most RECONCILE_MAX_WAITS times in a row: mid-burst it would count changes whose events are queued, not lost, and
 * pay a deep fingerprint of every skill (1.8 s at 5,000 skills on a loaded machine) for nothing.
 */
const RECONCILE_QUIET_MS = 2000;
const RECONCILE_MAX_WAITS = 5;
const DEFAULT_POLL_INTERVAL_MS = 250;
/**
 * Slices of the first arming's fingerprints: short, since each file-system round trip of a rebuild running meanwhile
 * (a skill added right after the first answer) waits for the slice in progress to end.
 */
const ARMING_SLICE_MS = 1;
/** Errors that mean "no more watches": inotify watches (ENOSPC) or file descriptors exhausted. */
const EXHAUSTION_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'ENOMEM']);

type TargetKind = 'skills' | 'marker' | 'file';

interface Target {
  kind: TargetKind;
  /** The logical path: a skills directory, a `<dir>/.git` marker, a file. */
  path: string;
  key: WatchKey;
  resolution: Resolution | null;
  unwatchPresence: (() => void) | null;
  /** A symlink target that leads nowhere yet: the watch on where its target would appear. */
  unwatchLink: (() => void) | null;
  /** Real path of the root watch this skills directory is attached to. */
  root: string | null;
}

interface RootEntry {
  real: string;
  ino: number;
  /** Logical skills directories whose real path this is. */
  aliases: Set<string>;
  watch: SkillsRootWatch | null;
  opening: Promise<void>;
}

interface LinkWatch {
  unwatch: () => void;
  entryPaths: Set<string>;
}

/** Starts watching `options.targets`; resolves once every watch is armed and the baseline is recorded. */
export async function createSkillWatcher(options: SkillWatcherOptions): Promise<SkillWatcher> {
  const watcher = new SkillWatcherImpl(options);
  try {
    await watcher.start();
  } catch (error) {
    await watcher.close();
    throw error;
  }
  return watcher;
}

class SkillWatcherImpl implements SkillWatcher {
  private readonly onChange: (paths: string[]) => void;
  private readonly logger: WatcherLogger | undefined;
  private readonly rereadDelayMs: number;
  private readonly reconcileIntervalMs: number;
  private readonly pollIntervalMs: number;

  private mode: WatchMode;
  private presence: PresenceWatcher;
  private readonly signature = new WatchSignature();
  private readonly targets = new Map<string, Target>();
  private readonly roots = new Map<string, RootEntry>();
  private readonly linkWatches = new Map<string, LinkWatch>();
  /** Roots being closed, by real path. */
  private readonly closingRoots = new Map<string, Promise<void>>();

  private pendingPaths = new Set<string>();
  private pendingKeys = new Map<string, WatchKey>();
  /** Skills directories whose every entry must be fingerprinted again (a root watch just (re)started). */
  private pendingDeep = new Set<string>();
  private readonly dirtyTargets = new Set<Target>();
  private suspectTargets = new Set<Target>();
  private suspectEntries = new Set<string>();
  private flushTimer: NodeJS.Timeout | null = null;
  private reconcileTimer: NodeJS.Timeout | null = null;
  /** When the last change was reported (performance.now()), and how often the due reconciliation waited for quiet. */
  private lastActivity = 0;
  private reconcileWaits = 0;
  private readonly recheckTimers = new Set<NodeJS.Timeout>();
  private readonly delay: BurstDelay;

  /** Every operation that reads or changes the watch state runs here, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** start() is arming the first targets: fingerprints give way to `options.yieldTo`. */
  private arming = false;
  private closing: Promise<void> | null = null;
  private reconciliations = 0;
  private lastError: string | null = null;

  constructor(private readonly options: SkillWatcherOptions) {
    this.onChange = options.onChange;
    this.logger = options.logger;
    this.delay = new BurstDelay(Math.max(0, options.coalesceMs ?? DEFAULT_COALESCE_MS));
    this.rereadDelayMs = Math.max(1, options.rereadDelayMs ?? DEFAULT_REREAD_DELAY_MS);
    this.reconcileIntervalMs = Math.max(1, options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS);
    this.pollIntervalMs = Math.max(1, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
    this.mode = options.usePolling === true ? 'polling' : 'events';
    this.presence = this.newPresence();
  }

  start(): Promise<void> {
    return this.enqueue(async () => {
      const started = performance.now();
      this.arming = true;
      try {
        await this.armNew(this.applyTargets(this.options.targets));
      } finally {
        this.arming = false;
      }
      this.scheduleReconcile();
      this.logger?.debug({ ms: elapsed(started), mode: this.mode, status: this.status() }, 'skill watcher ready');
    });
  }

  update(targets: WatchTargets): Promise<void> {
    return this.enqueue(async () => {
      if (this.closed) return;
      const started = performance.now();
      const added = this.applyTargets(targets);
      await this.armNew(added);
      // The caller read these before they were watched (a rebuild found a new plugin manifest or skills directory,
      // then asked for it to be watched): a change made in between is in no fingerprint and has no event. Reported
      // once armed, they are read again; a rebuild that finds them as they were changes nothing.
      if (added.length > 0 && !this.closed)
        this.emit(
          added.map((target) => target.path),
          'armed',
          started,
        );
    });
  }

  reconcileNow(): Promise<boolean> {
    return this.enqueue(() => this.reconcile());
  }

  switchToPolling(reason: string): Promise<void> {
    return this.enqueue(async () => {
      if (this.closed || this.mode === 'polling') return;
      this.logger?.warn({ reason }, 'file watcher switching to polling');
      this.mode = 'polling';
      await this.teardownWatches();
      this.presence = this.newPresence();
      await this.rearm([...this.targets.values()]);
      // Whatever happened while nothing was watching.
      await this.reconcile();
    });
  }

  status(): WatcherStatus {
    let watchedPaths = this.presence.size();
    for (const entry of this.roots.values()) watchedPaths += entry.watch?.watchedPaths() ?? 0;
    let pendingAncestors = 0;
    for (const target of this.targets.values()) {
      const resolution = target.resolution;
      if (resolution === null) continue;
      if (target.kind === 'skills' && !resolution.isDir) pendingAncestors++;
      if (target.kind === 'file' && !resolution.exists) pendingAncestors++;
    }
    return {
      mode: this.mode,
      watchedPaths,
      pendingAncestors,
      reconciliations: this.reconciliations,
      lastError: this.lastError,
    };
  }

  close(): Promise<void> {
    if (this.closing !== null) return this.closing;
    this.closed = true;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    if (this.reconcileTimer !== null) clearTimeout(this.reconcileTimer);
    for (const timer of this.recheckTimers) clearTimeout(timer);
    this.flushTimer = null;
    this.reconcileTimer = null;
    this.recheckTimers.clear();
    this.closing = (async () => {
      // Let a running operation finish (it stops at its next step), then release every watch.
      await this.queue.catch(() => undefined);
      await this.teardownWatches();
      this.presence.close();
    })();
    return this.closing;
  }

  // ---- targets and their watches ----

  /** Replaces the target set; returns the targets that are new. Removed targets lose their watches at once. */
  private applyTargets(next: WatchTargets): Target[] {
    const wanted = new Map<string, { kind: TargetKind; path: string }>();
    for (const dir of next.skillDirs) wanted.set(`skills:${resolve(dir)}`, { kind: 'skills', path: resolve(dir) });
    for (const dir of next.markerDirs) {
      const path = resolve(dir, '.git');
      wanted.set(`marker:${path}`, { kind: 'marker', path });
    }
    for (const file of next.files ?? []) wanted.set(`file:${resolve(file)}`, { kind: 'file', path: resolve(file) });
    for (const marker of next.markerPaths ?? []) {
      wanted.set(`marker:${resolve(marker)}`, { kind: 'marker', path: resolve(marker) });
    }
    for (const [id, target] of this.targets) {
      if (wanted.has(id)) continue;
      this.targets.delete(id);
      this.dirtyTargets.delete(target);
      target.unwatchPresence?.();
      target.unwatchPresence = null;
      target.unwatchLink?.();
      target.unwatchLink = null;
      if (target.root !== null) this.detachRoot(target.root, target.path);
      target.root = null;
      this.signature.drop(target.key);
    }
    const added: Target[] = [];
    for (const [id, { kind, path }] of wanted) {
      if (this.targets.has(id)) continue;
      const keyKind = kind === 'skills' ? 'dir' : kind;
      const target: Target = {
        kind,
        path,
        key: { kind: keyKind, path },
        resolution: null,
        unwatchPresence: null,
        unwatchLink: null,
        root: null,
      };
      this.targets.set(id, target);
      added.push(target);
    }
    return added;
  }

  /**
   * Fingerprints new targets, then arms their watches, then looks again: a change made while the watches were being
   * set up (before the root watch was armed) has no event, but shows as a difference from that first fingerprint.
   */
  private async armNew(added: Target[]): Promise<void> {
    const keys = added.map((target) => target.key);
    await this.signature.refresh(keys, this.armingOptions({ deep: true }));
    await this.rearm(added);
    this.syncLinkWatches();
    for (const key of keys) {
      this.pendingKeys.set(keyId(key), key);
      if (key.kind === 'dir') this.pendingDeep.add(key.path);
    }
    await this.flush();
  }

  /**
   * Resolves `targets` again and moves their watches to match; resolves once new root watches are armed.
   * `suspect` targets had their own name touched (deleted, recreated, renamed): their root is started again even when
   * the inode looks the same, since a deleted directory's inode number is reused at once.
   */
  private async rearm(targets: Target[], suspect: ReadonlySet<Target> = new Set()): Promise<void> {
    const resolutions = await Promise.all(targets.map((target) => resolveTarget(target.path)));
    const opening: Promise<void>[] = [];
    targets.forEach((target, index) => {
      if (this.closed || this.targets.get(`${target.kind}:${target.path}`) !== target) return;
      const resolution = resolutions[index]!;
      target.resolution = resolution;
      // Subscribe before unsubscribing: the same directory keeps its one watch, without a gap.
      const previous = target.unwatchPresence;
      target.unwatchPresence = this.presence.watch(resolution.watchDir, resolution.watchName, () =>
        this.markDirty(target, true),
      );
      previous?.();
      // A dangling (or looping) link: its target appearing changes what discovery reads, under another directory.
      const previousLink = target.unwatchLink;
      const link = resolution.linkWatch;
      target.unwatchLink =
        link === null ? null : this.presence.watch(link.dir, link.name, () => this.markDirty(target, true));
      previousLink?.();
      if (target.kind !== 'skills') return;
      const real = resolution.isDir ? resolution.real : null;
      if (target.root !== real) {
        if (target.root !== null) this.detachRoot(target.root, target.path);
        target.root = real;
        if (real !== null) opening.push(this.attachRoot(real, resolution.ino, target.path));
      } else if (real !== null) {
        const entry = this.roots.get(real);
        // Deleted and recreated under the same name: the old watch is dead.
        if (entry !== undefined && (entry.ino !== resolution.ino || suspect.has(target))) {
          opening.push(this.reopenRoot(entry, resolution.ino));
        }
      }
    });
    await Promise.all(opening);
  }

  private attachRoot(real: string, ino: number, alias: string): Promise<void> {
    const existing = this.roots.get(real);
    if (existing !== undefined) {
      existing.aliases.add(alias);
      return existing.ino === ino ? existing.opening : this.reopenRoot(existing, ino);
    }
    const entry: RootEntry = { real, ino, aliases: new Set([alias]), watch: null, opening: Promise.resolve() };
    this.roots.set(real, entry);
    entry.opening = this.openRoot(entry);
    return entry.opening;
  }

  private detachRoot(real: string, alias: string): void {
    const entry = this.roots.get(real);
    if (entry === undefined) return;
    entry.aliases.delete(alias);
    if (entry.aliases.size > 0) return;
    this.roots.delete(real);
    const closing = entry.opening
      .then(() => entry.watch?.close())
      .catch((error) => this.handleError(error, 'close'))
      .finally(() => {
        if (this.closingRoots.get(real) === closing) this.closingRoots.delete(real);
      });
    this.closingRoots.set(real, closing);
  }

  private reopenRoot(entry: RootEntry, ino: number): Promise<void> {
    entry.ino = ino;
    const previous = entry.opening;
    entry.opening = (async () => {
      await previous;
      const old = entry.watch;
      entry.watch = null;
      await old?.close();
      await this.openRoot(entry);
    })();
    return entry.opening;
  }

  private async openRoot(entry: RootEntry): Promise<void> {
    // chokidar (polling) shares one watch per path across instances, and libuv one inotify watch per inode: a new
    // instance opened while the old one for the same path is still open would join its watch, dead if the directory
    // was recreated.
    await this.closingRoots.get(entry.real);
    const started = performance.now();
    const watch = await watchSkillsRoot({
      root: entry.real,
      usePolling: this.mode === 'polling',
      pollIntervalMs: this.pollIntervalMs,
      onEvent: (event, path) => this.onRootEvent(entry, event, path),
      onMissed: (paths) => this.onRootMissed(entry, watch, paths),
      onError: (error) => this.handleError(error, this.mode === 'polling' ? 'chokidar' : 'fs.watch'),
    });
    if (this.closed || this.roots.get(entry.real) !== entry) {
      await watch.close();
      return;
    }
    entry.watch = watch;
    this.logger?.debug({ root: entry.real, ms: elapsed(started), paths: watch.watchedPaths() }, 'skills root watched');
    // Anything written between the last fingerprint and the root watch being armed has no event: look again.
    for (const alias of entry.aliases) {
      this.pendingKeys.set(keyId({ kind: 'dir', path: alias }), { kind: 'dir', path: alias });
      this.pendingDeep.add(alias);
    }
    this.scheduleFlush();
  }

  private async teardownWatches(): Promise<void> {
    for (const target of this.targets.values()) {
      target.unwatchPresence?.();
      target.unwatchPresence = null;
      target.unwatchLink?.();
      target.unwatchLink = null;
      target.root = null;
    }
    for (const link of this.linkWatches.values()) link.unwatch();
    this.linkWatches.clear();
    const entries = [...this.roots.values()];
    this.roots.clear();
    this.presence.close();
    await Promise.all([
      ...entries.map((entry) => entry.opening.then(() => entry.watch?.close()).catch(() => undefined)),
      ...this.closingRoots.values(),
    ]);
  }

  /** Symlinked entries and SKILL.md files: watch where they really are (root watches do not follow links). */
  private syncLinkWatches(): void {
    if (this.closed) return;
    const wanted = new Map<string, { dir: string; name: string; entryPaths: Set<string> }>();
    for (const link of this.signature.linkTargets()) {
      const id = `${link.dir}\0${link.name}`;
      const found = wanted.get(id);
      if (found !== undefined) found.entryPaths.add(link.entryPath);
      else wanted.set(id, { dir: link.dir, name: link.name, entryPaths: new Set([link.entryPath]) });
    }
    for (const [id, watch] of this.linkWatches) {
      if (wanted.has(id)) continue;
      watch.unwatch();
      this.linkWatches.delete(id);
    }
    for (const [id, { dir, name, entryPaths }] of wanted) {
      const existing = this.linkWatches.get(id);
      if (existing !== undefined) {
        existing.entryPaths = entryPaths;
        continue;
      }
      const watch: LinkWatch = { unwatch: () => {}, entryPaths };
      watch.unwatch = this.presence.watch(dir, name, (dirGone) => {
        // The target directory was replaced: the flush this schedules subscribes again, to the new one.
        if (dirGone && this.linkWatches.get(id) === watch) this.linkWatches.delete(id);
        for (const path of watch.entryPaths) {
          this.pendingKeys.set(keyId({ kind: 'entry', path }), { kind: 'entry', path });
        }
        this.scheduleFlush();
      });
      this.linkWatches.set(id, watch);
    }
  }

  // ---- events ----

  private onRootEvent(entry: RootEntry, event: string, path: string): void {
    if (this.closed) return;
    this.logger?.debug({ event, path }, 'skill watcher event');
    const relative = path === entry.real ? [] : path.slice(entry.real.length + 1).split(sep);
    for (const alias of entry.aliases) {
      const dirKey: WatchKey = { kind: 'dir', path: alias };
      if (relative.length === 0) {
        this.note(alias, [dirKey]);
        const target = this.targets.get(`skills:${alias}`);
        if (target !== undefined && event === 'unlinkDir') this.markDirty(target, true);
      } else if (relative.length === 1) {
        const entryPath = join(alias, relative[0]!);
        if (event === 'unlinkDir') this.suspectEntries.add(entryPath);
        this.note(entryPath, [dirKey, { kind: 'entry', path: entryPath }]);
      } else if (relative.length === 2 && relative[1] === SKILL_FILE) {
        const entryPath = join(alias, relative[0]!);
        // `rm -rf <entry> && mkdir <entry>` shows up as this unlink alone, and the new directory may reuse the inode.
        if (event === 'unlink') this.suspectEntries.add(entryPath);
        this.note(join(entryPath, SKILL_FILE), [{ kind: 'entry', path: entryPath }]);
      }
    }
  }

  /**
   * Entries chokidar lost during a burst (watch-skills-root.ts GapCheck): reported now, and the root started again so
   * that their SKILL.md is watched; the reopened root is fingerprinted in depth, so nothing waits for reconciliation.
   */
  private onRootMissed(entry: RootEntry, watch: SkillsRootWatch, paths: string[]): void {
    if (this.closed || entry.watch !== watch) return;
    this.logger?.debug({ root: entry.real, missed: paths.length }, 'skills root entries missed by chokidar');
    for (const path of paths) this.onRootEvent(entry, 'addDir', path);
    this.run(async () => {
      if (!this.closed && this.roots.get(entry.real) === entry && entry.watch === watch) {
        await this.reopenRoot(entry, entry.ino);
      }
    });
  }

  private note(path: string, keys: WatchKey[]): void {
    this.pendingPaths.add(path);
    for (const key of keys) this.pendingKeys.set(keyId(key), key);
    this.scheduleFlush();
  }

  private markDirty(target: Target, suspect = false): void {
    if (this.closed) return;
    this.dirtyTargets.add(target);
    if (suspect) this.suspectTargets.add(target);
    this.scheduleFlush();
  }

  private handleError(error: unknown, source: string): void {
    const err = error instanceof Error ? error : new Error(String(error));
    const code = (err as NodeJS.ErrnoException).code;
    this.lastError = code !== undefined && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
    this.logger?.warn({ err, source }, 'file watcher error');
    if (code !== undefined && EXHAUSTION_CODES.has(code) && this.mode === 'events' && !this.closed) {
      this.switchToPolling(this.lastError).catch((failure) => this.logger?.warn({ err: failure }, 'polling failed'));
    }
  }

  // ---- coalescing, the re-check and reconciliation ----

  private scheduleFlush(): void {
    this.lastActivity = performance.now();
    if (this.closed || this.flushTimer !== null) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.run(() => this.flush());
    }, this.delay.next(performance.now()));
  }

  private async flush(): Promise<void> {
    if (this.closed) return;
    const dirty = [...this.dirtyTargets];
    const suspect = this.suspectTargets;
    const suspectEntries = this.suspectEntries;
    this.dirtyTargets.clear();
    this.suspectTargets = new Set();
    this.suspectEntries = new Set();
    if (dirty.length > 0) {
      await this.rearm(dirty, suspect);
      for (const target of dirty) this.pendingKeys.set(keyId(target.key), target.key);
    }
    const paths = this.pendingPaths;
    // A re-check or an event may concern a target removed by update() since: not ours any more.
    const keys = [...this.pendingKeys.values()].filter((key) => this.isTargetKey(key));
    const deepDirs = this.pendingDeep;
    this.pendingPaths = new Set();
    this.pendingKeys = new Map();
    this.pendingDeep = new Set();
    if (paths.size === 0 && keys.length === 0) return;
    const started = performance.now();
    // The baseline the re-check compares with, taken before the index reads anything.
    const result = await this.signature.refresh(keys, this.armingOptions({ deepDirs }));
    for (const path of result.changed) paths.add(path);
    this.syncLinkWatches();
    if (paths.size > 0 && !this.closed) {
      this.emit([...paths], 'events', started);
      this.scheduleRecheck(keys);
      this.delay.emitted(paths.size, performance.now());
    }
    // An entry that vanished and is a directory again: the watch on it may be the dead one.
    const stale = [...result.staleDirs];
    for (const path of suspectEntries) if (this.signature.isDirectoryEntry(path)) stale.push(dirname(path));
    await this.reopenStale(stale);
  }

  private isTargetKey(key: WatchKey): boolean {
    switch (key.kind) {
      case 'dir':
        return this.targets.has(`skills:${key.path}`);
      case 'entry':
        return this.targets.has(`skills:${dirname(key.path)}`);
      default:
        return this.targets.has(`${key.kind}:${key.path}`);
    }
  }

  private scheduleRecheck(keys: WatchKey[]): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.recheckTimers.delete(timer);
      for (const key of keys) this.pendingKeys.set(keyId(key), key);
      // Through the coalescing timer: in a burst, re-checks join the next flush instead of adding calls.
      this.scheduleFlush();
    }, this.rereadDelayMs);
    this.recheckTimers.add(timer);
  }

  private scheduleReconcile(delayMs = this.reconcileIntervalMs): void {
    if (this.closed) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = null;
      const quiet = Math.min(RECONCILE_QUIET_MS, this.reconcileIntervalMs);
      const quietFor = performance.now() - this.lastActivity;
      if (quietFor < quiet && this.reconcileWaits < RECONCILE_MAX_WAITS) {
        this.reconcileWaits++;
        this.scheduleReconcile(quiet - quietFor);
        return;
      }
      this.reconcileWaits = 0;
      this.run(async () => {
        await this.reconcile();
        this.scheduleReconcile();
      });
    }, delayMs);
  }

  /** The safety net for lost events: re-resolve every target and fingerprint everything. */
  private async reconcile(): Promise<boolean> {
    if (this.closed) return false;
    const started = performance.now();
    const targets = [...this.targets.values()];
    await this.rearm(targets);
    const result = await this.signature.refresh(
      targets.map((target) => target.key),
      { deep: true },
    );
    this.reconciliations++;
    this.syncLinkWatches();
    this.logger?.debug({ ms: elapsed(started), changed: result.changed.length }, 'skill watcher reconciliation');
    const found = result.changed.length > 0 && !this.closed;
    if (found) this.emit(result.changed, 'reconciliation', started);
    await this.reopenStale(result.staleDirs);
    return found;
  }

  /** An entry directory was replaced under the same name: the watch on it is dead, start the root again. */
  private async reopenStale(dirs: string[]): Promise<void> {
    const reopening: Promise<void>[] = [];
    for (const dir of new Set(dirs)) {
      const root = this.targets.get(`skills:${dir}`)?.root;
      const entry = root === null || root === undefined ? undefined : this.roots.get(root);
      if (entry !== undefined) reopening.push(this.reopenRoot(entry, entry.ino));
    }
    await Promise.all(reopening);
  }

  private emit(paths: string[], cause: string, started: number): void {
    const sorted = [...new Set(paths)].sort();
    this.logger?.debug({ cause, paths: sorted.length, ms: elapsed(started) }, 'skill watcher change');
    try {
      this.onChange(sorted);
    } catch (error) {
      this.logger?.warn({ err: error }, 'skill watcher onChange threw');
    }
  }

  // ---- plumbing ----

  /** Refresh options, with the pause for `options.yieldTo` while start() arms. */
  private armingOptions<T extends object>(options: T): T & { yieldTo?: () => Promise<unknown> | null } {
    const yieldTo = this.options.yieldTo;
    return this.arming && yieldTo !== undefined ? { ...options, yieldTo, sliceMs: ARMING_SLICE_MS } : options;
  }

  private newPresence(): PresenceWatcher {
    return new PresenceWatcher({
      mode: this.mode,
      pollIntervalMs: this.pollIntervalMs,
      onError: (error) => this.handleError(error, 'fs.watch'),
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs a background operation; a failure is logged and recorded, never thrown. */
  private run(task: () => Promise<void>): void {
    this.enqueue(task).catch((error) => this.handleError(error, 'internal'));
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
