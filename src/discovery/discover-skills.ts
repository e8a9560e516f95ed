// The discovery pipeline of SKILLS.md §5: providers → filters and first-enabled-wins → realpath dedup → custom
// directories → managed skills → sort. Every directory is scanned concurrently; results are assembled in the
// documented order, so concurrency never changes the answer. Through a ScanMemo, a reload whose re-scanned directories
// give the same candidates as before updates the previous answer instead of running the pipeline (pipeline-memo.ts).
//
// Collision reasons where the spec leaves the choice open:
// - a candidate that loses on name to a winner with the same realpath is a `duplicate-file`, not a `precedence` loss;
// - a realpath duplicate of a differently-named skill is reported under the name of the skill holding that file;
// - xcsh: candidates dropped by the name dedup are `precedence` losses even when the first candidate is then filtered
//   out (they only show up when a custom skill later takes the name);
// - managed candidates: same file as a registered skill → `duplicate-file`; name taken by an authored skill (kept or
//   not) → `precedence`; invalid name or filtered → `disabled`.

import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Candidate, CollisionLedger } from './collision-ledger.js';
import { linkPolicyOf } from './link-trust.js';
import { type PipelineMemo, pipelineKey, updateFromRescans } from './pipeline-memo.js';
import { planPluginProviders } from './plugins/plan-plugin-providers.js';
import { isSourceEnabled, type ProviderPlan, planProviders } from './providers.js';
import { CUSTOM_PROVIDER, type ProviderRun, runProvider, type ScanFunction, scanCustomDir } from './run-provider.js';
import { MANAGED_NAME, sanitizeManagedDescription } from './sanitize-description.js';
import type { ScanMemo } from './scan-memo.js';
import { scanSkillsDir } from './scan-skills-dir.js';
import type { SkillFileCache } from './skill-file-cache.js';
import { createSkillFilters, type SkillFilters } from './skill-filters.js';
import { sortBySkill } from './sort-skills.js';
import type { DiscoveryContext, DiscoveryResult, Profile, Skill, SkillDiagnostic, SkillWarning } from './types.js';
import { type CustomDirectory, expandCustomDirectory, resolveWorkspaceContext } from './workspace-context.js';

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
}

/** A provider's candidates, tagged with what step 2 and step 5 need to know about their source. */
interface ProviderItem extends Candidate {
  managed: boolean;
  sourceEnabled: boolean;
}

