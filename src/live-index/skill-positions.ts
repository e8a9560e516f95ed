// Where a named skill sits in a list of winners: every discovery gives them in the order of docs/discovery.md §1 with
// one skill per name, so a binary search finds it in O(log N). What a reload changed is found this way by name
// (diff-snapshots.ts) instead of by walking all N records.

import { compareCodeUnits } from '../discovery/pipeline/sort-skills.js';
import type { Skill } from '../discovery/types.js';

/** The position of the skill named `name` in `skills` (sorted by `compareNames`), or -1. */
export function positionOf(skills: readonly Pick<Skill, 'name'>[], name: string): number {
  let low = 0;
  let high = skills.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareNames(skills[mid]!.name, name) < 0) low = mid + 1;
    else high = mid;
  }
  return low < skills.length && skills[low]!.name === name ? low : -1;
}

/** The order of names in docs/discovery.md §1 (lower-cased, then exact, in UTF-16 code units). */
export function compareNames(a: string, b: string): number {
  return compareCodeUnits(a.toLowerCase(), b.toLowerCase()) || compareCodeUnits(a, b);
}
