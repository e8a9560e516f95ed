// The per-agent views of one workspace (docs/agents.md "Live"): computed on the first request, then kept current
// after every build of the default view — the build sends the default view's event first, then brings the views
// up to date (workspace-index.ts) — while someone uses them; dropped after IDLE_VIEWS_MS without a request or a
// stream, and computed again on the next request. This file holds what they are computed from, when an update runs
// and what it tells each view's event log; what updates keep between them is views-memos.ts.

import type { AgentViews } from '../discovery/agents/compute-views.js';
import type { AgentView, ViewId } from '../discovery/agents/types.js';
import { SkillsdError } from '../discovery/errors.js';
import type { WalkGate } from '../discovery/files/walk-gate.js';
import { afterBackground, holdBackground, startSlice } from '../discovery/time-slices.js';
import type { DiscoveryResult, Settings } from '../discovery/types.js';
import { AgentViewsState } from './agent-views-state.js';
import { EventLog, type PendingEvent } from './event-log.js';
import { RunOnceQueueOne } from './run-once-queue-one.js';
import { settledOnce } from './settled-once.js';
import { sameView, sameWatch, ViewHasher, viewChangeEvents } from './view-comparison.js';
import { type ViewsSource, viewsInput } from './views-input.js';
import { ViewsMemos } from './views-memos.js';

/** Views nobody asked for (and no stream follows) for this long are dropped (docs/agents.md "Live"). */
export const IDLE_VIEWS_MS = 10 * 60 * 1000;

export interface WorkspaceAgentViewsOptions extends ViewsSource {
  /**
   * Told at once when the first views are set, before any answer is made from them: the registry's bound on the
   * workspaces that hold views applies then, not after the answer (workspace-registry.ts `boundViews`).
   */
  onViewsSet?: () => void;
  /**
   * Told once the first views are set and no request holds background work back: they name roots the default view
   * does not read, which the watcher then follows.
   */
  onFirstViews: () => Promise<void>;
  /**
   * Resolves once the workspace's watcher is armed and has looked once more (absent: at once). The first views are
   * computed after it: a computation that this look overtook would be made again from nothing.
   */
  armed?: () => Promise<void>;
  /** Turns for first computations, shared with the registry's other workspaces (absent: no wait). */
  gate?: WalkGate;
  /** Told when an update changed some views' answers: resolves to the generation the workspace gives the change. */
  onViewsChanged: (ids: ViewId[]) => Promise<number>;
  /** Told when an update made the views read other directories or files. */
  onWatchChanged: () => Promise<void>;
  /**
   * The events of the build being announced, if any (resolves once they are logged): an update starts after them, so
   * that its work never delays the default view's event (docs/agents.md "Live").
   */
  announced?: () => Promise<void> | undefined;
  /** Told when an update failed (the next one computes from scratch). */
  onUpdateError: (error: unknown) => void;
  /** The workspace's generation now (the views' answers carry it). */
  generation: () => number;
  /** Views unused for this long are dropped (default IDLE_VIEWS_MS). */
  idleMs?: number;
}

