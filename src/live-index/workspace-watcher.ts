// The file watcher of one workspace's index (docs/architecture.md "The change path", steps 1 and 7): armed after the
// first index, pointed after every build at what the new answer depends on, and reporting changed paths back to the
// index (workspace-index.ts) for a rebuild. While the first watcher arms, the skills directories' own listings are
// watched so that a skill added right after the first answer is not missed.

import { type FSWatcher, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SkillWatcher } from '../watch/skill-watcher-types.js';
import type { WatchMode } from '../watch/watch-presence.js';
import type { WorkspaceSnapshot } from './snapshot.js';
import type { IndexLogger, WatcherStatus, WatcherTuning } from './workspace-index-options.js';

export interface WorkspaceWatcherOptions {
  cwd: string;
  /** Watch at all (the index's `watch` option). */
  enabled: boolean;
  tuning: WatcherTuning;
  logger: IndexLogger;
  /** The index is closed: nothing more is watched. */
  closed: () => boolean;
  /** The current snapshot: its scanned directories are watched. */
  snapshot: () => WorkspaceSnapshot | undefined;
  /** The agent views' roots, the directories their walks went through and Gemini's settings files, once requested. */
  /** What the agent views read besides the default view's, and the wall-clock time they read it all at or after. */
  agentWatch: () => { dirs: string[]; files: string[]; readSince: number } | undefined;
  /** What the plugin providers read besides skills directories (docs/discovery.md §4a), as the last build found it. */
  pluginInputs: () => { files: string[]; markers: string[] };
  /** Rebuilds after the watcher reported `paths`. */
  rebuildFor: (paths: readonly string[]) => Promise<void>;
  /** The build in flight, if any: the first arming yields to it. */
  buildInFlight: () => Promise<void> | null;
}

export class WorkspaceWatcher {
  private watcher: SkillWatcher | undefined;
  private watchedKey = '';
  /**
   * The lists the last `sync` was pointed at: the same lists again (an edit's build, which moves no directory) return
   * before their key is made, which at 10,000 skills with every view followed costs most of a millisecond per build.
   */
  private watchedLists: ReadonlyArray<readonly string[]> = [];
  /** The first watcher is being armed (after `firstIndex`, before `ready`). */
  private arming = false;
  /** A kernel watch of `watchListingsWhileArming` was refused for lack of watches: the watcher will poll. */
  private armingOutOfWatches = false;

  constructor(private readonly options: WorkspaceWatcherOptions) {}

  /** A watcher is armed (not only being armed). */
  get armed(): boolean {
    return this.watcher !== undefined;
  }

  /**
   * Arms the first watcher, once `wait` (when given) settles. Meanwhile the skills directories' own listings are
   * watched (`watchListingsWhileArming`).
   */
  async arm(wait: (() => Promise<void>) | undefined): Promise<void> {
    const listings = this.watchListingsWhileArming();
    this.arming = true;
    try {
      if (wait !== undefined) await wait();
      await this.sync();
    } finally {
      this.arming = false;
      for (const listing of listings) listing.close();
    }
  }

  status(): WatcherStatus | undefined {
    return this.watcher?.status();
  }

  /** A watcher is armed or being armed for this workspace. */
  get watching(): boolean {
    return this.watcher !== undefined || this.arming;
  }

  /**
   * How changes are seen: the armed watcher's mode; while the first watcher arms (the daemon already listens), the
   * mode it is being armed in; `off` when not watching.
   */
  mode(): WatchMode | 'off' {
    // Out of inotify watches, the watcher being armed degrades to polling (skill-watcher.ts): said as soon as known.
    const status = this.watcher?.status();
    if (status !== undefined) return status.mode;
    if (this.arming) return this.options.tuning.usePolling === true || this.armingOutOfWatches ? 'polling' : 'events';
    return 'off';
  }

  async close(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    await watcher?.close();
  }

