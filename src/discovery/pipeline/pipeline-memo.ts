// A reload's shortcut through the pipeline of docs/discovery.md §5. Every decision the pipeline makes (which candidate wins a
// name, which ones lose and why, the realpath dedup, the custom and managed steps, the order of §1, every collision
// and collision warning) depends on each candidate's name, filePath, realpath, source and place in discovery order, on
// the settings and on the directories planned; never on the description, `hide` or the rest of the frontmatter. (A
// description only matters inside a scan, where a missing one drops the skill with a warning, and for a managed
// winner, whose description is sanitised.) And a candidate's fate reads only the candidates that share its name or its
// realpath (resolve-candidates.ts). So a reload compares each directory scanned again with its previous scan:
// - records that kept their name, path and realpath (an edit) take the place of the old ones where those won;
// - the names and realpaths of the records that came, went or moved (a skill added, removed or renamed, a link
//   retargeted) seed a set of candidates closed under "same name or same realpath"; steps 2–5 run over that set
//   alone, and its names' winners and collisions replace theirs in the previous answer, inserted in sorted place.
// Anything the shortcut cannot vouch for runs the whole pipeline: other settings or directories, a scan that failed,
// is new or was dropped, scan warnings that changed, a step-4 name-collision warning involved (its place in the warning
// list follows discovery order across all custom candidates), an Agent Plugins skill involved (its plugin root).

import { sanitizeManagedDescription } from '../frontmatter/sanitize-description.js';
import { sameJson } from '../same-json.js';
import type { RememberedScan, ScanRound } from '../scan/scan-round.js';
import type { Collision, DiscoveryResult, Settings, Skill, SkillDiagnostic, WinnerChange } from '../types.js';
import type { Candidate } from './collision-ledger.js';
import { LayeredMap } from './layered-map.js';
import { isSourceEnabled } from './providers.js';
import { type ProviderItem, resolveCandidates } from './resolve-candidates.js';
import type { CustomDirRun, ProviderRun } from './run-provider.js';
import type { SkillFilters } from './skill-filters.js';
import { compareNames, compareSkills } from './sort-skills.js';

export interface PipelineMemo {
  /** The settings and planned directories `result` was computed for (`pipelineKey`). */
  key: string;
  result: DiscoveryResult;
  /** The provider whose winners have their description sanitised (docs/discovery.md §5 step 5), if the profile has one. */
  managedProvider: string | null;
  /**
   * The realpath of each candidate record (docs/discovery.md §5 step 3). A scan answered from the ScanMemo hands on the very
   * records it gave before, so they are found here; a directory scanned again records its records afresh.
   */
  realpaths: WeakMap<Skill, string>;
  /** Realpaths of the candidates read outside scans (new records every time, the same files: part of the key). */
  unscannedRealpaths: Map<string, string>;
  /** Each managed winner, as sanitised in `result.skills` → its record as scanned. */
  scanned: WeakMap<Skill, Skill>;
  /** Names with a step-4 name-collision warning. */
  warnedNames: Set<string>;
  /**
   * Which realpaths every candidate name has and which names every realpath has, over all candidates (disabled ones
   * too): what closes a set of names and realpaths without a pass over every candidate per step. Built on the first
   * closed set from the candidates of that discovery, then kept up to date by the records that came and went.
   */
  pairs?: CandidatePairs;
  /**
   * How `result` was reached: the whole pipeline, records replaced in place, or steps 2–5 over a closed set of
   * candidates (tests tell the paths apart by it).
   */
  reached: 'pipeline' | 'replaced' | 'closed-set';
}

/** What a discovery computes afresh whichever way it goes (cheap: no per-skill work). */
export interface FreshParts {
  /** Joins the scans' diagnostics (≈ 5,000 at N = 10,000 in the benchmark tree): called only when one changed. */
  diagnostics: () => SkillDiagnostic[];
  scannedDirs: string[];
  repoRoot: string | null;
  pluginInputs?: DiscoveryResult['pluginInputs'];
}