export class WorkspaceAgentViews {
  /** The views as last computed; undefined until first requested, and again once dropped for idleness. */
  state: AgentViewsState | undefined;
  /** The last build's discovery and settings: what the views are computed from. */
  lastResult: { result: DiscoveryResult; settings: Settings } | undefined;
  private first: Promise<AgentViewsState> | null = null;
  /** Resolved once the next update has told the views an edit changed, or has ended (`toldAhead`). */
  private editsTold = settledOnce(true);
  /** Updates run one at a time, the builds' changes gathered meanwhile answered by the next one. */
  private readonly updates = new RunOnceQueueOne(() => this.runUpdate());
  private pendingFull = false;
  private pendingPaths = new Set<string>();
  /** Grows with every build: a first computation that a build overtook is computed again. */
  private builds = 0;
  private lastUse = 0;
  private holds = 0;
  /** Per view, its event stream (created when a client first follows that view) and the hasher of its states. */
  private readonly logs = new Map<ViewId, { log: EventLog; hasher: ViewHasher }>();
  /** What updates keep from one to the next (views-memos.ts). */
  private memos = new ViewsMemos();
  private readonly idleMs: number;
  /** The last computation, whether or not it was installed: the next one keeps its unchanged views (kept-views.ts). */
  private lastComputed: AgentViews | undefined;
  /** The watcher starting to follow the first views' roots. */
  private watching: Promise<void> = Promise.resolve();
  /** Adds the doctor's findings to the first views, which were set without them (compute-views.ts `deferFindings`). */
  private pendingFindings: (() => Promise<void>) | undefined;
  private diagnosing: Promise<void> | undefined;
  /** The first views' findings being added as background work. */
  private findingsAhead: Promise<void> = Promise.resolve();
  /** Views told ahead of the update under way (`tellEdits`), and the generation they were told under. */
  private readonly told = new Map<ViewId, AgentView>();
  private toldGeneration = 0;

  constructor(private readonly options: WorkspaceAgentViewsOptions) {
    this.idleMs = options.idleMs ?? IDLE_VIEWS_MS;
  }

  private now(): number {
    return performance.now();
  }

  /** The views are kept current after each build: they exist and were used within IDLE_VIEWS_MS (or are held). */
  get armed(): boolean {
    return this.state !== undefined && (this.holds > 0 || this.now() - this.lastUse < this.idleMs);
  }

  /**
   * What the views read besides the default view's, for the watcher: a directory or file it starts to watch is
   * reported only where it changed since the views read it (workspace-watcher.ts).
   */
  watched(): { dirs: string[]; files: string[]; readSince: number } | undefined {
    const watch = this.state?.views.watch;
    return watch === undefined ? undefined : { ...watch, readSince: this.memos.readSince };
  }

  /** Keeps the views armed until the returned function is called (a stream following a view). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.lastUse = this.now();
    };
  }

  /**
   * The current views: computed on the first call (or the first after they were dropped), waiting out the update of
   * a build in progress. A first computation longer than `timeoutMs` goes on in the background and the call answers
   * 503 NotReady meanwhile (docs/api.md §Errors).
   */
  async request(timeoutMs: number, findings = true): Promise<AgentViewsState> {
    this.lastUse = this.now();
    const deadline = this.now() + timeoutMs;
    // The views are always current: an update a build queued is waited for.
    await this.updates.idle();
    let state = this.state === undefined ? undefined : this.followGeneration(this.state);
    if (state === undefined) {
      this.first ??= this.firstViews().finally(() => {
        this.first = null;
      });
      state = await this.within(this.first, deadline);
    }
    // An answer that reads the views' diagnostics waits for the doctor's findings of the first views.
    if (state !== undefined && findings && this.pendingFindings !== undefined) {
      const added = await this.within(
        this.diagnose().then(() => true),
        deadline,
      );
      if (added === undefined) state = undefined;
      // Another workspace's first views may have dropped these meanwhile: answered all the same.
      else if (this.state !== undefined) state = this.followGeneration(this.state);
    }
    if (state !== undefined) return state;
    throw new SkillsdError('NotReady', `The agent views of ${this.options.cwd} are still being computed`);
  }