  /**
   * Kernel watches on the skills directories themselves while the watcher arms: a skill directory added, removed or
   * renamed there (what a user does right after the first answer) is rebuilt at once instead of after the arming.
   */
  private watchListingsWhileArming(): FSWatcher[] {
    const { cwd, logger } = this.options;
    const listings: FSWatcher[] = [];
    for (const dir of this.options.snapshot()?.scannedDirs ?? []) {
      try {
        const listing = watch(dir, (_event, name) => {
          const path = name === null ? dir : join(dir, name.toString());
          this.options.rebuildFor([path]).catch((error: unknown) => {
            logger.error({ err: error, cwd }, 'skill rebuild failed; keeping the last index');
          });
        });
        // A directory removed meanwhile: the arming and the re-check see it.
        listing.on('error', () => listing.close());
        listings.push(listing);
      } catch (error) {
        // Missing or unreadable: nothing to watch here until the watcher is armed. Out of watches: it will poll.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOSPC' || code === 'EMFILE') this.armingOutOfWatches = true;
      }
    }
    return listings;
  }

  /** Points the watcher at the directories the current snapshot was discovered from. */
  async sync(): Promise<void> {
    const { cwd, logger } = this.options;
    const current = this.options.snapshot();
    if (!this.options.enabled || this.options.closed() || current === undefined) return;
    // Plugin registries, settings and manifests are watched like skills directories (docs/discovery.md §4a): a report of one
    // maps to no scanned directory, so the next build runs the plugin providers and the pipeline in full.
    // The agent views' roots, the directories their recursive walks went through, and Gemini's settings files.
    const agentWatch = this.options.agentWatch() ?? { dirs: [], files: [], readSince: 0 };
    const pluginInputs = this.options.pluginInputs();
    const lists = [current.scannedDirs, agentWatch.dirs, agentWatch.files, pluginInputs.files, pluginInputs.markers];
    if (lists.every((list, i) => sameStrings(list, this.watchedLists[i]))) return;
    const skillDirs = [...new Set([...current.scannedDirs, ...agentWatch.dirs])];
    const targets = {
      skillDirs,
      markerDirs: ancestorsOf(cwd),
      files: [...new Set([...pluginInputs.files, ...agentWatch.files])],
      markerPaths: pluginInputs.markers,
    };
    const key = JSON.stringify(targets);
    this.watchedLists = lists;
    if (key === this.watchedKey) return;
    this.watchedKey = key;
    if (this.watcher !== undefined) {
      // What only the views read was read by them since `readSince`: once watched, only what changed since is
      // reported (skill-watcher-types.ts `readAt`). The default view's own directories are reported whole, as always.
      const readAt = new Map<string, number>();
      if (agentWatch.dirs.length > 0 || agentWatch.files.length > 0) {
        const scanned = new Set(current.scannedDirs);
        const pluginFiles = new Set(pluginInputs.files);
        for (const dir of agentWatch.dirs) if (!scanned.has(dir)) readAt.set(dir, agentWatch.readSince);
        for (const file of agentWatch.files) if (!pluginFiles.has(file)) readAt.set(file, agentWatch.readSince);
      }
      await this.watcher.update({ ...targets, readAt });
      return;
    }
    // Loaded on first use: an index that never watches (the OpenAPI generator, `watch: false`) never loads chokidar.
    const { createSkillWatcher } = await import('../watch/skill-watcher.js');
    const watcher = await createSkillWatcher({
      targets,
      onChange: (paths: readonly string[]) => {
        logger.debug({ cwd, paths }, 'skill files changed');
        this.options.rebuildFor(paths).catch((error: unknown) => {
          logger.error({ err: error, cwd }, 'skill rebuild failed; keeping the last index');
        });
      },
      logger,
      // A skill added while the first watcher arms is rebuilt for at once (the listings are watched meanwhile): the
      // arming's fingerprints wait for that rebuild instead of taking every other slice of its time.
      yieldTo: () => this.options.buildInFlight(),
      ...this.options.tuning,
    });
    if (this.options.closed()) {
      await watcher.close();
      return;
    }
    this.watcher = watcher;
    // A rebuild that finished while the watcher was starting may have moved the directories.
    await this.sync();
  }
}

/** The same strings in the same order. */
function sameStrings(a: readonly string[], b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** CWD and every ancestor up to the root: a `.git` appearing in any of them moves REPO (docs/discovery.md §0). */
function ancestorsOf(dir: string): string[] {
  const out = [dir];
  for (let current = dir, parent = dirname(dir); parent !== current; current = parent, parent = dirname(parent)) {
    out.push(parent);
  }
  return out;
}
