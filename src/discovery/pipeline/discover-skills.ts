// The discovery pipeline of docs/discovery.md §5: providers → filters and first-enabled-wins → realpath dedup → custom
// directories → managed skills → sort. Every directory is scanned concurrently; results are assembled in the
// documented order, so concurrency never changes the answer. Through a ScanMemo, a reload whose re-scanned directories
// give the same candidates as before updates the previous answer instead of running the pipeline (pipeline-memo.ts),
// and says which winners it changed: `discoverSkillChange` hands that on as a value with the answer, for the index's
// diff (docs/architecture.md "The change path").
//
// The choices the spec leaves open are listed in resolve-candidates.ts.

import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { linkPolicyOf } from '../link-trust.js';
import { planPluginProviders } from '../plugins/plan-plugin-providers.js';
import type { ScanMemo } from '../scan/scan-memo.js';
import { scanSkillsDir } from '../scan/scan-skills-dir.js';
import type { SkillFileCache } from '../scan/skill-file-cache.js';
import type {
  DiscoveryContext,
  DiscoveryResult,
  Skill,
  SkillDiagnostic,
  SkillDiscovery,
  SkillWarning,
} from '../types.js';
import { type CustomDirectory, expandCustomDirectory, resolveWorkspaceContext } from '../workspace-context.js';
import { type PipelineMemo, pipelineKey, updateFromRescans } from './pipeline-memo.js';
import { isSourceEnabled, type ProviderPlan, planProviders } from './providers.js';
import { type ProviderItem, type Resolution, resolveCandidates } from './resolve-candidates.js';
import { type ProviderRun, runProvider, type ScanFunction, scanCustomDir } from './run-provider.js';
import { createSkillFilters } from './skill-filters.js';
import { sortBySkill } from './sort-skills.js';

export interface DiscoverOptions {
  /** Parsed SKILL.md files, reused across discoveries while their content is unchanged. */
  cache?: SkillFileCache;
  /**
   * The previous discovery's directory scans: only those the caller invalidated are scanned again (see scan-memo.ts).
   * The answer is the same as without it as long as the caller invalidated every changed directory.
   */
  scans?: ScanMemo;
  /**
   * Read plain SKILL.md files with synchronous calls (`ScanOptions.blocking`): the same answer, sooner, while blocking
   * the event loop for the whole scan. Only for a discovery nothing else waits on (a daemon's first index, before it
   * listens).
   */
  blocking?: boolean;
  /** `ScanOptions.sliced`: the synchronous reads of `blocking`, a slice at a time (time-slices.ts). */
  sliced?: boolean;
}

/** The answer of docs/discovery.md §5 for `ctx`. */
export async function discoverSkills(ctx: DiscoveryContext, options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  return (await discoverSkillChange(ctx, options)).result;
}

/**
 * The same answer, with what it changed against the previous discovery through the same `options.scans`: the
 * winners an updated answer replaced, inserted or removed (`change`, absent when the whole pipeline ran).
 */