/** This discovery's candidates, as the pipeline would take them. */
export interface PipelineInput {
  providerRuns: readonly ProviderRun[];
  customRuns: readonly CustomDirRun[];
  settings: Settings;
  filters: SkillFilters;
}

/** A record of a re-scanned directory whose name, path and realpath did not move: it replaces the old one. */
interface Replacement {
  before: Skill;
  after: Skill;
  managed: boolean;
}

/** An updated answer: the result, which winners it changed, and the memo that describes it for the next reload. */
export interface PipelineUpdate {
  result: DiscoveryResult;
  change: WinnerChange;
  memo: PipelineMemo;
}

/**
 * The previous result updated by what `round`'s re-scanned directories changed, or undefined when the pipeline must
 * run (see the top of this file). `memo` is consumed: on success the update's memo (and `order`, the sort hint)
 * describe the new result; otherwise it is left half-updated and must be dropped.
 */
export function updateFromRescans(
  order: Map<Skill, number>,
  memo: PipelineMemo,
  key: string,
  round: ScanRound,
  fresh: FreshParts,
  input: PipelineInput,
): PipelineUpdate | undefined {
  if (memo.key !== key || round.failed || round.dropped) return undefined;
  const replaced: Replacement[] = [];
  const names = new Set<string>();
  const reals = new Set<string>();
  let unchangedDiagnostics = true;
  for (const { provider, before, after, changed } of round.rescanned) {
    if (before === undefined || !sameList(before.warnings, after.warnings)) return undefined;
    unchangedDiagnostics &&= sameDiagnostics(before.diagnostics, after.diagnostics);
    // An updated scan names the records that changed: only those are compared (every other one is the same object).
    const was = changed === undefined ? before : { ...before, skills: changed.before };
    const now = changed === undefined ? after : { ...after, skills: changed.after };
    compareScans(was, now, memo, provider === memo.managedProvider, replaced, names, reals);
  }
  const previous = memo.result;
  let skills: Skill[] | undefined;
  /** The names whose winner may be another record than before (the closed set's names are added below). */
  const changedNames = new Set<string>();
  const place = (at: number, winner: Skill, old: Skill | undefined): void => {
    skills ??= [...previous.skills];
    if (old !== undefined) order.delete(old);
    order.set(winner, at);
    skills[at] = winner;
  };
  for (const { before, after, managed } of replaced) {
    // A record in the closed set below is decided there.
    if (names.has(before.name)) continue;
    const list = skills ?? previous.skills;
    const at = indexOfName(list, before.name);
    const old = at < 0 ? undefined : list[at];
    // A record that lost keeps losing (same name, path and realpath): only the collisions name it, by path.
    if (old === undefined || (old !== before && memo.scanned.get(old) !== before)) continue;
    changedNames.add(before.name);
    if (managed) {
      const winner = { ...after, description: sanitizeManagedDescription(after.description) };
      memo.scanned.set(winner, after);
      place(at, winner, old);
    } else place(at, after, old);
  }
  let collisions = previous.collisions;
  let skillRealPaths = previous.skillRealPaths;
  if (names.size > 0) {
    const update = resolveClosedSet(memo, input, names, reals);
    if (update === undefined) return undefined;
    const replacedAny = skills !== undefined;
    let list = skills ?? [...previous.skills];
    let spliced = false;
    const removed: string[] = [];
    for (const name of names) {
      const at = indexOfName(list, name);
      const old = at < 0 ? undefined : list[at];
      if (old === undefined || old === update.winners.get(name)?.skill) continue;
      list.splice(at, 1);
      spliced = true;
      order.delete(old);
      removed.push(old.filePath);
    }
    for (const name of names) {
      const winner = update.winners.get(name);
      if (winner === undefined) continue;
      const found = indexOfName(list, name);
      if (found >= 0) continue;
      const at = -found - 1;
      list.splice(at, 0, winner.skill);
      spliced = true;
      order.set(winner.skill, at);
    }
    // Nothing replaced, removed or inserted: the very previous list (no walk comparing every position).
    if (!replacedAny && !spliced) list = previous.skills as Skill[];
    skills = list;
    // A winner that stayed may have moved to another file (a link retargeted): its realpath is set again too.
    const known = previous.skillRealPaths;
    const moved = [...update.winners.values()].filter(
      (winner) => known?.get(winner.skill.filePath) !== winner.realpath,
    );
    if (removed.length > 0 || moved.length > 0) {
      const set = [...update.winners.values()].map((winner) => [winner.skill.filePath, winner.realpath] as const);
      skillRealPaths = LayeredMap.update(known ?? new Map<string, string>(), removed, set);
    }
    collisions = spliceCollisions(previous.collisions, names, update.collisions);
  }
  const result: DiscoveryResult = {
    skills: skills ?? previous.skills,
    // Provider and custom warnings come from the scans (checked equal); no collision warning was involved.
    warnings: previous.warnings,
    collisions,
    // The diagnostics are the scans' in scan order: the very previous list when no re-scanned directory's changed
    // (the snapshot then keeps its serialised tail).
    diagnostics: unchangedDiagnostics
      ? previous.diagnostics
      : freshDiagnostics(previous.diagnostics, fresh.diagnostics()),
    scannedDirs: fresh.scannedDirs,
    repoRoot: fresh.repoRoot,
    ...(skillRealPaths === undefined ? {} : { skillRealPaths }),
    // The Agent Plugins skills are part of the key and never in the closed set: the same ones, in the same roots.
    ...(previous.skillRoots === undefined ? {} : { skillRoots: previous.skillRoots }),
    ...(fresh.pluginInputs === undefined ? {} : { pluginInputs: fresh.pluginInputs }),
  };
  for (const name of names) changedNames.add(name);
  memo.result = result;
  memo.reached = names.size > 0 ? 'closed-set' : 'replaced';
  return { result, change: { previous: previous.skills, next: result.skills, names: changedNames }, memo };
}

