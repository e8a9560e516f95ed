// The per-agent views of one workspace (docs/agents.md "Live"): computed on the first request, then kept current by
// every build of the index (workspace-index.ts), which counts them as part of its answer. This file holds what they
// are computed from and keep between builds (the agents' files and root walks, the other profiles' discoveries).

import type { AgentViews } from '../discovery/agents/compute-views.js';
import { AgentFileTexts } from '../discovery/agents/file-texts.js';
import { RootWalkMemo } from '../discovery/agents/walk-memo.js';
import { SkillsdError } from '../discovery/errors.js';
import { createScanMemo, type ScanMemo } from '../discovery/scan/scan-memo.js';
import { createSkillFileCache, type SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type { DiscoveryContext, DiscoveryEnv, DiscoveryResult, Profile, Settings } from '../discovery/types.js';
import { AgentViewsState, viewsFingerprint } from './agent-views-state.js';
import type { DiscoverFn } from './workspace-index-options.js';

export interface WorkspaceAgentViewsOptions {
  home: string;
  cwd: string;
  env: DiscoveryEnv;
  cache: SkillFileCache | undefined;
  discover: DiscoverFn;
  /** What a discovery of the workspace depends on now (the doctor's findings are read with it). */
  discoveryContext: () => DiscoveryContext;
  /** Told once the first views are set: they name roots the default view does not read. */
  onFirstViews: () => Promise<void>;
}

export class WorkspaceAgentViews {
  /** The views of the last build that computed them; undefined until they are first requested and computed. */
  state: AgentViewsState | undefined;
  /** The views were requested once: every build computes them from then on. */
  requested = false;
  /** The last build's discovery and settings: what a first request of the agent views starts from. */
  lastResult: { result: DiscoveryResult; settings: Settings } | undefined;
  private first: Promise<AgentViewsState> | null = null;
  /** Grows whenever a build sets the agent views: a first computation overtaken by a build is dropped. */
  private epoch = 0;
  private readonly texts = new AgentFileTexts();
  /** The agents' root walks kept between builds: a change re-walks only the roots it can touch. */
  private readonly walks = new RootWalkMemo();
  /** Per other profile, its discovery's file cache and directory scans, kept like the daemon's own. */
  private readonly profileMemos = new Map<Profile, { cache: SkillFileCache; scans: ScanMemo }>();

  constructor(private readonly options: WorkspaceAgentViewsOptions) {}

  /**
   * The views once the first index is there: computed on the first call, at `generation` (the current snapshot's),
   * then kept current by every build.
   */
  async request(timeoutMs: number, generation: number): Promise<AgentViewsState> {
    if (this.state !== undefined) return this.state;
    this.requested = true;
    this.first ??= this.firstViews(generation).finally(() => {
      this.first = null;
    });
    const first = this.first;
    // A first computation that takes longer than a request may wait goes on in the background: 503 NotReady with
    // Retry-After meanwhile, as for a workspace's first index (docs/api.md §Errors).
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, undefined);
    });
    const state = await Promise.race([first, late]).finally(() => clearTimeout(timer));
    if (state !== undefined) return state;
    throw new SkillsdError('NotReady', `The agent views of ${this.options.cwd} are still being computed`);
  }

  private async firstViews(generation: number): Promise<AgentViewsState> {
    const epoch = this.epoch;
    const last = this.lastResult as { result: DiscoveryResult; settings: Settings };
    const views = await this.compute(last.result, last.settings);
    if (this.epoch !== epoch && this.state !== undefined) return this.state;
    this.state = new AgentViewsState(views, generation, viewsFingerprint(views));
    // The views name roots the default view does not read: the watcher follows them from now on.
    await this.options.onFirstViews();
    return this.state;
  }

  /** A build's views (`compute`), under the build's generation: a new state only when the views changed. */
  follow(views: AgentViews, fingerprint: string, viewsChanged: boolean, generation: number): void {
    this.epoch++;
    this.state =
      viewsChanged || this.state === undefined
        ? new AgentViewsState(views, generation, fingerprint)
        : this.state.generation === generation
          ? this.state
          : this.state.withGeneration(generation);
  }

  /** Forgets what the reported `paths` may have changed: the other profiles' scans and the agents' root walks. */
  async invalidate(full: boolean, paths: ReadonlySet<string>): Promise<void> {
    for (const memo of this.profileMemos.values()) if (full || !memo.scans.invalidate(paths)) memo.scans.clear();
    if (full) this.walks.clear();
    else await this.walks.invalidate(paths);
  }

  async compute(result: DiscoveryResult, settings: Settings): Promise<AgentViews> {
    const { home, cwd, env, cache } = this.options;
    // Loaded with the first views asked for: an answer that never needs them (`skillsd ls` answered in-process)
    // does not pay for every agent's rules (docs/performance.md "In-process answers").
    const { computeAgentViews } = await import('../discovery/agents/compute-views.js');
    return computeAgentViews({
      home,
      cwd,
      env: env.agents ?? {},
      texts: this.texts,
      profile: settings.profile,
      symlinks: settings.symlinks,
      // The doctor's own per-file findings, for the files each view reads (docs/agents.md "Diagnostics").
      doctorFindings: async () =>
        (
          await (
            await import('../discovery/doctor/diagnose-workspace.js')
          ).diagnoseWorkspace({
            ctx: { ...this.options.discoveryContext(), settings },
            skills: result.skills,
            collisions: result.collisions,
            ...(cache === undefined ? {} : { cache }),
          })
        ).findings,
      walks: this.walks,
      discoverProfile: (profile) => {
        if (profile === settings.profile) return Promise.resolve(result);
        let memo = this.profileMemos.get(profile);
        if (memo === undefined) {
          memo = { cache: createSkillFileCache(), scans: createScanMemo() };
          this.profileMemos.set(profile, memo);
        }
        return this.options
          .discover({ home, cwd, env, settings: { ...settings, profile } }, { cache: memo.cache, scans: memo.scans })
          .then((discovery) => discovery.result);
      },
    });
  }
}