export async function discoverSkillChange(
  ctx: DiscoveryContext,
  options: DiscoverOptions = {},
): Promise<SkillDiscovery> {
  // Step 0: switched off → nothing, without touching the file system (not even to look for the repository).
  if (ctx.settings.skills.enabled === false) {
    // Nothing is watched meanwhile: what the memo remembers may be stale by the time skills are enabled again.
    options.scans?.clear();
    return { result: { skills: [], warnings: [], collisions: [], diagnostics: [], scannedDirs: [], repoRoot: null } };
  }
  const ws = await resolveWorkspaceContext(ctx);
  const disabledProviders = new Set(ctx.settings.disabledProviders);
  // The plugin providers' registries and manifests are read afresh every time: they decide which directories exist.
  const pluginPlans = await planPluginProviders(ws);
  // Sorted: the plugin providers read concurrently, and the watcher's targets should not change with the timing.
  const pluginInputs = { files: [...pluginPlans.inputs.files].sort(), markers: [...pluginPlans.inputs.markers].sort() };
  const plans = planProviders(ws, pluginPlans).filter((plan) => !disabledProviders.has(plan.id));
  const customDirs = ctx.settings.skills.customDirectories.flatMap((dir) => {
    const expanded = expandCustomDirectory(dir, ws.home, ws.cwd);
    return expanded === undefined ? [] : [expanded];
  });

  // Diagnostics (daemon-only): one list per provider and per custom directory, joined in scan order below.
  const providerNotes = plans.map((): SkillDiagnostic[] => []);
  const customNotes = customDirs.map((): SkillDiagnostic[] => []);
  const profile = ws.profile.profile;
  // Step 3's realpaths, gathered by the scans (one `realpath` per directory, one per symlinked entry or file).
  const scannedRealpaths = new Map<string, string>();
  const { scans } = options;
  // Which links the scans follow (link-trust.ts): the same for every directory of this discovery.
  const links = await linkPolicyOf(ctx.settings.symlinks, ws.cwd, ws.repoRoot, ws.home);
  // Through the memo the realpaths are handed over by `prune`, and copied only if the whole pipeline runs.
  const blocking = options.blocking === true ? { blocking: true } : options.sliced === true ? { sliced: true } : {};
  const scan: ScanFunction = (dir, scanOptions) =>
    scans === undefined
      ? scanSkillsDir(dir, { ...scanOptions, realpaths: scannedRealpaths, links, ...blocking })
      : scans.scan(dir, { ...scanOptions, links, ...blocking });
  const [providerRuns, customRuns] = await Promise.all([
    Promise.all(plans.map((plan, i) => runProvider(plan, profile, options.cache, scan, providerNotes[i]))),
    Promise.all(customDirs.map((dir, i) => scanCustomDir(dir, profile, options.cache, scan, customNotes[i]))),
  ]);
  const scannedDirs = scannedDirsOf(plans, customDirs);
  // A directory scanned twice (xcsh's HOME, a custom directory that is also a provider's) gives its diagnostics twice.
  const scanCount = plans.reduce((count, plan) => count + plan.dirs.length, customDirs.length);
  const diagnosticsOf = (): SkillDiagnostic[] => {
    // A loop, not `flat()` and spreads: ≈ 1 ms for the ≈ 5,000 diagnostics of the benchmark tree.
    const joined: SkillDiagnostic[] = [];
    for (const list of [...providerNotes, ...customNotes]) for (const diagnostic of list) joined.push(diagnostic);
    return scanCount > scannedDirs.length ? uniqueDiagnostics(joined) : joined;
  };
  const managedProvider = plans.find((plan) => plan.managed)?.id ?? null;
  const filters = createSkillFilters(ctx.settings);
  let key = '';
  if (scans !== undefined) {
    const round = scans.prune();
    key = pipelineKey([ctx.settings, plans, customDirs, ws.repoRoot, providerRuns.map((run) => run.unscanned)]);
    // The previous decisions belong to this discovery alone: one that throws from here on, or finds them unusable,
    // leaves none behind, and only one that completes records its own.
    const previous = scans.pipeline;
    scans.pipeline = undefined;
    const fresh = { diagnostics: diagnosticsOf, scannedDirs, repoRoot: ws.repoRoot, pluginInputs };
    const input = { providerRuns, customRuns, settings: ctx.settings, filters };
    const updated =
      previous === undefined ? undefined : updateFromRescans(scans.skillOrder, previous, key, round, fresh, input);
    if (updated !== undefined) {
      scans.pipeline = updated.memo;
      return { result: updated.result, change: updated.change };
    }
    for (const map of round.realpaths)
      map.forEach((real, path) => {
        scannedRealpaths.set(path, real);
      });
  }

  const warnings: SkillWarning[] = [];
  let order = 0;

  // Step 1: provider results in provider order; `skill:<name>` in disabledExtensions dropped.
  const providerSkills: Array<{ skill: Skill; managed: boolean }> = [];
  for (const run of providerRuns) {
    for (const message of run.warnings) {
      warnings.push({ skillPath: '', message: `[${run.plan.displayName}] ${message}` });
    }
    for (const skill of run.skills) {
      if (!filters.isDisabled(skill.name)) providerSkills.push({ skill, managed: run.plan.managed });
    }
  }
  const customSkills = customRuns.flatMap((run) => run.skills.filter((skill) => !filters.isDisabled(skill.name)));
  const realpaths = await realpathsOf([...providerSkills.map((item) => item.skill), ...customSkills], scannedRealpaths);

  const all: ProviderItem[] = providerSkills.map(({ skill, managed }) => ({
    skill,
    managed,
    realpath: realpaths.get(skill.filePath) ?? skill.filePath,
    order: order++,
    sourceEnabled: isSourceEnabled(
      ctx.settings.profile,
      skill.source.provider,
      skill.source.level,
      ctx.settings.skills,
    ),
  }));

  // Steps 2–5: precedence and filters, realpath dedup, custom directories, managed skills.
  for (const run of customRuns) for (const message of run.warnings) warnings.push({ skillPath: run.dir, message });
  const customCandidates = customSkills.map((skill) => ({
    skill,
    realpath: realpaths.get(skill.filePath) ?? skill.filePath,
    order: order++,
  }));
  const resolution = resolveCandidates(all, customCandidates, ctx.settings.profile, filters);

  // Step 6: sort; warnings are provider, then custom scan, then collision warnings.
  // Loops rather than maps of entry pairs: at 10,000 skills the pairs were a tenth of a first discovery's garbage.
  const winners = new Map<string, Skill>();
  resolution.winners.forEach((candidate, name) => {
    winners.set(name, candidate.skill);
  });
  const skills = sortBySkill([...winners.values()], (skill) => skill, scans?.skillOrder);
  const result: DiscoveryResult = {
    skills,
    warnings: [...warnings, ...resolution.collisionWarnings],
    collisions: resolution.ledger.collisions(winners),
    diagnostics: diagnosticsOf(),
    scannedDirs,
    repoRoot: ws.repoRoot,
    skillRealPaths: realPathsOfWinners(skills, realpaths),
    skillRoots: rootsOf(skills, providerRuns),
    pluginInputs,
  };
  if (scans !== undefined) {
    const order = new Map<Skill, number>();
    skills.forEach((skill, index) => {
      order.set(skill, index);
    });
    scans.skillOrder = order;
    const candidates = [...all, ...customCandidates];
    const unscanned = providerRuns.flatMap((run) => run.unscanned.skills);
    scans.pipeline = pipelineMemo(key, result, resolution, managedProvider, candidates, unscanned, realpaths);
  }
  return { result };
}

