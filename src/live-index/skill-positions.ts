// Where a named skill sits in a list of winners: every discovery gives them in the order of docs/discovery.md §1 with
// one skill per name, so a binary search finds it in O(log N). What a reload changed is found this way by name
// (diff-snapshots.ts, snapshot-json.ts) instead of by walking all N records.

import { compareCodeUnits } from '../discovery/pipeline/sort-skills.js';
import type { Skill, WinnerChange } from '../discovery/types.js';

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

/**
 * The positions whose record a reload replaced, ascending, when that is all it did: every changed name sits at the
 * same position in both lists (or in neither). Every other position then holds the very same record (the contract
 * of `WinnerChange`). Undefined when a record came, went or moved.
 */
export function replacedPositions(change: WinnerChange): number[] | undefined {
  if (change.previous.length !== change.next.length) return undefined;
  const positions: number[] = [];
  for (const name of change.names) {
    const was = positionOf(change.previous, name);
    if (was !== positionOf(change.next, name)) return undefined;
    if (was >= 0 && change.previous[was] !== change.next[was]) positions.push(was);
  }
  return positions.sort((a, b) => a - b);
}