/**
 * One directory's scan before and after: records of the same file under the same name with the same realpath are
 * replacements; every other record (new, gone, renamed, relinked) adds its name and realpath to the seeds. Records
 * the memo does not know yet get their realpath recorded.
 */
function compareScans(
  before: RememberedScan,
  after: RememberedScan,
  memo: PipelineMemo,
  managed: boolean,
  replaced: Replacement[],
  names: Set<string>,
  reals: Set<string>,
): void {
  const { pairs } = memo;
  const seed = (skill: Skill, real: string): void => {
    names.add(skill.name);
    reals.add(real);
  };
  // A record that came (or moved in) is a candidate now; one that went (or moved out) no longer is.
  const came = (skill: Skill, real: string): void => {
    seed(skill, real);
    pairs?.add(skill.name, real);
  };
  const went = (skill: Skill, real: string): void => {
    seed(skill, real);
    pairs?.remove(skill.name, real);
  };
  // The common case, an edit: the same files at the same positions, no lookup needed.
  const aligned =
    before.skills.length === after.skills.length &&
    after.skills.every((skill, i) => skill.filePath === before.skills[i]!.filePath);
  const byPath = aligned ? undefined : new Map(before.skills.map((skill) => [skill.filePath, skill]));
  for (let i = 0; i < after.skills.length; i++) {
    const skill = after.skills[i]!;
    const real = after.realpaths.get(skill.filePath) ?? skill.filePath;
    const old = byPath === undefined ? before.skills[i] : byPath.get(skill.filePath);
    const oldReal = old === undefined ? undefined : (before.realpaths.get(old.filePath) ?? old.filePath);
    // The same record with the same realpath is recorded already; anything else is recorded now.
    if (old !== skill || oldReal !== real) memo.realpaths.set(skill, real);
    if (old !== undefined && oldReal !== undefined) {
      byPath?.delete(skill.filePath);
      if (old.name === skill.name && oldReal === real) {
        if (old !== skill) replaced.push({ before: old, after: skill, managed });
        continue;
      }
      went(old, oldReal);
    }
    came(skill, real);
  }
  for (const old of byPath?.values() ?? []) went(old, before.realpaths.get(old.filePath) ?? old.filePath);
}

interface ClosedSetUpdate {
  /** The winner of each name of the set that has one. */
  winners: Map<string, Candidate>;
  /** The set's collisions, sorted (docs/discovery.md §1). */
  collisions: Collision[];
}

