// The live index of one workspace: the first discovery, then a rebuild whenever the watcher reports a change.
// Rebuilds are coalesced (run-once-queue-one.ts: a burst of edits costs two discoveries, and the queued one always
// sees the latest files and settings). The generation moves only when the `/skills` answer
// would change; the new snapshot replaces the old one in one assignment, then the events of the change are logged.
// The parts a build drives live beside this file: the watcher (workspace-watcher.ts), the agent views
// (workspace-agent-views.ts), the live doctor (workspace-diagnostics.ts) and the generation rule (snapshot-generation.ts).

import type { ViewId } from '../discovery/agents/types.js';
import { SkillsdError } from '../discovery/errors.js';
import { discoverSkillChange } from '../discovery/pipeline/discover-skills.js';
import { createScanMemo } from '../discovery/scan/scan-memo.js';
import type { SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type { DiscoveryContext, DiscoveryEnv, Settings, SkillDiscovery, WinnerChange } from '../discovery/types.js';
import type { WatchMode } from '../watch/watch-presence.js';
import type { AgentViewsState } from './agent-views-state.js';
import type { DiagnosticTracker } from './diagnostic-tracker.js';
import { changeEvents, diffSnapshots } from './diff-snapshots.js';
import { EventLog, type PendingEvent } from './event-log.js';
import { RunOnceQueueOne } from './run-once-queue-one.js';
import { type SearchAnswerWithTag, SkillSearchIndex } from './search-index.js';
import { settleRewrites } from './settle-rewrites.js';
import { WorkspaceSnapshot } from './snapshot.js';
import { nextGeneration } from './snapshot-generation.js';
import { SnapshotSerializer } from './snapshot-json.js';
import { WorkspaceAgentViews } from './workspace-agent-views.js';
import { trackWorkspaceDiagnostics } from './workspace-diagnostics.js';
import type { DiscoverFn, IndexLogger, WatcherStatus, WorkspaceIndexOptions } from './workspace-index-options.js';
import { WorkspaceWatcher } from './workspace-watcher.js';

const DEFAULT_RETRY_DELAY_MS = 1000;

const SILENT_LOGGER: IndexLogger = { debug() {}, info() {}, warn() {}, error() {} };

export class WorkspaceIndex {
  readonly cwd: string;
  readonly events: EventLog;
  /** Resolves once the first snapshot is built and the watcher is armed. */
  readonly ready: Promise<void>;
  /**
   * Resolves once the first snapshot is built, before the watcher is armed: what a server waits for before it
   * listens. Arming over a large tree (a watch and a fingerprint per entry) takes a while after it; meanwhile the skills
   * directories' own listings are watched (`WorkspaceWatcher.arm`), so a skill directory added right after the
   * first answer is indexed at once, and the re-check after arming catches what changed inside skill directories.
   */
  readonly firstIndex: Promise<void>;
  private resolveFirstIndex: () => void = () => {};
  /** Milliseconds timestamp of the last request that used this workspace. */
  lastUsed = Date.now();
  /** Told when the views are first set (again): the registry bounds how many workspaces keep views. */
  onViewsKept: (() => void) | undefined;
  private readonly home: string;
  private readonly env: DiscoveryEnv;
  private settings: Settings;
  private readonly logger: IndexLogger;
  private readonly cache: SkillFileCache | undefined;
  private readonly discover: DiscoverFn;
  private readonly watchEnabled: boolean;
  private readonly retryDelayMs: number;
  private readonly onBuild: ((seconds: number, changed: boolean) => void) | undefined;
  private readonly blockingFirstIndex: boolean;
  private readonly armAfter: Promise<unknown> | undefined;
  private current: WorkspaceSnapshot | undefined;
  private readonly watcher: WorkspaceWatcher;
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
  private readonly agents: WorkspaceAgentViews;
  /** Set from a build's swap until its events are logged. */
  private announcing: Promise<void> | undefined;

  constructor(options: WorkspaceIndexOptions) {
    this.cwd = options.cwd;
    this.home = options.home;
    this.env = options.env;
    this.settings = options.settings;
    this.logger = options.logger ?? SILENT_LOGGER;
    this.cache = options.cache;
    this.discover = options.discover ?? discoverSkillChange;
    this.watchEnabled = options.watch ?? true;
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    this.onBuild = options.onBuild;
    this.blockingFirstIndex = options.blockingFirstIndex === true;
    this.armAfter = options.armAfter;
    this.events = new EventLog({ capacity: options.eventLogCapacity });
    this.diagnostics = this.watchEnabled
      ? trackWorkspaceDiagnostics({
          cwd: this.cwd,
          maxSkills: options.diagnosticsMaxSkills,
          cache: this.cache,
          logger: this.logger,
          events: this.events,
          discoveryContext: () => this.discoveryContext(),
          closed: () => this.isClosed,
        })
      : undefined;
    this.agents = new WorkspaceAgentViews({
      home: this.home,
      cwd: this.cwd,
      env: this.env,
      cache: this.cache,
      discover: this.discover,
      discoveryContext: () => this.discoveryContext(),
      onViewsSet: () => this.onViewsKept?.(),
      onFirstViews: async () => {
        if (this.watcher.armed) await this.watcher.sync();
      },
      armed: () => this.ready,
      ...(options.firstViewsGate === undefined ? {} : { gate: options.firstViewsGate }),
      generation: () => this.current?.generation ?? 0,
      onViewsChanged: (ids) => this.viewsChanged(ids),
      onWatchChanged: async () => {
        if (this.watcher.armed && !this.isClosed) await this.watcher.sync();
      },
      announced: () => this.announcing,
      onUpdateError: (error) => this.logger.error({ err: error, cwd: this.cwd }, 'agent views update failed'),
      ...(options.agentViewsIdleMs === undefined ? {} : { idleMs: options.agentViewsIdleMs }),
    });
    this.watcher = new WorkspaceWatcher({
      cwd: this.cwd,
      enabled: this.watchEnabled,
      tuning: options.watcher ?? {},
      logger: this.logger,
      closed: () => this.isClosed,
      snapshot: () => this.current,
      agentWatch: () => this.agents.watched(),
      pluginInputs: () => this.pluginInputs,
      rebuildFor: (paths) => this.rebuildFor(paths),
      buildInFlight: () => this.builds.current,
    });
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
   * part of `generation`), waiting for the first index like any answer. `findings: false` for an answer that reads
   * no diagnostics: it does not wait for the doctor's findings of the first views (docs/agents.md "Live").
   */
  async agentViews(timeoutMs: number, findings = true): Promise<AgentViewsState> {
    await this.whenReady(timeoutMs);
    return this.agents.request(timeoutMs, findings);
  }

  /** One view's event log (docs/api.md §GET /events `agent=`), with the current views; requests them like `agentViews`. */
  async agentEvents(id: ViewId, timeoutMs: number): Promise<{ log: EventLog; state: AgentViewsState }> {
    await this.whenReady(timeoutMs);
    return this.agents.events(id, timeoutMs);
  }

  /** Resolves once the views' updates queued so far are applied (tests; the benchmark). */
  agentViewsSettled(): Promise<void> {
    return this.agents.idle();
  }

  /** The per-agent views are computed and kept current (requested, not dropped for idleness). */
  get agentViewsKept(): boolean {
    return this.agents.armed;
  }

  /** The per-agent views are held (computed and not dropped yet), used of late or not. */
  get agentViewsHeld(): boolean {
    return this.agents.state !== undefined;
  }

  /** Drops the views now unless a stream follows them: true when dropped (the registry's bound). */
  dropAgentViews(): boolean {
    return this.agents.dropUnlessFollowed();
  }

  /** Keeps the views current (not dropped for idleness) until the returned function is called: a stream follows them. */
  holdViews(): () => void {
    return this.agents.hold();
  }

  /** The parsed SKILL.md files shared with discovery, when there is such a cache. */
  get fileCache(): SkillFileCache | undefined {
    return this.cache;
  }

  watcherStatus(): WatcherStatus | undefined {
    return this.watcher.status();
  }

  /** A watcher is armed or being armed for this workspace. */
  get watching(): boolean {
    return this.watcher.watching;
  }

  /**
   * How changes are seen: the armed watcher's mode; while the first watcher arms (the daemon already listens), the
   * mode it is being armed in; `off` when not watching.
   */
  watchMode(): WatchMode | 'off' {
    return this.watcher.mode();
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
   * The ranked answer of `GET /search` over this workspace. The search index is built after the first index of a live
   * workspace of 50 skills or more, else on the first search, and follows every build after it (docs/api.md
   * §GET /search). `signal`: the request's own (its work stops when every request waiting for it has gone).
   */
  async searchAnswer(query: string, limit: number, signal?: AbortSignal): Promise<SearchAnswerWithTag> {
    return this.search.answer(query, limit, signal);
  }

  /** Whether the search index holds every build so far; asking does not start it (tests). */
  get searchBuilt(): boolean {
    return this.search.built;
  }

  /** Skills in the search index now (tests). */
  get searchSize(): number {
    return this.search.size;
  }

  /** Records the search index's last update compared with what it holds (tests: an edit costs what it changed). */
  get searchLastUpdateVisited(): number {
    return this.search.lastUpdateVisited;
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
    await this.watcher.close();
    // A build in flight finishes against a closed index and is discarded.
    await this.builds.current?.catch(() => {});
    await this.agents.idle().catch(() => {});
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
    // A live workspace builds its search index now, in slices, so that no first search waits (docs/api.md §GET /search).
    if (this.watchEnabled) this.search.buildAhead();
    if (!this.watchEnabled) return;
    const armAfter = this.armAfter;
    await this.watcher.arm(armAfter === undefined ? undefined : () => this.untilClosedOr(armAfter));
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
    this.agents.lastResult = { result, settings };
    const content = this.serializer.content(this.cwd, settings.profile, result);
    const previous = this.current;
    const changed = previous === undefined || previous.contentHash !== content.hash;
    const generation = nextGeneration(settings, previous, changed, content.hash);
    // Always swap: an unchanged answer may still come with new settings (symlink mode) or new watched dirs.
    const next = new WorkspaceSnapshot({ generation, cwd: this.cwd, settings, result, content });
    this.current = next;
    this.pluginInputs = result.pluginInputs ?? { files: [], markers: [] };
    const pending = previous === undefined || !changed ? [] : this.diffEvents(previous, next, discovery.change);
    // Until this build's events are logged, a views change waits (`viewsChanged`), and the views' update does not
    // start (`announced`): events keep their order, and no work of the views delays them.
    let announced: () => void = () => {};
    this.announcing = new Promise<void>((resolve) => {
      announced = resolve;
    });
    // Views in use follow the default view (docs/agents.md "Live"): their update is queued before the event goes out,
    // so a read of a view once the event is out waits for it, and runs beside the next builds, never delaying them.
    this.agents.noteBuild(full, paths);
    // The watcher follows the new answer's directories and files before clients hear of it: a client that edits a
    // file the answer now depends on (a new plugin's manifest) as soon as the event arrives is then seen.
    // The answer is told even when following it failed (the failure is the build's error, as before).
    try {
      if (this.watcher.armed) await this.watcher.sync();
    } finally {
      if (!this.isClosed) {
        if (previous === undefined) this.events.begin(next.contentHash);
        // The last event takes the id of the state it leads to (event-log.ts).
        else if (pending.length > 0) this.events.appendChange(next.contentHash, pending);
        // The search index follows once the event is out, in the same turn: its update never delays the event, and a
        // search asked once the event has arrived waits for it (docs/api.md §GET /search).
        this.search.follow(next, {
          full,
          paths,
          after: this.agents.toldAhead(),
          ...(discovery.change === undefined ? {} : { winners: discovery.change }),
        });
        this.onBuild?.((performance.now() - started) / 1000, changed);
        // After every build, changed or not: a near miss (an empty folder, a skill.md) changes no answer.
        this.diagnostics?.schedule(next);
      }
      this.announcing = undefined;
      announced();
    }
  }

  /**
   * Some requested views changed: the workspace's generation moves (their answers carry it) and the default stream
   * names them in an `index` event that adds, removes and changes nothing of the default view, after the events of
   * the build being announced, if any (docs/api.md §GET /events). Resolves to the generation of the change.
   */
  private async viewsChanged(ids: ViewId[]): Promise<number> {
    while (this.announcing !== undefined) await this.announcing;
    const previous = this.current as WorkspaceSnapshot;
    if (this.isClosed) return previous.generation;
    const generation = nextGeneration(this.settings, previous, true, previous.contentHash);
    const next = previous.withGeneration(generation);
    this.current = next;
    // The default view's state is unchanged, so its state id would repeat the previous event's: a chained id lets a
    // client resuming from that event receive this one (event-log.ts).
    this.events.append('index', { generation, added: [], removed: [], changed: [], views: ids });
    return generation;
  }

  /**
   * Forgets what the reported `paths` may have changed, in every memo a build reads: the directory scans (all of them
   * for a path that maps to no scanned directory: a `.git` marker, a settings change, the first build), the other
   * profiles' scans and the agents' root walks (docs/agents.md "Live"); then waits out rewrites in progress.
   */
  private async invalidate(full: boolean, paths: ReadonlySet<string>): Promise<void> {
    if (full || !this.scans.invalidate(paths)) this.scans.clear();
    if (!full) await settleRewrites(paths, new Set(this.pluginInputs.files));
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
}
