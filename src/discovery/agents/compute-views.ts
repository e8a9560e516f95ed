// Every agent's view of one workspace, and the matrix of candidates × agents (docs/agents.md "Vocabulary").
// Pure domain logic: the index hands in the daemon's own discovery results.

import type { Finding } from '../doctor/types.js';
import { realpath } from '../files/sliced-fs.js';
import { DEFAULT_VIEW_WALK_LIMITS, type ViewWalkLimits } from '../files/walk-budget.js';
import { linkPolicyOf } from '../link-trust.js';
import { defaultSettings } from '../settings.js';
import type { DiscoveryResult, Profile, SymlinkMode } from '../types.js';
import { resolveAgentContext } from './agent-context.js';
import { AGENT_SPECS, PROFILE_IDS } from './agents.js';
import { claudePluginDirs } from './claude-plugin-dirs.js';
import type { AgentFileTexts, TextRead } from './file-texts.js';
import { keptViews, type ViewInputs } from './kept-views.js';
import { type AgentMatrix, type MatrixRowMemo, makeMatrix } from './matrix-rows.js';
import { patchProfileView, profileView } from './profiles.js';
import type { RealPathMemo } from './real-paths.js';
import { runAgent } from './run-agent.js';
import type { AgentContext, AgentView, ViewId } from './types.js';
import { addDoctorFindings, ownDiagnostics, reuseDoctorFindings } from './view-findings.js';
import { budgetViewWatches, unwatchedWarning } from './view-watch-budget.js';
import type { RootWalkMemo } from './walk-memo.js';

export interface ViewsInput {
  home: string;
  cwd: string;
  /** The agents' variables (agentEnv of the daemon's environment). */
  env: Readonly<Record<string, string>>;
  /** The daemon's discovery under each profile (its own profile's is the live snapshot's). */
  discoverProfile(profile: Profile): Promise<DiscoveryResult>;
  texts: AgentFileTexts;
  /**
   * The doctor's findings for this workspace (docs/api.md §GET /doctor): each view lists those about the files it
   * reads. Absent: views carry their own findings only.
   */
  doctorFindings?: () => Promise<readonly Finding[]>;
  /**
   * A first computation (no `previous`) leaves the doctor's findings out of its views and hands back how to add them
   * (`AgentViews.attachFindings`): what needs only the views' records (the matrix of `GET /agents`) need not wait for
   * the doctor, which costs about as much as every agent's run at 10,000 skills (docs/agents.md "Live").
   */
  deferFindings?: boolean;
  /** Real paths kept between builds (the profiles' views and the doctor's findings are keyed by real path). */
  realPaths?: RealPathMemo;
  /** The previous builds' root walks: only the roots a reported change can touch are walked again. */
  walks?: RootWalkMemo;
  /** The daemon's profile: it places the project anchor that Claude plugin installs bind to (default: musepi). */
  profile?: Profile;
  /**
   * The daemon's `symlinks` mode: every view reads SKILL.md files by the link rules of the default view
   * (SECURITY.md "The views").
   */
  symlinks: SymlinkMode;
  /** `server.viewWalkLimits`: the bounds of each root's walk and of the views' watches; each absent one its default. */
  walkLimits?: Partial<ViewWalkLimits>;
  /**
   * The last computation made with the same `walks` and `texts`: when only texts changed, a view none of whose inputs
   * changed is that computation's very object (kept-views.ts).
   */
  previous?: AgentViews;
  /** The rows of the last matrix made, which the next one takes where they still hold (matrix-rows.ts). */
  matrixRows?: MatrixRowMemo;
}

export type { AgentMatrix, MatrixCell, MatrixRow } from './matrix-rows.js';

export interface AgentViews {
  ctx: AgentContext;
  views: Map<ViewId, AgentView>;
  /**
   * The matrix, made on first use from this computation's views and texts: an update nobody asks the matrix of
   * does not pay for every candidate × view (docs/agents.md "Live").
   */
  matrix(): Promise<AgentMatrix>;
  /**
   * Adds the doctor's findings to the views (`ViewsInput.deferFindings`), once; absent when they carry them already.
   * Until it has run, nothing but the records, skills and warnings of the views may be read.
   */
  attachFindings?: () => Promise<void>;
  /** Directories and files the views depend on besides the default view's. */
  watch: { dirs: string[]; files: string[] };
  /** What each view was made from, for the next computation (`ViewsInput.previous`). */
  inputs: ViewInputs;
}