/**
 * Grows `names` and `reals` until every candidate sharing a name or a realpath with the set is in it, then runs steps
 * 2–5 over those candidates in discovery order (found by name in each run's sorted lists; the closure itself walks
 * `CandidatePairs`, where it took a pass per step, two at least, each looking up every candidate's realpath).
 * Undefined when the set reaches what the shortcut does not handle.
 */
function resolveClosedSet(
  memo: PipelineMemo,
  input: PipelineInput,
  names: Set<string>,
  reals: Set<string>,
): ClosedSetUpdate | undefined {
  const { providerRuns, customRuns, settings, filters } = input;
  const realOf = (skill: Skill): string =>
    memo.realpaths.get(skill) ?? memo.unscannedRealpaths.get(skill.filePath) ?? skill.filePath;
  memo.pairs ??= CandidatePairs.of(input, realOf);
  memo.pairs.close(names, reals);
  // Closed: a candidate whose realpath is in the set has its name in it too, so the set's candidates are those whose
  // name is, taken in discovery order. `order` counts every candidate, disabled ones too: only the relative order of
  // the set's candidates matters. A run given as sorted lists has each name's candidates found by binary search in
  // each list (at 50,000 skills, a pass over every candidate took ≈ 2.5 ms of a structural reload); a run without
  // them is read whole.
  const providerItems: ProviderItem[] = [];
  const customCandidates: Candidate[] = [];
  let base = 0;
  const eachOfSet = (
    lists: readonly (readonly Skill[])[],
    visit: (skill: Skill, order: number) => boolean,
  ): boolean => {
    let offset = base;
    for (const list of lists) {
      for (const name of names) {
        for (let i = firstOfName(list, name); i < list.length && list[i]!.name === name; i++) {
          if (!visit(list[i]!, offset + i + 1)) return false;
        }
      }
      offset += list.length;
    }
    return true;
  };
  for (const run of providerRuns) {
    const lists = run.roots.size === 0 ? run.segments : undefined;
    const visit = (skill: Skill, order: number): boolean => {
      if (filters.isDisabled(skill.name)) return true;
      if (run.roots.has(skill.filePath)) return false;
      const { provider, level } = skill.source;
      providerItems.push({
        skill,
        managed: run.plan.managed,
        realpath: realOf(skill),
        order,
        sourceEnabled: isSourceEnabled(settings.profile, provider, level, settings.skills),
      });
      return true;
    };
    const complete =
      lists !== undefined
        ? eachOfSet(lists, visit)
        : run.skills.every((skill, i) => !names.has(skill.name) || visit(skill, base + i + 1));
    if (!complete) return undefined;
    base += run.skills.length;
  }
  for (const run of customRuns) {
    eachOfSet([run.skills], (skill, order) => {
      if (!filters.isDisabled(skill.name)) customCandidates.push({ skill, realpath: realOf(skill), order });
      return true;
    });
    base += run.skills.length;
  }
  providerItems.sort((a, b) => a.order - b.order);
  customCandidates.sort((a, b) => a.order - b.order);
  for (const name of names) if (memo.warnedNames.has(name)) return undefined;
  const resolution = resolveCandidates(providerItems, customCandidates, settings.profile, filters);
  if (resolution.collisionWarnings.length > 0) return undefined;
  for (const [sanitised, scanned] of resolution.sanitised) memo.scanned.set(sanitised, scanned);
  const winners = new Map<string, Skill>();
  for (const [name, candidate] of resolution.winners) winners.set(name, candidate.skill);
  return { winners: resolution.winners, collisions: resolution.ledger.collisions(winners) };
}

/**
 * The (name, realpath) pair of every candidate, counted, from both sides: the realpaths of each name and the names of
 * each realpath (a multiset each: two candidates may share both).
 */
export class CandidatePairs {
  private readonly byName = new Map<string, string[]>();
  private readonly byReal = new Map<string, string[]>();