/** What the next discovery through the same memo needs to update `result` in place of running the pipeline. */
function pipelineMemo(
  key: string,
  result: DiscoveryResult,
  resolution: Resolution,
  managedProvider: string | null,
  candidates: ReadonlyArray<{ skill: Skill; realpath: string }>,
  unscanned: readonly Skill[],
  realpaths: ReadonlyMap<string, string>,
): PipelineMemo {
  const byRecord = new WeakMap<Skill, string>();
  for (const { skill, realpath } of candidates) byRecord.set(skill, realpath);
  const unscannedRealpaths = new Map<string, string>();
  for (const skill of unscanned)
    unscannedRealpaths.set(skill.filePath, realpaths.get(skill.filePath) ?? skill.filePath);
  const scanned = new WeakMap<Skill, Skill>();
  for (const [sanitised, record] of resolution.sanitised) scanned.set(sanitised, record);
  const warnedNames = new Set(resolution.warnedNames);
  return {
    key,
    result,
    managedProvider,
    realpaths: byRecord,
    unscannedRealpaths,
    scanned,
    warnedNames,
    reached: 'pipeline',
  };
}

/**
 * realpath of every distinct filePath: the scans' answer when they gave one, else resolved here, concurrently; a file
 * that vanished meanwhile keeps its own path.
 */
async function realpathsOf(skills: Skill[], known: Map<string, string>): Promise<Map<string, string>> {
  const unknown = new Set<string>();
  for (const { filePath } of skills) if (!known.has(filePath)) unknown.add(filePath);
  if (unknown.size === 0) return known;
  const paths = [...unknown];
  const resolved = await Promise.all(paths.map((path) => realpath(path).catch(() => path)));
  for (const [index, path] of paths.entries()) known.set(path, resolved[index] ?? path);
  return known;
}

function realPathsOfWinners(skills: readonly Skill[], realpaths: ReadonlyMap<string, string>): Map<string, string> {
  const map = new Map<string, string>();
  for (const { filePath } of skills) map.set(filePath, realpaths.get(filePath) ?? filePath);
  return map;
}

/** The Agent Plugins winners' roots (docs/discovery.md §4a): what `skill://` must keep their files inside. */
function rootsOf(skills: Skill[], runs: ProviderRun[]): Map<string, string> {
  const roots = new Map<string, string>();
  for (const run of runs) {
    if (run.roots.size === 0) continue;
    for (const skill of skills) {
      if (skill.source.provider !== run.plan.id) continue;
      const root = run.roots.get(skill.filePath);
      if (root !== undefined) roots.set(skill.filePath, root);
    }
  }
  return roots;
}

/** Each diagnostic once: a directory scanned twice (xcsh's HOME, a custom directory that is also a provider's). */
function uniqueDiagnostics(diagnostics: SkillDiagnostic[]): SkillDiagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter(({ skillPath, message }) => {
    const key = `${skillPath}\0${message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every directory scanned, in scan order, each once (xcsh's HOME can be both a project and a user directory). */
function scannedDirsOf(plans: ProviderPlan[], customDirs: CustomDirectory[]): string[] {
  return [
    ...new Set([
      ...plans.flatMap((plan) => plan.dirs.map((dir) => dir.path)),
      ...customDirs.map((d) => resolve(d.path)),
    ]),
  ];
}
