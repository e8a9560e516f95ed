// The live index of one workspace: the first discovery, then a rebuild whenever the watcher reports a change.
// Rebuilds are coalesced (run-once-queue-one.ts: a burst of edits costs two discoveries, and the queued one always
// sees the latest files and settings). The generation moves only when the `/skills` answer
// would change; the new snapshot replaces the old one in one assignment, then the events of the change are logged.

import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BaseLogger } from 'pino';
import type { AgentViews } from '../discovery/agents/compute-views.js';
import { AgentFileTexts } from '../discovery/agents/file-texts.js';
import { RootWalkMemo } from '../discovery/agents/walk-memo.js';
import { SkillsdError } from '../discovery/errors.js';
import { discoverSkillChange } from '../discovery/pipeline/discover-skills.js';
import { createScanMemo, type ScanMemo } from '../discovery/scan/scan-memo.js';
import { createSkillFileCache, type SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type {
  DiscoveryContext,
  DiscoveryEnv,
  DiscoveryResult,
  Profile,
  Settings,
  SkillDiscovery,
  WinnerChange,
} from '../discovery/types.js';
import type { SkillWatcher } from '../watch/skill-watcher-types.js';
import type { WatchMode } from '../watch/watch-presence.js';
import { AgentViewsState, viewsFingerprint } from './agent-views-state.js';
import { DiagnosticTracker } from './diagnostic-tracker.js';
import { changeEvents, diffSnapshots } from './diff-snapshots.js';
import { EventLog, type PendingEvent } from './event-log.js';
import { RunOnceQueueOne } from './run-once-queue-one.js';
import { type SearchAnswerWithTag, SkillSearchIndex } from './search-index.js';
import { WorkspaceSnapshot } from './snapshot.js';
import { SnapshotSerializer } from './snapshot-json.js';

export type IndexLogger = Pick<BaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

export type DiscoverFn = (
  ctx: DiscoveryContext,
  options?: { cache?: SkillFileCache; scans?: ScanMemo; blocking?: boolean },
) => Promise<SkillDiscovery>;

/** Tuning passed through to the file watcher (tests shorten the delays). */
export interface WatcherTuning {
  coalesceMs?: number;
  rereadDelayMs?: number;
  reconcileIntervalMs?: number;
  usePolling?: boolean;
  pollIntervalMs?: number;
}

export type WatcherStatus = ReturnType<SkillWatcher['status']>;

export interface WorkspaceIndexOptions {
  home: string;
  cwd: string;
  env: DiscoveryEnv;
  settings: Settings;
  logger?: IndexLogger;
  /** Parsed SKILL.md files shared across rebuilds, so a reload re-reads only what changed. */
  cache?: SkillFileCache;
  /** Watch the skill directories (default true). Without it the index only changes on `rebuild()`. */
  watch?: boolean;
  watcher?: WatcherTuning;
  eventLogCapacity?: number;
  /** Discovery itself; the pipeline of docs/discovery.md unless a caller wraps it. */
  discover?: DiscoverFn;
  /** Delay before retrying a first discovery that threw. */
  retryDelayMs?: number;
  /** Live doctor findings (SSE `diagnostic`) up to this many loaded skills (default 2000; 0: never). */
  diagnosticsMaxSkills?: number;
  /** Told after every completed build: how long it took and whether the answer changed (the daemon's metrics). */
  onBuild?: (seconds: number, changed: boolean) => void;
  /**
   * The first discovery (until one succeeds) reads SKILL.md files with synchronous calls (`DiscoverOptions.blocking`):
   * the same answer, several times sooner, while nothing else runs. Only for an owner that waits for `firstIndex`
   * before it serves; later builds never block the event loop.
   */
  blockingFirstIndex?: boolean;
  /**
   * The first watcher is armed once this resolves (the skills directories' own listings are watched from the first
   * index on, as during the arming): a server lets its first answers go out before the watcher's arming takes the event
   * loop. Absent: armed right after the first index.
   */
  armAfter?: Promise<unknown>;
}

const DEFAULT_RETRY_DELAY_MS = 1000;
/** How long a rebuild waits for a reported SKILL.md that is empty to get its content (see `settleRewrites`). */
const REWRITE_WAIT_MS = 100;
const REWRITE_POLL_MS = 4;
/** Above this many reported paths (a burst) the rebuild does not look for rewrites in progress. */
const REWRITE_CHECK_MAX_PATHS = 64;

const SILENT_LOGGER: IndexLogger = { debug() {}, info() {}, warn() {}, error() {} };

export class WorkspaceIndex {
  readonly cwd: string;
  readonly events: EventLog;
  /** Resolves once the first snapshot is built and the watcher is armed. */
  readonly ready: Promise<void>;
  /**
   * Resolves once the first snapshot is built, before the watcher is armed: what a server waits for before it
   * listens. Arming over a large tree (a watch and a fingerprint per entry) takes a while after it; meanwhile the skills
   * directories' own listings are watched (`watchListingsWhileArming`), so a skill directory added right after the
   * first answer is indexed at once, and the re-check after arming catches what changed inside skill directories.
   */
  readonly firstIndex: Promise<void>;
  private resolveFirstIndex: () => void = () => {};
  /** The first watcher is being armed (after `firstIndex`, before `ready`). */
  private arming = false;
  /** A kernel watch of `watchListingsWhileArming` was refused for lack of watches: the watcher will poll. */
  private armingOutOfWatches = false;
  /** Milliseconds timestamp of the last request that used this workspace. */
  lastUsed = Date.now();
  private readonly home: string;
  private readonly env: DiscoveryEnv;
  private settings: Settings;
  private readonly logger: IndexLogger;
  private readonly cache: SkillFileCache | undefined;
  private readonly discover: DiscoverFn;
  private readonly watchEnabled: boolean;
  private readonly watcherTuning: WatcherTuning;
  private readonly retryDelayMs: number;
  private readonly onBuild: ((seconds: number, changed: boolean) => void) | undefined;
  private readonly blockingFirstIndex: boolean;
  private readonly armAfter: Promise<unknown> | undefined;
  private current: WorkspaceSnapshot | undefined;
  private watcher: SkillWatcher | undefined;
  private watchedKey = '';
  /** One build at a time, one waiting: the waiting one answers every rebuild asked for meanwhile. */
  private readonly builds = new RunOnceQueueOne(() => this.build());
  private isClosed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly closeListeners = new Set<() => void>();
  /** The previous build's directory scans: a watcher change re-scans only the directories it touched. */
  private readonly scans = createScanMemo();
  /** What the next build must look at again: the paths the watcher reported, or everything. */
  private pendingPaths = new Set<string>();
  private pendingFull = true;
  /** Per-skill JSON kept between builds: an unchanged skill is not serialised again. */
  private readonly serializer = new SnapshotSerializer();
  /** What the plugin providers read besides skills directories (docs/discovery.md §4a), as the last build found it. */
  private pluginInputs: { files: string[]; markers: string[] } = { files: [], markers: [] };
  /** Doctor findings that appear or go after a rebuild (watched workspaces only). */
  private readonly diagnostics: DiagnosticTracker | undefined;
  /** Ranked search over the loaded skills (docs/api.md §GET /search), following every build. */
  private readonly search = new SkillSearchIndex();
  /** The per-agent views, once requested (docs/agents.md "Live"): kept current by every build from then on. */
  private agentState: AgentViewsState | undefined;
  private agentRequested = false;
  private agentFirst: Promise<AgentViewsState> | null = null;
  /** Grows whenever a build sets the agent views: a first computation overtaken by a build is dropped. */
  private agentEpoch = 0;
  private readonly agentTexts = new AgentFileTexts();
  /** The agents' root walks kept between builds: a change re-walks only the roots it can touch. */
  private readonly agentWalks = new RootWalkMemo();
  /** Per other profile, its discovery's file cache and directory scans, kept like the daemon's own. */
  private readonly profileMemos = new Map<Profile, { cache: SkillFileCache; scans: ScanMemo }>();
  /** The last build's discovery and settings: what a first request of the agent views starts from. */
  private lastResult: { result: DiscoveryResult; settings: Settings } | undefined;

  constructor(options: WorkspaceIndexOptions) {
    this.cwd = options.cwd;
    this.home = options.home;
    this.env = options.env;
    this.settings = options.settings;
    this.logger = options.logger ?? SILENT_LOGGER;
    this.cache = options.cache;
    this.discover = options.discover ?? discoverSkillChange;
    this.watchEnabled = options.watch ?? true;
    this.watcherTuning = options.watcher ?? {};
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.onBuild = options.onBuild;
    this.blockingFirstIndex = options.blockingFirstIndex === true;
    this.armAfter = options.armAfter;
    this.events = new EventLog({ capacity: options.eventLogCapacity });
    this.diagnostics = this.watchEnabled ? this.trackDiagnostics(options.diagnosticsMaxSkills) : undefined;
    let rejectFirstIndex: (error: unknown) => void = () => {};
    this.firstIndex = new Promise<void>((resolve, reject) => {
      this.resolveFirstIndex = resolve;
      rejectFirstIndex = reject;
    });
    this.ready = this.start();
    // Nobody may be awaiting `ready` (an idle workspace being closed): never leave it as an unhandled rejection.
    this.ready.catch(rejectFirstIndex);
    this.firstIndex.catch(() => {});
  }

  /** The current snapshot, or undefined before the first build. */
  get snapshot(): WorkspaceSnapshot | undefined {
    return this.current;
  }

  get isReady(): boolean {
    return this.current !== undefined;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The current snapshot, waiting up to `timeoutMs` for the first build; then 503 `NotReady` (docs/api.md §Errors). */
  async whenReady(timeoutMs: number): Promise<WorkspaceSnapshot> {
    if (this.current !== undefined) return this.current;
    if (timeoutMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([this.ready, timeout]).finally(() => clearTimeout(timer));
    }
    if (this.current !== undefined) return this.current;
    throw new SkillsdError('NotReady', `The skill index of ${this.cwd} is still being built`);
  }

  touch(): void {
    this.lastUsed = Date.now();
  }

  /**
   * Rebuilds now from a full discovery (coalesced with any rebuild in flight); resolves when a build that saw this
   * call has finished.
   */
  rebuild(): Promise<void> {
    this.pendingFull = true;
    return this.schedule();
  }

  /** Rebuilds after the watcher reported `paths`: only the directories holding them are scanned again. */
  private rebuildFor(paths: readonly string[]): Promise<void> {
    for (const path of paths) this.pendingPaths.add(path);
    return this.schedule();
  }

  private schedule(): Promise<void> {
    return this.builds.run();
  }

  /** Re-applies settings (docs/api.md `--config` reload): rebuilds, then logs a `settings` event. */
  async applySettings(settings: Settings, source: string): Promise<void> {
    this.settings = settings;
    await this.rebuild();
    if (this.isClosed) return;
    this.events.append('settings', { source, generation: this.current?.generation ?? 0 });
  }

  /** A refused settings edit: the last good settings stay, clients are told why. */
  reportSettingsError(source: string, message: string): void {
    if (this.isClosed) return;
    this.events.append('settings-error', { source, message });
  }

  /** What a discovery of this workspace depends on now (the doctor re-reads the directories with it). */
  discoveryContext(): DiscoveryContext {
    return { home: this.home, cwd: this.cwd, env: this.env, settings: this.settings };
  }

  /**
   * The per-agent views of the current state: computed on the first call (then kept current by every build, and
   * part of `generation`), waiting for the first index like any answer.
   */
  async agentViews(timeoutMs: number): Promise<AgentViewsState> {
    await this.whenReady(timeoutMs);
    if (this.agentState !== undefined) return this.agentState;
    this.agentRequested = true;
    this.agentFirst ??= this.firstAgentViews().finally(() => {
      this.agentFirst = null;
    });
    const first = this.agentFirst;
    // A first computation that takes longer than a request may wait goes on in the background: 503 NotReady with
    // Retry-After meanwhile, as for a workspace's first index (docs/api.md §Errors).
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, undefined);
    });
    const state = await Promise.race([first, late]).finally(() => clearTimeout(timer));
    if (state !== undefined) return state;
    throw new SkillsdError('NotReady', `The agent views of ${this.cwd} are still being computed`);
  }

  private async firstAgentViews(): Promise<AgentViewsState> {
    const epoch = this.agentEpoch;
    const last = this.lastResult as { result: DiscoveryResult; settings: Settings };
    const generation = this.current?.generation ?? 0;
    const views = await this.computeViews(last.result, last.settings);
    if (this.agentEpoch !== epoch && this.agentState !== undefined) return this.agentState;
    this.agentState = new AgentViewsState(views, generation, viewsFingerprint(views));
    // The views name roots the default view does not read: the watcher follows them from now on.
    if (this.watcher !== undefined) await this.syncWatcher();
    return this.agentState;
  }

  private async computeViews(result: DiscoveryResult, settings: Settings): Promise<AgentViews> {
    // Loaded with the first views asked for: an answer that never needs them (`skillsd ls` answered in-process)
    // does not pay for every agent's rules (docs/performance.md "In-process answers").
    const { computeAgentViews } = await import('../discovery/agents/compute-views.js');
    return computeAgentViews({
      home: this.home,
      cwd: this.cwd,
      env: this.env.agents ?? {},
      texts: this.agentTexts,
      profile: settings.profile,
      // The doctor's own per-file findings, for the files each view reads (docs/agents.md "Diagnostics").
      doctorFindings: async () =>
        (
          await (
            await import('../discovery/doctor/diagnose-workspace.js')
          ).diagnoseWorkspace({
            ctx: { ...this.discoveryContext(), settings },
            skills: result.skills,
            collisions: result.collisions,
            ...(this.cache === undefined ? {} : { cache: this.cache }),
          })
        ).findings,
      walks: this.agentWalks,
      discoverProfile: (profile) => {
        if (profile === settings.profile) return Promise.resolve(result);
        let memo = this.profileMemos.get(profile);
        if (memo === undefined) {
          memo = { cache: createSkillFileCache(), scans: createScanMemo() };
          this.profileMemos.set(profile, memo);
        }
        return this.discover(
          { home: this.home, cwd: this.cwd, env: this.env, settings: { ...settings, profile } },
          { cache: memo.cache, scans: memo.scans },
        ).then((discovery) => discovery.result);
      },
    });
  }

  /** The parsed SKILL.md files shared with discovery, when there is such a cache. */
  get fileCache(): SkillFileCache | undefined {
    return this.cache;
  }

  watcherStatus(): WatcherStatus | undefined {
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
  watchMode(): WatchMode | 'off' {
    // Out of inotify watches, the watcher being armed degrades to polling (skill-watcher.ts): said as soon as known.
    const status = this.watcher?.status();
    if (status !== undefined) return status.mode;
    if (this.arming) return this.watcherTuning.usePolling === true || this.armingOutOfWatches ? 'polling' : 'events';
    return 'off';
  }

  /** Runs `listener` when the workspace closes (event streams end then). */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => {
      this.closeListeners.delete(listener);
    };
  }

  /** Resolves once the doctor's look after the last rebuild is done (tests). */
  diagnosticsIdle(): Promise<void> {
    return this.diagnostics?.idle() ?? Promise.resolve();
  }

  /**
   * The ranked answer of `GET /search` over this workspace. The search index is built on the first search and
   * follows every build after it: a daemon nobody searches holds no postings and reads no bodies (docs/api.md
   * §GET /search).
   */
  async searchAnswer(query: string, limit: number): Promise<SearchAnswerWithTag> {
    return this.search.answer(query, limit);
  }

  /** Resolves once the search index follows every build so far (the benchmark; tests). */
  searchSettled(): Promise<void> {
    return this.search.settled();
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.search.close();
    this.diagnostics?.close();
    clearTimeout(this.retryTimer);
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
    const watcher = this.watcher;
    this.watcher = undefined;
    await watcher?.close();
    // A build in flight finishes against a closed index and is discarded.
    await this.builds.current?.catch(() => {});
  }

  private async start(): Promise<void> {
    for (;;) {
      if (this.isClosed) throw new SkillsdError('NotReady', `The workspace ${this.cwd} was closed`);
      try {
        await this.rebuild();
      } catch (error) {
        this.logger.error({ err: error, cwd: this.cwd }, 'skill discovery failed; retrying');
        await new Promise<void>((resolve) => {
          this.retryTimer = setTimeout(resolve, this.retryDelayMs);
        });
        continue;
      }
      if (this.current !== undefined) break;
    }
    this.resolveFirstIndex();
    if (!this.watchEnabled) return;
    const listings = this.watchListingsWhileArming();
    this.arming = true;
    try {
      if (this.armAfter !== undefined) await this.untilClosedOr(this.armAfter);
      await this.syncWatcher();
    } finally {
      this.arming = false;
      for (const listing of listings) listing.close();
    }
    // An edit made between the first discovery's reads and the watcher being armed has no event: look once more
    // (cheap: unchanged files come from the cache, and an unchanged answer keeps its generation).
    await this.rebuild();
  }

  /** Resolves when `promise` settles or the index closes, whichever comes first. */
  private async untilClosedOr(promise: Promise<unknown>): Promise<void> {
    let stop = (): void => {};
    const closed = new Promise<void>((resolve) => {
      stop = this.onClose(resolve);
    });
    try {
      await Promise.race([promise.catch(() => undefined), closed]);
    } finally {
      stop();
    }
  }

  /**
   * One rebuild, along the change path of docs/architecture.md: discover (through the memos the reported paths
   * invalidated), swap the new snapshot in, diff it against the previous one, let the watcher follow the new answer,
   * then log the change's events.
   */
  private async build(): Promise<void> {
    if (this.isClosed) return;
    const started = performance.now();
    const settings = this.settings;
    // Taken before anything is read: a change reported from here on is for the next build.
    const full = this.pendingFull;
    const paths = this.pendingPaths;
    this.pendingFull = false;
    this.pendingPaths = new Set();
    await this.invalidate(full, paths);
    let discovery: SkillDiscovery;
    try {
      const blocking = this.blockingFirstIndex && this.current === undefined;
      discovery = await this.discover(
        { home: this.home, cwd: this.cwd, env: this.env, settings },
        { cache: this.cache, scans: this.scans, ...(blocking ? { blocking } : {}) },
      );
    } catch (error) {
      this.pendingFull = true;
      throw error;
    }
    if (this.isClosed) return;
    const { result } = discovery;
    this.lastResult = { result, settings };
    // Requested views follow every build and count as part of the answer (docs/agents.md "Live").
    const views = this.agentRequested ? await this.computeViews(result, settings) : undefined;
    if (this.isClosed) return;
    const fingerprint = views === undefined ? undefined : viewsFingerprint(views);
    const viewsChanged = fingerprint !== undefined && fingerprint !== this.agentState?.fingerprint;
    const content = this.serializer.content(this.cwd, settings.profile, result);
    const previous = this.current;
    const defaultChanged = previous === undefined || previous.contentHash !== content.hash;
    const changed = defaultChanged || viewsChanged;
    const generation = nextGeneration(settings, previous, changed, content.hash);
    // Always swap: an unchanged answer may still come with new settings (symlink mode) or new watched dirs.
    const next = new WorkspaceSnapshot({ generation, cwd: this.cwd, settings, result, content });
    this.current = next;
    this.search.follow(next, { full, paths });
    if (views !== undefined && fingerprint !== undefined) {
      this.agentEpoch++;
      this.agentState =
        viewsChanged || this.agentState === undefined
          ? new AgentViewsState(views, generation, fingerprint)
          : this.agentState.generation === generation
            ? this.agentState
            : this.agentState.withGeneration(generation);
    }
    this.pluginInputs = result.pluginInputs ?? { files: [], markers: [] };
    // Only another view changed: an index event that adds, removes and changes nothing of the default view.
    const pending =
      previous === undefined || !changed
        ? []
        : defaultChanged
          ? this.diffEvents(previous, next, discovery.change)
          : [{ type: 'index' as const, data: { generation, added: [], removed: [], changed: [] } }];
    // The watcher follows the new answer's directories and files before clients hear of it: a client that edits a
    // file the answer now depends on (a new plugin's manifest) as soon as the event arrives is then seen.
    // The answer is told even when following it failed (the failure is the build's error, as before).
    try {
      if (this.watcher !== undefined) await this.syncWatcher();
    } finally {
      if (!this.isClosed) {
        if (previous === undefined) this.events.begin(next.contentHash);
        // The last event takes the id of the state it leads to (event-log.ts).
        else if (pending.length > 0) this.events.appendChange(next.contentHash, pending);
        this.onBuild?.((performance.now() - started) / 1000, changed);
        // After every build, changed or not: a near miss (an empty folder, a skill.md) changes no answer.
        this.diagnostics?.schedule(next);
      }
    }
  }

  /**
   * Forgets what the reported `paths` may have changed, in every memo a build reads: the directory scans (all of them
   * for a path that maps to no scanned directory: a `.git` marker, a settings change, the first build), the other
   * profiles' scans and the agents' root walks (docs/agents.md "Live"); then waits out rewrites in progress.
   */
  private async invalidate(full: boolean, paths: ReadonlySet<string>): Promise<void> {
    if (full || !this.scans.invalidate(paths)) this.scans.clear();
    for (const memo of this.profileMemos.values()) if (full || !memo.scans.invalidate(paths)) memo.scans.clear();
    if (full) this.agentWalks.clear();
    else await this.agentWalks.invalidate(paths);
    if (!full) await settleRewrites(paths, new Set(this.pluginInputs.files));
  }

  private trackDiagnostics(maxSkills: number | undefined): DiagnosticTracker {
    return new DiagnosticTracker({
      ...(maxSkills === undefined ? {} : { maxSkills }),
      look: async (snapshot) =>
        (
          await (
            await import('../discovery/doctor/diagnose-workspace.js')
          ).diagnoseWorkspace({
            ctx: { ...this.discoveryContext(), settings: snapshot.settings },
            skills: snapshot.skills,
            collisions: snapshot.collisions,
            ...(this.cache === undefined ? {} : { cache: this.cache }),
          })
        ).findings,
      report: (state, finding) => {
        if (this.isClosed) return;
        const where = `${finding.path}${finding.line === undefined ? '' : `:${finding.line}`}`;
        if (state === 'new') {
          this.logger.warn(
            { cwd: this.cwd, finding },
            `skill ${finding.severity} ${finding.rule} at ${where}: ${finding.message}`,
          );
        } else {
          this.logger.info(
            { cwd: this.cwd, finding },
            `skill ${finding.severity} resolved: ${finding.rule} at ${where}`,
          );
        }
        this.events.append('diagnostic', { state, finding });
      },
      onError: (error) =>
        this.logger.error({ err: error, cwd: this.cwd }, 'the doctor could not look at the workspace'),
    });
  }

  /** The events of a change of the default view: `index`, then `collision` and `warning` (docs/api.md §GET /events). */
  private diffEvents(previous: WorkspaceSnapshot, next: WorkspaceSnapshot, change?: WinnerChange): PendingEvent[] {
    const diff = diffSnapshots(previous, next, change);
    this.logger.debug(
      { cwd: this.cwd, generation: next.generation, added: diff.added, removed: diff.removed, changed: diff.changed },
      'skill index changed',
    );
    return changeEvents(diff, next.generation);
  }

  /**
   * Kernel watches on the skills directories themselves while the watcher arms: a skill directory added, removed or
   * renamed there (what a user does right after the first answer) is rebuilt at once instead of after the arming.
   */
  private watchListingsWhileArming(): FSWatcher[] {
    const listings: FSWatcher[] = [];
    for (const dir of this.current?.scannedDirs ?? []) {
      try {
        const listing = watch(dir, (_event, name) => {
          const path = name === null ? dir : join(dir, name.toString());
          this.rebuildFor([path]).catch((error: unknown) => {
            this.logger.error({ err: error, cwd: this.cwd }, 'skill rebuild failed; keeping the last index');
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
  private async syncWatcher(): Promise<void> {
    if (!this.watchEnabled || this.isClosed || this.current === undefined) return;
    // Plugin registries, settings and manifests are watched like skills directories (docs/discovery.md §4a): a report of one
    // maps to no scanned directory, so the next build runs the plugin providers and the pipeline in full.
    // The agent views' roots, the directories their recursive walks went through, and Gemini's settings files.
    const agentWatch = this.agentState?.views.watch ?? { dirs: [], files: [] };
    const skillDirs = [...new Set([...this.current.scannedDirs, ...agentWatch.dirs])];
    const targets = {
      skillDirs,
      markerDirs: ancestorsOf(this.cwd),
      files: [...new Set([...this.pluginInputs.files, ...agentWatch.files])],
      markerPaths: this.pluginInputs.markers,
    };
    const key = JSON.stringify(targets);
    if (key === this.watchedKey) return;
    this.watchedKey = key;
    if (this.watcher !== undefined) {
      await this.watcher.update(targets);
      return;
    }
    // Loaded on first use: an index that never watches (the OpenAPI generator, `watch: false`) never loads chokidar.
    const { createSkillWatcher } = await import('../watch/skill-watcher.js');
    const watcher = await createSkillWatcher({
      targets,
      onChange: (paths: readonly string[]) => {
        this.logger.debug({ cwd: this.cwd, paths }, 'skill files changed');
        this.rebuildFor(paths).catch((error: unknown) => {
          this.logger.error({ err: error, cwd: this.cwd }, 'skill rebuild failed; keeping the last index');
        });
      },
      logger: this.logger,
      // A skill added while the first watcher arms is rebuilt for at once (the listings are watched meanwhile): the
      // arming's fingerprints wait for that rebuild instead of taking every other slice of its time.
      yieldTo: () => this.builds.current,
      ...this.watcherTuning,
    });
    if (this.isClosed) {
      await watcher.close();
      return;
    }
    this.watcher = watcher;
    // A rebuild that finished while the watcher was starting may have moved the directories.
    await this.syncWatcher();
  }
}

/**
 * `counter` (default): 1 for the first snapshot, one more for each change of the answer (docs/api.md §GET /skills).
 * `content`: a number read from the content hash, so that replicas serving the same files agree on it whatever reloads
 * each went through (docs/deploy.md §Replicas); it changes exactly when the answer changes but does not grow.
 */
function nextGeneration(
  settings: Settings,
  previous: WorkspaceSnapshot | undefined,
  changed: boolean,
  contentHash: string,
): number {
  if (settings.server.generation === 'content') return contentGeneration(contentHash);
  if (previous === undefined) return 1;
  return changed ? previous.generation + 1 : previous.generation;
}

/** 13 hex digits: 52 bits, exact as a JSON number in every client. */
export function contentGeneration(contentHash: string): number {
  return Number.parseInt(contentHash.slice(0, 13), 16);
}

/**
 * A plain rewrite of a file (`writeFile`: open with O_TRUNC, then write) is reported when the truncation happens, and a
 * rebuild that fast reads an empty SKILL.md: the skill would be removed in one `index` event and added back in the
 * next, when the watcher's re-read sees the content. So a reported SKILL.md that is empty gets up to REWRITE_WAIT_MS
 * to be written; one still empty then is read as it is. The same holds for a plugin registry or settings file
 * (`pluginFiles`): read empty, it would be a parse warning or every plugin gone for one event.
 */
async function settleRewrites(paths: ReadonlySet<string>, pluginFiles: ReadonlySet<string>): Promise<void> {
  if (paths.size > REWRITE_CHECK_MAX_PATHS) return;
  const deadline = Date.now() + REWRITE_WAIT_MS;
  for (const path of paths) {
    if (basename(path) !== 'SKILL.md' && !pluginFiles.has(path)) continue;
    while ((await isEmptyFile(path)) && Date.now() < deadline) await sleep(REWRITE_POLL_MS);
  }
}

async function isEmptyFile(path: string): Promise<boolean> {
  const stats = await stat(path).catch(() => undefined);
  return stats?.isFile() === true && stats.size === 0;
}

/** CWD and every ancestor up to the root: a `.git` appearing in any of them moves REPO (docs/discovery.md §0). */
function ancestorsOf(dir: string): string[] {
  const out = [dir];
  for (let current = dir, parent = dirname(dir); parent !== current; current = parent, parent = dirname(parent)) {
    out.push(parent);
  }
  return out;
}