  static of(
    input: Pick<PipelineInput, 'providerRuns' | 'customRuns'>,
    realOf: (skill: Skill) => string,
  ): CandidatePairs {
    const pairs = new CandidatePairs();
    for (const run of [...input.providerRuns, ...input.customRuns]) {
      for (const skill of run.skills) pairs.add(skill.name, realOf(skill));
    }
    return pairs;
  }

  add(name: string, real: string): void {
    push(this.byName, name, real);
    push(this.byReal, real, name);
  }

  remove(name: string, real: string): void {
    pull(this.byName, name, real);
    pull(this.byReal, real, name);
  }

  /** Grows `names` and `reals` until every pair with its name or its realpath in them has both in them. */
  close(names: Set<string>, reals: Set<string>): void {
    const pendingNames = [...names];
    const pendingReals = [...reals];
    for (;;) {
      const name = pendingNames.pop();
      if (name !== undefined) {
        for (const real of this.byName.get(name) ?? []) {
          if (reals.has(real)) continue;
          reals.add(real);
          pendingReals.push(real);
        }
        continue;
      }
      const real = pendingReals.pop();
      if (real === undefined) return;
      for (const other of this.byReal.get(real) ?? []) {
        if (names.has(other)) continue;
        names.add(other);
        pendingNames.push(other);
      }
    }
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function pull(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  const at = list?.indexOf(value) ?? -1;
  if (at < 0) return;
  if (list!.length === 1) map.delete(key);
  else list!.splice(at, 1);
}

/** `previous` without the collisions of `names`, with `added` (sorted) merged in; the same list when equal. */
function spliceCollisions(
  previous: readonly Collision[],
  names: ReadonlySet<string>,
  added: readonly Collision[],
): Collision[] {
  const kept: Collision[] = [];
  const removed: Collision[] = [];
  for (const collision of previous) (names.has(collision.name) ? removed : kept).push(collision);
  if (removed.length === 0 && added.length === 0) return previous as Collision[];
  if (removed.length === added.length && removed.every((collision, i) => sameJson(collision, added[i])))
    return previous as Collision[];
  const out: Collision[] = [];
  let i = 0;
  for (const collision of added) {
    while (i < kept.length && compareCollisions(kept[i]!, collision) < 0) out.push(kept[i++]!);
    out.push(collision);
  }
  while (i < kept.length) out.push(kept[i++]!);
  return out;
}

function compareCollisions(a: Collision, b: Collision): number {
  return compareSkills({ name: a.name, filePath: a.winner.filePath }, { name: b.name, filePath: b.winner.filePath });
}

/** The first position in `skills` (sorted as docs/discovery.md §1) of a skill named `name`, or where one would go. */
function firstOfName(skills: readonly Pick<Skill, 'name'>[], name: string): number {
  let low = 0;
  let high = skills.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareNames(skills[mid]!.name, name) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The position of the skill named `name` in `skills` (sorted as docs/discovery.md §1, one skill per name), or −(insertion
 * point) − 1 when there is none.
 */
export function indexOfName(skills: readonly Pick<Skill, 'name'>[], name: string): number {
  const at = firstOfName(skills, name);
  return skills[at]?.name === name ? at : -at - 1;
}

/** The previous list when equal (a diagnostic may come back as it was), else the new one. */
function freshDiagnostics(previous: SkillDiagnostic[], next: SkillDiagnostic[]): SkillDiagnostic[] {
  return sameDiagnostics(previous, next) ? previous : next;
}

/**
 * Whether two lists of diagnostics serialise alike: the scans make every diagnostic a plain `{ skillPath, message }`
 * of two strings, so comparing those is `sameJson` without its fallback, which serialised both lists (1.3 MB each at
 * N = 10,000 in the benchmark tree) whenever their lengths differed, as they do after an edit adds or drops one.
 */
export function sameDiagnostics(a: readonly SkillDiagnostic[], b: readonly SkillDiagnostic[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y && (x.skillPath !== y.skillPath || x.message !== y.message)) return false;
  }
  return true;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** The inputs of the pipeline other than the candidates: settings and the directories planned, in order. */
export function pipelineKey(parts: unknown): string {
  return JSON.stringify(parts);
}
