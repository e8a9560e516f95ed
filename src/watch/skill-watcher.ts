// Tells the index when to run discovery again. It watches exactly what discovery reads (docs/discovery.md §3: every skills
// directory, its entries one level deep, their SKILL.md; §0: the `.git` markers that decide REPO) and reports the
// changed paths, coalesced. Skills directories are watched by watch-skills-root.ts (the kernel's watches, or chokidar
// when polling); the pitfalls of file watching on Node 20 are handled here and in the parts named below:
// - a write seen mid-way (a truncate, then the content), or a second write dropped (chokidar drops one < 50 ms after
//   the first): each onChange is preceded by a fingerprint of what it reports, re-checked `rereadDelayMs` later, and
//   reported again if it moved;
// - a root deleted and recreated, or a path whose grandparent is missing: never watched directly; the nearest
//   existing ancestor is watched for the next name (watch-presence.ts) and the watch moves as directories appear;
// - links are not followed by the root watches, whose depth is bounded; symlinked skills are watched through their
//   real targets, and a skills directory that is a dangling link is watched where its target would appear;
// - lost events (inotify overflow, network file systems): a periodic reconciliation scan compares fingerprints;
// - watches exhausted (ENOSPC, EMFILE): the whole watcher switches to polling instead of failing.
// This file holds the order of things (arming, the flush, reconciliation, the switch to polling); each part has its
// own file: the target list (watch-targets.ts), the root watches (root-watches.ts) and what their events mean
// (root-event-route.ts), the watches on link targets (link-watches.ts), the changes waiting for the next flush and
// their re-check (change-coalescer.ts), when reconciliation runs (reconcile-timer.ts). What the watcher takes and
// gives is skill-watcher-types.ts.

import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChangeCoalescer } from './change-coalescer.js';
import { elapsed } from './elapsed-ms.js';
import { LinkWatches } from './link-watches.js';
import { ReconcileTimer } from './reconcile-timer.js';
import { routeRootEvent } from './root-event-route.js';
import { type RootEntry, RootWatches } from './root-watches.js';
import type {
  SkillWatcher,
  SkillWatcherOptions,
  WatcherLogger,
  WatcherStatus,
  WatchTargets,
} from './skill-watcher-types.js';
import { PresenceWatcher, type WatchMode } from './watch-presence.js';
import { resolveTarget } from './watch-resolve.js';
import { WatchSignature } from './watch-signature.js';
import type { SkillsRootWatch } from './watch-skills-root.js';
import { countPendingAncestors, isTargetKey, newTarget, type Target, wantedTargets } from './watch-targets.js';

const DEFAULT_COALESCE_MS = 3;
const DEFAULT_REREAD_DELAY_MS = 75;
const DEFAULT_RECONCILE_INTERVAL_MS = 30_000;
const DEFAULT_POLL_INTERVAL_MS = 250;
/**
 * Slices of fingerprints taken beside other work (the first arming's, a reconciliation's): short, since each
 * file-system round trip of a rebuild running meanwhile (a skill added right after the first answer, an edit seen
 * during a reconciliation) waits for the slice in progress to end.
 */