  /** `work`'s value, or undefined once `deadline` (performance.now) has passed; the work goes on either way. */
  private async within<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadline - this.now()), undefined);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  /**
   * Adds the doctor's findings to the first views, once; work a request may wait for, so background work gives way
   * to it (time-slices.ts holdBackground). When it fails the views are dropped: the next request computes them again.
   */
  private diagnose(): Promise<void> {
    const attach = this.pendingFindings;
    if (attach === undefined) return Promise.resolve();
    this.diagnosing ??= (async () => {
      const release = holdBackground();
      try {
        await attach();
      } catch (error) {
        if (this.pendingFindings === attach) this.drop();
        throw error;
      } finally {
        release();
      }
      if (this.pendingFindings === attach) {
        this.pendingFindings = undefined;
        this.diagnosing = undefined;
      }
    })();
    return this.diagnosing;
  }

  /** One view's event log, created on first use from the current state (docs/api.md §GET /events). */
  async events(id: ViewId, timeoutMs: number): Promise<{ log: EventLog; state: AgentViewsState }> {
    const state = await this.request(timeoutMs);
    let stream = this.logs.get(id);
    if (stream === undefined) {
      stream = { log: new EventLog(), hasher: new ViewHasher() };
      stream.log.begin(stream.hasher.hash(state.views.views.get(id) as AgentView));
      this.logs.set(id, stream);
    }
    return { log: stream.log, state };
  }

  /**
   * Called by every build before it tells clients of its change: armed views queue an update for what the build saw
   * (a read arriving after the build's event waits for it), idle views are dropped. The update runs beside the next
   * builds, never before their events (docs/agents.md "Live").
   */
  noteBuild(full: boolean, paths: ReadonlySet<string>): void {
    this.builds++;
    if (this.state === undefined) return;
    if (!this.armed) {
      this.drop();
      return;
    }
    if (full) this.pendingFull = true;
    for (const path of paths) this.pendingPaths.add(path);
    if (this.editsTold.done) this.editsTold = settledOnce();
    this.updates.run().catch((error: unknown) => this.options.onUpdateError(error));
  }

  /**
   * Resolves once the update the last build queued has told the streams of the views its edits changed (or ended; at
   * once when none is queued): the search index's upkeep of that build waits for it, so that it never delays those
   * events (workspace-index.ts). A read of the views still waits for the whole update.
   */
  toldAhead(): Promise<void> {
    return this.editsTold.promise;
  }

  /** Resolves once the first views' roots are watched and every update queued so far is applied (tests; closing). */
  async idle(): Promise<void> {
    await this.findingsAhead;
    await this.watching;
    await this.updates.idle();
  }

  /** Drops the views now, as idleness does, unless a stream follows them (the registry's bound): true when dropped. */
  dropUnlessFollowed(): boolean {
    if (this.state === undefined || this.holds > 0) return false;
    this.drop();
    return true;
  }

  /** One update: what the builds since the last one reported, applied to the views kept. */
  private async runUpdate(): Promise<void> {
    const told = this.editsTold;
    try {
      await this.options.announced?.();
      // The views' events are what streams wait for now: their patch runs before the loop turns (time-slices.ts).
      startSlice();
      // The first views' findings may take long: the search index does not wait for them (`toldAhead`).
      if (this.pendingFindings !== undefined) told.resolve();
      await this.updateViews(told);
    } finally {
      told.resolve();
    }
  }

  /** The update's work; `told` is resolved once the views an edit changed were told (`tellEdits`). */
  private async updateViews(told: { resolve: () => void }): Promise<void> {
    // An update starts from views that carry their findings: the first views' are added first.
    await this.diagnose();
    const full = this.pendingFull;
    const paths = this.pendingPaths;
    this.pendingFull = false;
    this.pendingPaths = new Set();
    const previous = this.state;
    if (previous === undefined) return;
    try {
      const reported = await this.memos.forgetTexts(full, paths);
      // An edit the kept runs can take is told first (`tellEdits`); the whole update follows.
      if (!full) await this.tellEdits(previous, reported);
      told.resolve();
      await this.memos.forgetRest(full, paths, reported);
    } catch (error) {
      this.pendingFull = true;
      throw error;
    }
    const last = this.lastResult as { result: DiscoveryResult; settings: Settings };
    let views: AgentViews;
    try {
      views = await this.compute(last.result, last.settings);
    } catch (error) {
      // Computed from scratch next time: what this update forgot may be half-read.
      this.pendingFull = true;
      throw error;
    }
    if (this.state !== previous) return;
    const watchChanged = !(await sameWatch(previous.views.watch, views.watch));
    // The views whose answers moved from the state's, and those whose streams were last told something else.
    const changed: ViewId[] = [];
    const untold: Array<[ViewId, AgentView]> = [];
    for (const [id, view] of views.views) {
      const told = this.told.get(id);
      // A view told ahead differs from the state's: the update only finds whether it made the same.
      if (told !== undefined && (await sameView(told, view))) {
        changed.push(id);
        continue;
      }
      const before = previous.views.views.get(id);
      const moved = before === undefined || !(await sameView(before, view));
      if (moved) changed.push(id);
      if (moved || told !== undefined) untold.push([id, view]);
    }
    if (this.state !== previous) return;
    if (changed.length === 0 && untold.length === 0) {
      // Same answers: the serialised ones stay.
      this.state = previous.withViews(views);
    } else {
      const generation =
        untold.length === 0 ? this.toldGeneration : await this.options.onViewsChanged(untold.map(([id]) => id));
      if (this.state !== previous) return;
      // Each from what its stream was last told.
      const told = (id: ViewId) => this.told.get(id) ?? (previous.views.views.get(id) as AgentView);
      this.tell(untold, (id, view) => viewChangeEvents(told(id), view, generation));
      this.state = new AgentViewsState(views, generation);
    }
    this.told.clear();
    // Views that now read other directories (a skill folder added deep in a walked tree): the watcher follows them.
    if (watchChanged) await this.options.onWatchChanged();
  }

  /**
   * Tells at once the views an edit of SKILL.md files they read changes, where the kept runs can take it
   * (edited-views.ts): their streams hear of it before the doctor and the other profiles run. Reads still wait for
   * the whole update, which tells these views again only if it made them otherwise.
   */
  private async tellEdits(previous: AgentViewsState, edited: ReadonlySet<string>): Promise<void> {
    const last = this.lastResult;
    if (
      last === undefined ||
      this.lastComputed !== previous.views ||
      this.told.size > 0 ||
      !this.memos.walks.onlyTexts
    ) {
      return;
    }
    const { patchEditedViews } = await import('../discovery/agents/edited-views.js');
    const profile = last.settings.profile;
    const before = previous.views.inputs.results.get(profile);
    const patched = await patchEditedViews({
      views: previous.views.views,
      walks: this.memos.walks,
      texts: this.memos.texts,
      edited,
      ...(before === undefined ? {} : { profile: { id: profile, before, after: last.result } }),
    });
    if (patched.size === 0 || this.state !== previous) return;
    const generation = await this.options.onViewsChanged([...patched.keys()]);
    if (this.state !== previous) return;
    // A patch changes records in place under the same names: the names it changed are the event's.
    const index = (id: ViewId) => ({ generation, added: [], removed: [], changed: patched.get(id)?.changed });
    this.tell(
      [...patched].map(([id, patch]) => [id, patch.view]),
      (id) => [{ type: 'index', data: index(id) }],
    );
    for (const [id, patch] of patched) this.told.set(id, patch.view);
    this.toldGeneration = generation;
  }

  /** Logs each changed view's events on its stream, if one follows it. */
  private tell(
    changed: ReadonlyArray<[ViewId, AgentView]>,
    events: (id: ViewId, view: AgentView) => PendingEvent[],
  ): void {
    for (const [id, view] of changed) {
      const stream = this.logs.get(id);
      if (stream !== undefined) stream.log.appendChange(stream.hasher.hash(view), events(id, view));
    }
  }

  /** The state under the workspace's current generation (a default-view change moves it, not the views). */
  private followGeneration(state: AgentViewsState): AgentViewsState {
    const generation = this.options.generation();
    if (state.generation === generation) return state;
    this.state = state.withGeneration(generation);
    return this.state;
  }

  private async firstViews(): Promise<AgentViewsState> {
    // The look after arming rebuilds the default view in full; views computed before it would be computed again.
    await this.options.armed?.().catch(() => undefined);
    const gate = this.options.gate;
    const first = async () => {
      // A request waits for these: the search index built ahead waits for them (time-slices.ts holdBackground).
      const release = holdBackground();
      try {
        return await this.computeFirst();
      } finally {
        release();
      }
    };
    return gate === undefined ? first() : gate.run(first);
  }

  private async computeFirst(): Promise<AgentViewsState> {
    // A build that ran while the views were computed may have been missed by them: computed again then (bounded; a
    // later change is then the next build's update).
    for (let round = 0; ; round++) {
      const builds = this.builds;
      const last = this.lastResult as { result: DiscoveryResult; settings: Settings };
      const views = await this.compute(last.result, last.settings, true);
      if (this.state !== undefined) return this.followGeneration(this.state);
      if (this.builds !== builds && round < 2) {
        await this.memos.forgetRest(true, new Set(), await this.memos.forgetTexts(true, new Set()));
        continue;
      }
      const state = new AgentViewsState(views, this.options.generation());
      this.state = state;
      this.lastUse = this.now();
      this.options.onViewsSet?.();
      // The matrix of `GET /agents` reads no diagnostics: the doctor runs once no request holds background work,
      // or as soon as an answer needs its findings (`request`).
      this.pendingFindings = views.attachFindings;
      this.diagnosing = undefined;
      if (views.attachFindings !== undefined) {
        this.findingsAhead = this.diagnoseAhead().catch((error: unknown) => this.options.onUpdateError(error));
      }
      // The views name roots the default view does not read: the watcher follows them from now on. The answer does
      // not wait for those watches: whatever changes before they are armed is reported then, since the watcher is
      // told when the views read it (`watched`).
      this.watching = this.watchFirstViews().catch((error: unknown) => this.options.onUpdateError(error));
      // Another workspace's first views may have dropped these meanwhile (the registry's bound): answered all the same.
      return state;
    }
  }

  /**
   * Arms the watches of the first views' roots as background work: not while a request waits for views or their
   * matrix (time-slices.ts holdBackground). The turn after a release lets a request that holds again right after
   * (the matrix of the `GET /agents` the first views were computed for) take its hold first.
   */
  private async watchFirstViews(): Promise<void> {
    await afterBackground();
    await this.options.onFirstViews();
  }

  /** The first views' findings as background work: after the requests that hold it back (the matrix, its JSON). */
  private async diagnoseAhead(): Promise<void> {
    await afterBackground();
    await this.diagnose();
  }

  /** Forgets the views and everything kept for them (docs/agents.md "Live": idle views are dropped). */
  private drop(): void {
    this.state = undefined;
    this.pendingFindings = undefined;
    this.diagnosing = undefined;
    this.logs.clear();
    this.told.clear();
    this.memos = new ViewsMemos();
    this.lastComputed = undefined;
  }

  private async compute(result: DiscoveryResult, settings: Settings, deferFindings = false): Promise<AgentViews> {
    // Loaded with the first views asked for: an answer that never needs them (`skillsd ls` answered in-process)
    // does not pay for every agent's rules (docs/performance.md "In-process answers"). The patch of an edit is loaded
    // with them: the first edit after they were asked for would otherwise wait for the module (5 ms at 10,000).
    const [{ computeAgentViews }] = await Promise.all([
      import('../discovery/agents/compute-views.js'),
      import('../discovery/agents/edited-views.js'),
    ]);
    this.memos.begin();
    const previous = this.lastComputed;
    // A computation that fails leaves nothing to keep from.
    this.lastComputed = undefined;
    const computed = await computeAgentViews(
      viewsInput(this.options, this.memos, { result, settings, deferFindings, previous }),
    );
    this.lastComputed = computed;
    return computed;
  }
}