export async function computeAgentViews(input: ViewsInput): Promise<AgentViews> {
  const base = await resolveAgentContext(input.home, input.cwd, input.env);
  const ctx: AgentContext = {
    ...base,
    claudePlugins: await claudePluginDirs(base, input.profile ?? defaultSettings().profile),
  };
  const links = await linkPolicyOf(input.symlinks, input.cwd, ctx.gitRoot, input.home);
  input.texts.begin();
  input.walks?.begin();
  const textsOnly = input.walks?.takeTextsOnly() ?? false;
  const realOf = input.realPaths === undefined ? undefined : (path: string) => input.realPaths!.of(path);
  const { maxWatchedDirectories, ...walkLimits } = { ...DEFAULT_VIEW_WALK_LIMITS, ...input.walkLimits };
  const previous = textsOnly ? input.previous : undefined;
  const defer = input.deferFindings === true && previous === undefined ? input.doctorFindings : undefined;
  const results = new Map<ViewId, DiscoveryResult>();
  const [agentViews, findings] = await Promise.all([
    Promise.all(AGENT_SPECS.map((spec) => runAgent(spec, ctx, input.texts, input.walks, links, textsOnly, walkLimits))),
    defer === undefined ? input.doctorFindings?.() : undefined,
    Promise.all(
      PROFILE_IDS.map(async (profile) => {
        results.set(profile, await input.discoverProfile(profile));
      }),
    ),
  ]);
  const inputs: ViewInputs = { runs: new Map(), results, findings };
  for (const spec of AGENT_SPECS) inputs.runs.set(spec.info.id, input.walks?.runs.get(spec.info.id));
  // A view whose run, discovery and doctor findings are the previous computation's is that computation's object.
  const kept = await keptViews(previous, inputs, realOf ?? ((path) => realpath(path).catch(() => path)));
  const views = new Map<ViewId, AgentView>();
  const made: AgentView[] = [];
  for (const view of agentViews) {
    const last = kept.views.get(view.agent.id);
    views.set(view.agent.id, last ?? view);
    if (last === undefined) made.push(view);
  }
  for (const profile of PROFILE_IDS) {
    const last = kept.views.get(profile);
    const result = results.get(profile) as DiscoveryResult;
    const before = previous?.views.get(profile);
    const beforeResult = previous?.inputs.results.get(profile);
    const view =
      last ??
      (before !== undefined && beforeResult !== undefined
        ? patchProfileView(profile, before, beforeResult, result, ownDiagnostics(before))
        : undefined) ??
      (await profileView(profile, result, realOf));
    views.set(profile, view);
    if (last === undefined) made.push(view);
  }
  // A made view reading the very files the previous one read (the same records), none of whose findings changed,
  // takes the previous one's findings; the others are matched with the doctor's.
  const matched: AgentView[] = [];
  for (const view of made) {
    const before = previous?.views.get(view.agent.id);
    const same =
      findings !== undefined &&
      before !== undefined &&
      before.records === view.records &&
      !kept.findingsTouch(view.records) &&
      reuseDoctorFindings(view, before);
    if (!same) matched.push(view);
  }
  if (findings !== undefined) await addDoctorFindings(matched, findings, realOf, views.values());
  // Deferred: the doctor runs when asked, and its findings go first in each view's diagnostics, as above.
  const attachFindings =
    defer === undefined
      ? undefined
      : async () => {
          const deferred = await defer();
          inputs.findings = deferred;
          await addDoctorFindings(matched, deferred, realOf, views.values());
        };
  // The texts this computation read, as it read them: the matrix made later names rows from these, not from a file
  // read again by a later update.
  const reads = input.texts.reads();
  // Only texts changed: every agent walked what it walked before and read only what changed, so no file is gone.
  if (!textsOnly) input.texts.end();
  const madeMatrix = lazyMatrix(views, ctx, reads, input.texts, input.matrixRows);
  const dirs = new Set<string>();
  const files = new Set<string>();
  for (const view of agentViews) {
    for (const dir of view.watch.dirs) dirs.add(dir);
    for (const file of view.watch.files) files.add(file);
  }
  // Below the roots, one budget of watches for every view (view-watch-budget.ts).
  const budgeted = budgetViewWatches(agentViews, maxWatchedDirectories);
  for (const dir of budgeted.dirs) dirs.add(dir);
  for (const [view, unwatched] of budgeted.unwatched) {
    // A kept view got its warning when it was made (the same walks give the same budget).
    if (views.get(view.agent.id) !== view) continue;
    // A view of this computation only (run-agent.ts keeps its own): its warnings are replaced, not pushed to.
    view.warnings = [...view.warnings, unwatchedWarning(view, unwatched.size, maxWatchedDirectories)];
  }
  const watch = { dirs: [...dirs], files: [...files] };
  return { ctx, views, matrix: madeMatrix, watch, inputs, ...(attachFindings === undefined ? {} : { attachFindings }) };
}

/**
 * The matrix of `views`, made on its first call. Made at module level: a closure made inside `computeAgentViews` would
 * share its scope, and with it the input's `previous` computation, so every computation would keep the one before.
 */
function lazyMatrix(
  views: Map<ViewId, AgentView>,
  ctx: AgentContext,
  reads: ReadonlyMap<string, Promise<TextRead>>,
  texts: AgentFileTexts,
  memo: MatrixRowMemo | undefined,
): () => Promise<AgentMatrix> {
  let matrix: Promise<AgentMatrix> | undefined;
  return () => {
    matrix ??= makeMatrix(views, ctx, (path) => reads.get(path) ?? texts.known(path) ?? texts.read(path), memo);
    return matrix;
  };
}