const SHARED_SLICE_MS = 1;
/** Targets re-resolved by a reconciliation between two chances for a due flush to run. */
const REARM_STEP = 64;
/** Errors that mean "no more watches": inotify watches (ENOSPC) or file descriptors exhausted. */
const EXHAUSTION_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'ENOMEM']);

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
  private readonly pollIntervalMs: number;

  private mode: WatchMode;
  private presence: PresenceWatcher;
  private readonly signature = new WatchSignature();
  private readonly targets = new Map<string, Target>();
  private readonly roots: RootWatches;
  private readonly linkWatches: LinkWatches;
  /** `WatchSignature.linksVersion` when the link watches were last synced. */
  private syncedLinks = -1;

  private readonly changes: ChangeCoalescer;
  private readonly reconcileTimer: ReconcileTimer;

  /** Every operation that reads or changes the watch state runs here, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** start() is arming the first targets: fingerprints give way to `options.yieldTo`. */
  private arming = false;
  /**
   * A flush fell due and has not run yet. Its task waits in the queue; a reconciliation ahead of it runs it between
   * two of its steps instead (`flushIfDue`), and the task then finds nothing to do.
   */
  private flushDue = false;
  private closing: Promise<void> | null = null;
  private reconciliations = 0;
  private lastError: string | null = null;

  constructor(private readonly options: SkillWatcherOptions) {
    this.onChange = options.onChange;
    this.logger = options.logger;
    this.changes = new ChangeCoalescer({
      coalesceMs: Math.max(0, options.coalesceMs ?? DEFAULT_COALESCE_MS),
      rereadDelayMs: Math.max(1, options.rereadDelayMs ?? DEFAULT_REREAD_DELAY_MS),
      onActivity: () => this.reconcileTimer.noteActivity(),
      onFlushDue: () => {
        this.flushDue = true;
        this.run(async () => {
          await this.flushIfDue();
        });
      },
    });
    this.pollIntervalMs = Math.max(1, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
    this.mode = options.usePolling === true ? 'polling' : 'events';
    this.presence = this.newPresence();
    this.roots = new RootWatches({
      mode: () => this.mode,
      pollIntervalMs: this.pollIntervalMs,
      logger: this.logger,
      closed: () => this.closed,
      onEvent: (entry, event, path) => this.onRootEvent(entry, event, path),
      onMissed: (entry, watch, paths) => this.onRootMissed(entry, watch, paths),
      onError: (error, source) => this.handleError(error, source),
      onArmed: (entry) => {
        // Anything written between the last fingerprint and the root watch being armed has no event: look again.
        for (const alias of entry.aliases) this.changes.addKey({ kind: 'dir', path: alias }, true);
        this.changes.scheduleFlush();
      },
    });
    this.linkWatches = new LinkWatches((entryPaths) => {
      for (const path of entryPaths) this.changes.addKey({ kind: 'entry', path });
      this.changes.scheduleFlush();
    });
    this.reconcileTimer = new ReconcileTimer(
      Math.max(1, options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS),
      () =>
        this.run(async () => {
          await this.reconcile();
          this.reconcileTimer.schedule();
        }),
    );
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
      this.reconcileTimer.schedule();
      this.logger?.debug({ ms: elapsed(started), mode: this.mode, status: this.status() }, 'skill watcher ready');
    });
  }

  update(targets: WatchTargets): Promise<void> {
    return this.enqueue(async () => {
      if (this.closed) return;
      const started = performance.now();
      const added = this.applyTargets(targets);
      const readAt = targets.readAt ?? new Map<string, number>();
      const changedSinceRead = await this.armNew(added, readAt);
      // The caller read these before they were watched (a rebuild found a new plugin manifest or skills directory,
      // then asked for it to be watched): a change made in between is in no fingerprint and has no event. Reported
      // once armed, they are read again; a rebuild that finds them as they were changes nothing. A target whose read
      // time the caller gave is reported only where it changed since: the views' thousands of walked directories
      // are not all read again after their first computation (docs/agents.md "Live").
      const known = (target: Target) =>
        readAt.has(target.path) && (target.key.kind === 'dir' || target.key.kind === 'file');
      const reported = added.filter((target) => !known(target)).map((target) => target.path);
      reported.push(...changedSinceRead);
      if (reported.length > 0 && !this.closed) this.emit(reported, 'armed', started);
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
    return {
      mode: this.mode,
      watchedPaths: this.presence.size() + this.roots.watchedPaths(),
      pendingAncestors: countPendingAncestors(this.targets.values()),
      reconciliations: this.reconciliations,
      lastError: this.lastError,
    };
  }

  close(): Promise<void> {
    if (this.closing !== null) return this.closing;
    this.closed = true;
    this.changes.stop();
    this.reconcileTimer.stop();
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
    const wanted = wantedTargets(next);
    for (const [id, target] of this.targets) {
      if (wanted.has(id)) continue;
      this.targets.delete(id);
      this.changes.forget(target);
      target.unwatchPresence?.();
      target.unwatchPresence = null;
      target.unwatchLink?.();
      target.unwatchLink = null;
      if (target.root !== null) this.roots.detach(target.root, target.path);
      target.root = null;
      this.signature.drop(target.key);
    }
    const added: Target[] = [];
    for (const [id, { kind, path }] of wanted) {
      if (this.targets.has(id)) continue;
      const target = newTarget(kind, path);
      this.targets.set(id, target);
      added.push(target);
    }
    return added;
  }

  /**
   * Fingerprints new targets, then arms their watches, then looks again: a change made while the watches were being
   * set up (before the root watch was armed) has no event, but shows as a difference from that first fingerprint.
   */
  private async armNew(added: Target[], readAt?: ReadonlyMap<string, number>): Promise<string[]> {
    const keys = added.map((target) => target.key);
    const { changedSinceRead } = await this.signature.refresh(
      keys,
      this.armingOptions(
        readAt === undefined
          ? { deep: true }
          : {
              deep: true,
              readAt,
              ...(this.options.readAtSlackMs === undefined ? {} : { readAtSlackMs: this.options.readAtSlackMs }),
            },
      ),
    );
    await this.rearm(added);
    this.syncLinkWatches();
    for (const key of keys) {
      this.changes.addKey(key, key.kind === 'dir');
    }
    await this.flush();
    return changedSinceRead;
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
        if (target.root !== null) this.roots.detach(target.root, target.path);
        target.root = real;
        if (real !== null) opening.push(this.roots.attach(real, resolution.ino, target.path));
      } else if (real !== null) {
        const entry = this.roots.get(real);
        // Deleted and recreated under the same name: the old watch is dead.
        if (entry !== undefined && (entry.ino !== resolution.ino || suspect.has(target))) {
          opening.push(this.roots.reopen(entry, resolution.ino));
        }
      }
    });
    await Promise.all(opening);
  }

  private async teardownWatches(): Promise<void> {
    for (const target of this.targets.values()) {
      target.unwatchPresence?.();
      target.unwatchPresence = null;
      target.unwatchLink?.();
      target.unwatchLink = null;
      target.root = null;
    }
    this.linkWatches.close();
    // Every root is forgotten at once, the presence watches closed, then the root watches waited for.
    const closingRoots = this.roots.closeAll();
    this.presence.close();
    await closingRoots;
  }

  /**
   * Symlinked entries and SKILL.md files: watch where they really are (root watches do not follow links). Only when
   * the link targets may have changed: listing them all costs a pass over every link (≈ 2,500 at 50,000 skills) on
   * each flush otherwise.
   */
  private syncLinkWatches(): void {
    if (this.closed) return;
    const version = this.signature.linksVersion;
    if (version === this.syncedLinks && this.linkWatches.current) return;
    this.syncedLinks = version;
    this.linkWatches.sync(this.signature.linkTargets(), this.presence);
  }

  // ---- events ----

  private onRootEvent(entry: RootEntry, event: string, path: string): void {
    if (this.closed) return;
    this.logger?.debug({ event, path }, 'skill watcher event');
    routeRootEvent(entry, event, path, this.changes, (alias) => {
      const target = this.targets.get(`skills:${alias}`);
      if (target !== undefined) this.markDirty(target, true);
    });
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
        await this.roots.reopen(entry, entry.ino);
      }
    });
  }

  private markDirty(target: Target, suspect = false): void {
    if (this.closed) return;
    this.changes.markDirty(target, suspect);
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

  // ---- the flush and reconciliation ----

  private async flush(): Promise<void> {
    if (this.closed) return;
    const { dirty, suspect, suspectEntries } = this.changes.takeDirty();
    if (dirty.length > 0) {
      await this.rearm(dirty, suspect);
      for (const target of dirty) this.changes.addKey(target.key);
    }
    const { paths, keys: noted, deepDirs } = this.changes.takeChanges();
    // A re-check or an event may concern a target removed by update() since: not ours any more.
    const keys = noted.filter((key) => isTargetKey(this.targets, key));
    if (paths.size === 0 && keys.length === 0) return;
    const started = performance.now();
    // The baseline the re-check compares with, taken before the index reads anything.
    const result = await this.signature.refresh(keys, this.armingOptions({ deepDirs }));
    for (const path of result.changed) paths.add(path);
    this.syncLinkWatches();
    if (paths.size > 0 && !this.closed) {
      this.emit([...paths], 'events', started);
      this.changes.reported(keys, paths.size);
    }
    // An entry that vanished and is a directory again: the watch on it may be the dead one.
    const stale = [...result.staleDirs];
    for (const path of suspectEntries) if (this.signature.isDirectoryEntry(path)) stale.push(dirname(path));
    await this.reopenStale(stale);
  }

  /**
   * The safety net for lost events: re-resolve every target and fingerprint everything. At 10,000 skills with every
   * agent's view followed this takes about half a second; an edit's flush falling due meanwhile runs between its steps
   * instead of after it (docs/index-and-events.md "How changes are seen"), so the edit's event is not held back.
   */
  private async reconcile(): Promise<boolean> {
    if (this.closed) return false;
    const started = performance.now();
    try {
      const targets = [...this.targets.values()];
      for (let from = 0; from < targets.length; from += REARM_STEP) {
        await this.rearm(targets.slice(from, from + REARM_STEP));
        await this.flushIfDue();
      }
      const result = await this.signature.refresh(
        targets.map((target) => target.key),
        // Short slices: a rebuild the flush started gets a turn every millisecond, not every 4.
        { deep: true, yieldTo: () => this.flushIfDue(), sliceMs: SHARED_SLICE_MS },
      );
      this.reconciliations++;
      this.syncLinkWatches();
      this.logger?.debug({ ms: elapsed(started), changed: result.changed.length }, 'skill watcher reconciliation');
      const found = result.changed.length > 0 && !this.closed;
      if (found) this.emit(result.changed, 'reconciliation', started);
      await this.reopenStale(result.staleDirs);
      return found;
    } finally {
      await this.flushIfDue();
    }
  }

  /**
   * The flush that fell due, run now: from its own task, or from a reconciliation between two of its steps (never
   * inside one: a step's resolutions are applied before a flush resolves targets again). Null when none is due.
   */
  private flushIfDue(): Promise<void> | null {
    if (!this.flushDue) return null;
    this.flushDue = false;
    return this.flush().catch((error: unknown) => this.handleError(error, 'internal'));
  }

  /** An entry directory was replaced under the same name: the watch on it is dead, start the root again. */
  private async reopenStale(dirs: string[]): Promise<void> {
    const reopening: Promise<void>[] = [];
    for (const dir of new Set(dirs)) {
      const root = this.targets.get(`skills:${dir}`)?.root;
      const entry = root === null || root === undefined ? undefined : this.roots.get(root);
      if (entry !== undefined) reopening.push(this.roots.reopen(entry, entry.ino));
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
    return this.arming && yieldTo !== undefined ? { ...options, yieldTo, sliceMs: SHARED_SLICE_MS } : options;
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
