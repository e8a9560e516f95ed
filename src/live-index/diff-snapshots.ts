// What changed between two index states: the payloads of the `index`, `collision` and `warning` events
// (docs/api.md §GET /events).

import { indexOfName } from '../discovery/pipeline/pipeline-memo.js';
import { compareNames } from '../discovery/pipeline/sort-skills.js';
import { sameJson } from '../discovery/same-json.js';
import type { Collision, Skill, SkillWarning, WinnerChange } from '../discovery/types.js';
import type { PendingEvent } from './event-log.js';

export type CollisionState = 'new' | 'changed' | 'resolved';

export interface CollisionChange {
  name: string;
  state: CollisionState;
  /** The collision as it is now; for `resolved`, as it was last (so a client can tell what went away). */
  collision: Collision;
}

export interface SnapshotDiff {
  /** Names loaded now and not before, in the new loaded order. */
  added: string[];
  /** Names loaded before and not now, in the old loaded order. */
  removed: string[];
  /** Names loaded in both whose record differs in any field, in the new loaded order. */
  changed: string[];
  /** New, changed collisions in the new order, then resolved ones in the old order. */
  collisions: CollisionChange[];
  /** Warnings present now that were not before (counted as a multiset: a repeated warning can be new). */
  newWarnings: SkillWarning[];
}

/** The parts of a snapshot a diff reads. */
export interface DiffableState {
  readonly skills: readonly Skill[];
  readonly collisions: readonly Collision[];
  readonly warnings: readonly SkillWarning[];
}

/**
 * `changed`, when given, says which names alone may differ between the two skill lists (every other position holds
 * the very same record, in the same relative order): the diff then visits those names only, not every skill (50,000
 * pointer comparisons and name comparisons per reload at N = 50,000). It is used only for the lists it names.
 */
export function diffSnapshots(previous: DiffableState, next: DiffableState, changed?: WinnerChange): SnapshotDiff {
  const hinted =
    changed !== undefined && changed.previous === previous.skills && changed.next === next.skills
      ? byChangedNames(previous.skills, next.skills, changed.names)
      : undefined;
  const skills = hinted ?? samePositions(previous.skills, next.skills) ?? byName(previous.skills, next.skills);
  return {
    ...skills,
    collisions: previous.collisions === next.collisions ? [] : diffCollisions(previous.collisions, next.collisions),
    newWarnings: previous.warnings === next.warnings ? [] : newWarnings(previous.warnings, next.warnings),
  };
}

/** The events a diff is told as, in order: `index`, then each `collision`, then each new `warning`. */
export function changeEvents(diff: SnapshotDiff, generation: number): PendingEvent[] {
  const pending: PendingEvent[] = [
    { type: 'index', data: { generation, added: diff.added, removed: diff.removed, changed: diff.changed } },
  ];
  for (const change of diff.collisions) pending.push({ type: 'collision', data: change });
  for (const warning of diff.newWarnings) {
    pending.push({ type: 'warning', data: { skillPath: warning.skillPath, message: warning.message } });
  }
  return pending;
}

type SkillChanges = Pick<SnapshotDiff, 'added' | 'removed' | 'changed'>;

/**
 * A reload that added or removed nothing keeps every name at its position, and keeps the very record object of every
 * skill it did not touch: then one pass comparing pointers finds the changed records, whatever N is. Undefined when
 * some position holds another name (the lists are then matched by name).
 */
function samePositions(previous: readonly Skill[], next: readonly Skill[]): SkillChanges | undefined {
  if (previous === next) return { added: [], removed: [], changed: [] };
  if (previous.length !== next.length) return undefined;
  let touched: number[] | undefined;
  for (let i = 0; i < next.length; i++) {
    const old = previous[i]!;
    const skill = next[i]!;
    if (old === skill) continue;
    if (old.name !== skill.name) return undefined;
    touched ??= [];
    touched.push(i);
  }
  const changed: string[] = [];
  for (const i of touched ?? []) {
    // Records compared as their JSON would be (a re-read may give an equal record in a new object).
    if (!sameJson(previous[i], next[i])) changed.push(next[i]!.name);
  }
  return { added: [], removed: [], changed };
}