export async function discoverSkills(ctx: DiscoveryContext, options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  // Step 0: switched off → nothing, without touching the file system (not even to look for the repository).
  if (ctx.settings.skills.enabled === false) {
    // Nothing is watched meanwhile: what the memo remembers may be stale by the time skills are enabled again.
    options.scans?.clear();
    return { skills: [], warnings: [], collisions: [], diagnostics: [], scannedDirs: [], repoRoot: null };
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
  const blocking = options.blocking === true ? { blocking: true } : {};
  const scan: ScanFunction = (dir, scanOptions) =>
    scans === undefined
      ? scanSkillsDir(dir, { ...scanOptions, realpaths: scannedRealpaths, links, ...blocking })
      : scans.scan(dir, { ...scanOptions, links, ...blocking });
  const [providerRuns, customRuns] = await Promise.all([
    Promise.all(plans.map((plan, i) => runProvider(plan, profile, options.cache, scan, providerNotes[i]))),
    Promise.all(customDirs.map((dir, i) => scanCustomDir(dir, profile, options.cache, scan, customNotes[i]))),
  ]);
  const diagnostics = uniqueDiagnostics([...providerNotes.flat(), ...customNotes.flat()]);
  const scannedDirs = scannedDirsOf(plans, customDirs);
  const managedProvider = plans.find((plan) => plan.managed)?.id ?? null;
  let key = '';
  if (scans !== undefined) {
    const round = scans.prune();
    key = pipelineKey([ctx.settings, plans, customDirs, ws.repoRoot, providerRuns.map((run) => run.unscanned)]);
    // Taken out while the pipeline runs: a discovery that throws from here on leaves no memo to trust.
    const memo = scans.pipeline;
    scans.pipeline = undefined;
    const fresh = { diagnostics, scannedDirs, repoRoot: ws.repoRoot, pluginInputs };
    const updated = memo === undefined ? undefined : updateFromRescans(scans, memo, key, round, fresh);
    if (updated !== undefined) {
      scans.pipeline = memo;
      return updated;
    }
    for (const map of round.realpaths) for (const [path, real] of map) scannedRealpaths.set(path, real);
  }

  const filters = createSkillFilters(ctx.settings);
  const warnings: SkillWarning[] = [];
  const ledger = new CollisionLedger();
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

  // Step 2: first enabled wins (xcsh: first wins, then filter).
  const kept =
    ctx.settings.profile === 'xcsh' ? dedupThenFilter(all, filters, ledger) : firstEnabledWins(all, filters, ledger);

  // Step 3: realpath dedup.
  const registry: Registry = { byName: new Map(), byRealpath: new Map() };
  for (const item of kept) {
    const holder = registry.byRealpath.get(item.realpath);
    if (holder !== undefined) ledger.lose(item, 'duplicate-file', holder.skill.name);
    else register(registry, item);
  }

  // Step 4: custom directories.
  for (const run of customRuns) for (const message of run.warnings) warnings.push({ skillPath: run.dir, message });
  const customCandidates = customSkills.map((skill) => ({
    skill,
    realpath: realpaths.get(skill.filePath) ?? skill.filePath,
    order: order++,
  }));
  const collisionWarnings = addCustomSkills(customCandidates, registry, ctx.settings.profile, filters, ledger);

  // Step 5: managed skills, dead last, deferring to any authored skill of that name.
  const sanitised = addManagedSkills(all, registry, filters, ledger);

  // Step 6: sort; warnings are provider, then custom scan, then collision warnings.
  const winners = new Map([...registry.byName].map(([name, candidate]) => [name, candidate.skill]));
  const skills = sortBySkill([...winners.values()], (skill) => skill, scans?.skillOrder);
  const result: DiscoveryResult = {
    skills,
    warnings: [...warnings, ...collisionWarnings],
    collisions: ledger.collisions(winners),
    diagnostics,
    scannedDirs,
    repoRoot: ws.repoRoot,
    skillRealPaths: new Map(skills.map((skill) => [skill.filePath, realpaths.get(skill.filePath) ?? skill.filePath])),
    skillRoots: rootsOf(skills, providerRuns),
    pluginInputs,
  };
  if (scans !== undefined) {
    scans.skillOrder = new Map(skills.map((skill, index) => [skill, index]));
    scans.pipeline = pipelineMemo(key, result, sanitised, managedProvider);
  }
  return result;
}

/** What the next discovery through the same memo needs to update `result` in place of running the pipeline. */
function pipelineMemo(
  key: string,
  result: DiscoveryResult,
  sanitised: ReadonlyMap<Skill, Skill>,
  managedProvider: string | null,
): PipelineMemo {
  const winnerAt = new Map<Skill, number>();
  result.skills.forEach((skill, index) => {
    winnerAt.set(sanitised.get(skill) ?? skill, index);
  });
  return { key, result, winnerAt, managedProvider };
}

/** The skills registered so far, by name and by realpath (§5 steps 3–5). */
interface Registry {
  byName: Map<string, Candidate>;
  byRealpath: Map<string, Candidate>;
}

function register(registry: Registry, candidate: Candidate): void {
  registry.byName.set(candidate.skill.name, candidate);
  registry.byRealpath.set(candidate.realpath, candidate);
}

/**
 * Step 4: same file as a registered skill → dropped silently; new name → registered; name held by a provider's skill →
 * replaces it silently (xcsh: never); name held by an earlier custom skill → the first stays, with a warning.
 * Returns the collision warnings, in the order produced.
 */
function addCustomSkills(
  candidates: Candidate[],
  registry: Registry,
  profile: Profile,
  filters: SkillFilters,
  ledger: CollisionLedger,
): SkillWarning[] {
  const warnings: SkillWarning[] = [];
  for (const candidate of candidates) {
    const { skill } = candidate;
    if (!filters.accepts(skill.name)) {
      ledger.lose(candidate, 'disabled');
      continue;
    }
    const sameFile = registry.byRealpath.get(candidate.realpath);
    if (sameFile !== undefined) {
      ledger.lose(candidate, 'duplicate-file', sameFile.skill.name);
      continue;
    }
    const holder = registry.byName.get(skill.name);
    if (holder !== undefined && (holder.skill.source.provider === CUSTOM_PROVIDER || profile === 'xcsh')) {
      warnings.push({
        skillPath: skill.filePath,
        message: `name collision: "${skill.name}" already loaded from ${holder.skill.filePath}, skipping this one`,
      });
      ledger.lose(candidate, 'custom-collision');
      continue;
    }
    if (holder !== undefined) ledger.lose(holder, 'custom-override');
    // The replaced skill's realpath stays registered: a later copy of that file is still a duplicate.
    register(registry, candidate);
  }
  return warnings;
}

/**
 * Step 5: a managed skill is accepted iff its name is valid, not disabled/ignored and included, its file is new, no
 * authored item of ALL with an enabled source has its name (whatever the filters did to that item), and the name is
 * not registered yet. Its description is sanitised.
 */
function addManagedSkills(
  all: ProviderItem[],
  registry: Registry,
  filters: SkillFilters,
  ledger: CollisionLedger,
): Map<Skill, Skill> {
  /** Each accepted record with its sanitised description → the record as scanned. */
  const sanitised = new Map<Skill, Skill>();
  const authoredEnabledNames = new Set(all.filter((i) => !i.managed && i.sourceEnabled).map((i) => i.skill.name));
  for (const item of all) {
    if (!item.managed) continue;
    const { name } = item.skill;
    const sameFile = registry.byRealpath.get(item.realpath);
    if (sameFile !== undefined) ledger.lose(item, 'duplicate-file', sameFile.skill.name);
    else if (authoredEnabledNames.has(name) || registry.byName.has(name)) ledger.lose(item, 'precedence');
    else if (!MANAGED_NAME.test(name) || !filters.accepts(name)) ledger.lose(item, 'disabled');
    else {
      const skill = { ...item.skill, description: sanitizeManagedDescription(item.skill.description) };
      sanitised.set(skill, item.skill);
      register(registry, { ...item, skill });
    }
  }
  return sanitised;
}

/** MusePi step 2: a filtered-out item does not hide a lower-priority enabled one. Managed items wait for step 5. */
function firstEnabledWins(all: ProviderItem[], filters: SkillFilters, ledger: CollisionLedger): ProviderItem[] {
  const kept: ProviderItem[] = [];
  const keptByName = new Map<string, ProviderItem>();
  for (const item of all) {
    if (item.managed) continue;
    if (!passes(item, filters)) {
      ledger.lose(item, 'disabled');
      continue;
    }
    const holder = keptByName.get(item.skill.name);
    if (holder !== undefined) {
      ledger.lose(item, holder.realpath === item.realpath ? 'duplicate-file' : 'precedence');
      continue;
    }
    keptByName.set(item.skill.name, item);
    kept.push(item);
  }
  return kept;
}

/** xcsh step 2: dedup by name first, then filter, so a filtered-out winner makes the name disappear. */
function dedupThenFilter(all: ProviderItem[], filters: SkillFilters, ledger: CollisionLedger): ProviderItem[] {
  const firsts = new Map<string, ProviderItem>();
  for (const item of all) {
    if (item.managed) continue;
    const holder = firsts.get(item.skill.name);
    if (holder === undefined) firsts.set(item.skill.name, item);
    else ledger.lose(item, holder.realpath === item.realpath ? 'duplicate-file' : 'precedence');
  }
  const kept: ProviderItem[] = [];
  for (const item of firsts.values()) {
    if (passes(item, filters)) kept.push(item);
    else ledger.lose(item, 'disabled');
  }
  return kept;
}

function passes(item: ProviderItem, filters: SkillFilters): boolean {
  return item.sourceEnabled && !filters.isIgnored(item.skill.name) && filters.isIncluded(item.skill.name);
}

/**
 * realpath of every distinct filePath: the scans' answer when they gave one, else resolved here, concurrently; a file
 * that vanished meanwhile keeps its own path.
 */
async function realpathsOf(skills: Skill[], known: Map<string, string>): Promise<Map<string, string>> {
  const paths = [...new Set(skills.map((skill) => skill.filePath).filter((path) => !known.has(path)))];
  if (paths.length === 0) return known;
  const resolved = await Promise.all(paths.map((path) => realpath(path).catch(() => path)));
  for (const [index, path] of paths.entries()) known.set(path, resolved[index] ?? path);
  return known;
}

/** The Agent Plugins winners' roots (SKILLS.md §4a): what `skill://` must keep their files inside. */
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
