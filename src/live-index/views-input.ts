// What one computation of a workspace's per-agent views is given (docs/agents.md "Live"): the memos its views keep
// between updates, the doctor's findings over the default view's answer, and the other profiles' discoveries, each
// through its own directory scans and the daemon's parsed files.

import type { AgentViews, ViewsInput } from '../discovery/agents/compute-views.js';
import type { AgentFileTexts } from '../discovery/agents/file-texts.js';
import type { MatrixRowMemo } from '../discovery/agents/matrix-rows.js';
import type { RealPathMemo } from '../discovery/agents/real-paths.js';
import type { RootWalkMemo } from '../discovery/agents/walk-memo.js';
import type { DoctorMemo } from '../discovery/doctor/doctor-memo.js';
import { createScanMemo, type ScanMemo } from '../discovery/scan/scan-memo.js';
import { createSkillFileCache, type SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type { DiscoveryContext, DiscoveryEnv, DiscoveryResult, Profile, Settings } from '../discovery/types.js';
import type { DiscoverFn } from './workspace-index-options.js';

/** The workspace a computation is for. */
export interface ViewsSource {
  home: string;
  cwd: string;
  env: DiscoveryEnv;
  cache: SkillFileCache | undefined;
  discover: DiscoverFn;
  /** What a discovery of the workspace depends on now (the doctor's findings are read with it). */
  discoveryContext: () => DiscoveryContext;
}

/** What the views keep between updates (workspace-agent-views.ts forgets what a change touches). */
export interface KeptForViews {
  texts: AgentFileTexts;
  walks: RootWalkMemo;
  realPaths: RealPathMemo;
  matrixRows: MatrixRowMemo;
  /** What the doctor looked at, kept until a change is reported. */
  doctor: DoctorMemo;
  /** Per other profile, its discovery's file cache and directory scans, kept like the daemon's own. */
  profiles: Map<Profile, { cache: SkillFileCache; scans: ScanMemo }>;
}

export function viewsInput(
  source: ViewsSource,
  kept: KeptForViews,
  /** The default view's answer and settings, and the last computation made from `kept` (if it is to be kept). */
  from: { result: DiscoveryResult; settings: Settings; deferFindings: boolean; previous: AgentViews | undefined },
): ViewsInput {
  const { home, cwd, env, cache } = source;
  const { result, settings, previous } = from;
  return {
    ...(previous === undefined ? {} : { previous }),
    home,
    cwd,
    env: env.agents ?? {},
    texts: kept.texts,
    realPaths: kept.realPaths,
    matrixRows: kept.matrixRows,
    profile: settings.profile,
    symlinks: settings.symlinks,
    walkLimits: settings.server.viewWalkLimits,
    deferFindings: from.deferFindings,
    // The doctor's own per-file findings, for the files each view reads (docs/agents.md "Diagnostics").
    doctorFindings: async () =>
      (
        await (
          await import('../discovery/doctor/diagnose-workspace.js')
        ).diagnoseWorkspace({
          ctx: { ...source.discoveryContext(), settings },
          skills: result.skills,
          collisions: result.collisions,
          ...(cache === undefined ? {} : { cache }),
          memo: kept.doctor,
          // The folders and SKILL.md files the views read, listed and read once for them and the doctor alike.
          shared: { list: (dir) => kept.walks.listing(dir), text: (path) => kept.texts.read(path) },
        })
      ).findings,
    walks: kept.walks,
    discoverProfile: (profile) => {
      if (profile === settings.profile) return Promise.resolve(result);
      let memo = kept.profiles.get(profile);
      if (memo === undefined) {
        // Every profile shares the daemon's parsed files: a file read alike by every dialect is parsed once, and
        // each dialect keeps its own reading of the others (skill-file-cache.ts).
        memo = { cache: cache ?? createSkillFileCache(), scans: createScanMemo() };
        kept.profiles.set(profile, memo);
      }
      return source
        .discover(
          { home, cwd, env, settings: { ...settings, profile } },
          { cache: memo.cache, scans: memo.scans, sliced: true },
        )
        .then((discovery) => discovery.result);
    },
  };
}
