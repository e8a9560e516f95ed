// docs/discovery.md §5 steps 2–5 over a list of candidates in discovery order: first enabled wins (xcsh: first wins, then
// filter), realpath dedup, custom directories, managed skills. Every decision about a candidate reads only the
// candidates that share its name or its realpath (the name dedup, the realpath registry, a custom override, the
// authored names a managed skill defers to), so running these steps over a set of candidates closed under "same name
// or same realpath" decides those candidates exactly as a run over all of them does: that is what lets a reload run
// them over the few candidates a change touched (pipeline-memo.ts).
//
// Collision reasons where the spec leaves the choice open:
// - a candidate that loses on name to a winner with the same realpath is a `duplicate-file`, not a `precedence` loss;
// - a realpath duplicate of a differently-named skill is reported under the name of the skill holding that file;
// - xcsh: candidates dropped by the name dedup are `precedence` losses even when the first candidate is then filtered
//   out (they only show up when a custom skill later takes the name);
// - managed candidates: same file as a registered skill → `duplicate-file`; name taken by an authored skill (kept or
//   not) → `precedence`; invalid name or filtered → `disabled`.

import { MANAGED_NAME, sanitizeManagedDescription } from '../frontmatter/sanitize-description.js';
import type { Profile, Skill, SkillWarning } from '../types.js';
import { type Candidate, CollisionLedger } from './collision-ledger.js';
import { CUSTOM_PROVIDER } from './run-provider.js';
import type { SkillFilters } from './skill-filters.js';

/** A provider's candidate, tagged with what step 2 and step 5 need to know about its source. */
export interface ProviderItem extends Candidate {
  managed: boolean;
  sourceEnabled: boolean;
}

export interface Resolution {
  /** The winner of each name that has one (a managed winner with its description sanitised). */
  winners: Map<string, Candidate>;
  ledger: CollisionLedger;
  /** Step 4's name-collision warnings, in the order produced. */
  collisionWarnings: SkillWarning[];
  /** The name each of those warnings is about. */
  warnedNames: string[];
  /** Each accepted managed record with its sanitised description → the record as scanned. */
  sanitised: Map<Skill, Skill>;
}

/** Steps 2–5 over `providerItems` then `customCandidates`, each list in discovery order (`order` ascending). */
export function resolveCandidates(
  providerItems: ProviderItem[],
  customCandidates: Candidate[],
  profile: Profile,
  filters: SkillFilters,
): Resolution {
  const ledger = new CollisionLedger();
  // Step 2: first enabled wins (xcsh: first wins, then filter).
  const kept =
    profile === 'xcsh'
      ? dedupThenFilter(providerItems, filters, ledger)
      : firstEnabledWins(providerItems, filters, ledger);

  // Step 3: realpath dedup.
  const registry: Registry = { byName: new Map(), byRealpath: new Map() };
  for (const item of kept) {
    const holder = registry.byRealpath.get(item.realpath);
    if (holder !== undefined) ledger.lose(item, 'duplicate-file', holder.skill.name);
    else register(registry, item);
  }

  // Step 4: custom directories.
  const warnedNames: string[] = [];
  const collisionWarnings = addCustomSkills(customCandidates, registry, profile, filters, ledger, warnedNames);

  // Step 5: managed skills, dead last, deferring to any authored skill of that name.
  const sanitised = addManagedSkills(providerItems, registry, filters, ledger);
  return { winners: registry.byName, ledger, collisionWarnings, warnedNames, sanitised };
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
 * Returns the collision warnings, in the order produced (their names into `warnedNames`).
 */
function addCustomSkills(
  candidates: Candidate[],
  registry: Registry,
  profile: Profile,
  filters: SkillFilters,
  ledger: CollisionLedger,
  warnedNames: string[],
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
      warnedNames.push(skill.name);
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