/**
 * Both lists in the order of docs/discovery.md §1 with one skill per name, as every discovery gives them: one merge walk,
 * comparing names only where the records differ (a skill added or removed shifts every later position by one, and
 * matching 10,000 names through two maps cost ≈ 3 ms per reload).
 */
function byName(previous: readonly Skill[], next: readonly Skill[]): SkillChanges {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < previous.length && j < next.length) {
    const old = previous[i]!;
    const skill = next[j]!;
    if (old === skill) {
      i++;
      j++;
      continue;
    }
    const order = compareNames(old.name, skill.name);
    if (order === 0) {
      // Records compared as their JSON would be (a re-read may give an equal record in a new object).
      if (!sameJson(old, skill)) changed.push(skill.name);
      i++;
      j++;
    } else if (order < 0) {
      removed.push(old.name);
      i++;
    } else {
      added.push(skill.name);
      j++;
    }
  }
  for (; i < previous.length; i++) removed.push(previous[i]!.name);
  for (; j < next.length; j++) added.push(next[j]!.name);
  return { added, removed, changed };
}

/** The skill changes among `names` alone, each found by a binary search of both lists (sorted by name, §1). */
function byChangedNames(previous: readonly Skill[], next: readonly Skill[], names: ReadonlySet<string>): SkillChanges {
  const added: Array<[number, string]> = [];
  const removed: Array<[number, string]> = [];
  const changed: Array<[number, string]> = [];
  for (const name of names) {
    const was = indexOfName(previous, name);
    const now = indexOfName(next, name);
    if (was < 0 && now < 0) continue;
    if (was < 0) added.push([now, name]);
    else if (now < 0) removed.push([was, name]);
    else if (previous[was] !== next[now] && !sameJson(previous[was], next[now])) changed.push([now, name]);
  }
  // In loaded order, as the walks above give them.
  const inOrder = (list: Array<[number, string]>): string[] => list.sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  return { added: inOrder(added), removed: inOrder(removed), changed: inOrder(changed) };
}

export function isEmptyDiff(diff: SnapshotDiff): boolean {
  return (
    diff.added.length === 0 &&
    diff.removed.length === 0 &&
    diff.changed.length === 0 &&
    diff.collisions.length === 0 &&
    diff.newWarnings.length === 0
  );
}

/** Collisions that appeared, changed or went away, by name (the default view's, or one agent view's). */
export function diffCollisions<C extends { name: string }>(
  previous: readonly C[],
  next: readonly C[],
): Array<{ name: string; state: CollisionState; collision: C }> {
  const before = new Map(previous.map((collision) => [collision.name, collision]));
  const nextNames = new Set(next.map((collision) => collision.name));
  const changes: Array<{ name: string; state: CollisionState; collision: C }> = [];
  for (const collision of next) {
    const old = before.get(collision.name);
    if (old === undefined) changes.push({ name: collision.name, state: 'new', collision });
    else if (!sameJson(old, collision)) {
      changes.push({ name: collision.name, state: 'changed', collision });
    }
  }
  for (const collision of previous) {
    if (!nextNames.has(collision.name)) changes.push({ name: collision.name, state: 'resolved', collision });
  }
  return changes;
}

function newWarnings(previous: readonly SkillWarning[], next: readonly SkillWarning[]): SkillWarning[] {
  const remaining = new Map<string, number>();
  for (const warning of previous) {
    const key = warningKey(warning);
    remaining.set(key, (remaining.get(key) ?? 0) + 1);
  }
  const fresh: SkillWarning[] = [];
  for (const warning of next) {
    const key = warningKey(warning);
    const count = remaining.get(key) ?? 0;
    if (count > 0) remaining.set(key, count - 1);
    else fresh.push(warning);
  }
  return fresh;
}

function warningKey(warning: SkillWarning): string {
  return `${warning.skillPath}\u0000${warning.message}`;
}
