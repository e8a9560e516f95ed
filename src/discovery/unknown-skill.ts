// What every face says about a skill name that is not loaded (docs/discovery.md §6): the REST and MCP `SkillNotFound`
// message and the command line's line alike. Not the list of every loaded name, which runs to kilobytes with
// hundreds of skills, but the few closest names and how many skills there are:
//
//   Unknown skill: pdff
//   Did you mean pdf? (900 skills loaded)
//
// A name is close when, compared without case, it is at most a third of the typed name's length of edits away (one
// at least: an insertion, a deletion, a substitution or a swap of two neighbours), or when it contains the typed name
// (of three characters or more). The closest come first, then by name; at most five.

import { SkillsdError } from './errors.js';

/** The most close names a message offers. */
export const MAX_CLOSE_NAMES = 5;
/** Typed names longer than this are matched by containment only: edits are counted over short names. */
const MAX_EDIT_COMPARED_CHARS = 100;
const MIN_CONTAINED_CHARS = 3;

/** The loaded names close to `name`, closest first (ties by name), at most {@link MAX_CLOSE_NAMES}. */
export function closeSkillNames(name: string, names: Iterable<string>): string[] {
  const typed = name.toLowerCase();
  const budget = Math.max(1, Math.floor(typed.length / 3));
  const close: Array<{ name: string; distance: number }> = [];
  for (const candidate of new Set(names)) {
    const lower = candidate.toLowerCase();
    const distance =
      typed.length <= MAX_EDIT_COMPARED_CHARS ? editDistanceWithin(typed, lower, budget) : Number.POSITIVE_INFINITY;
    if (distance <= budget) close.push({ name: candidate, distance });
    else if (typed.length >= MIN_CONTAINED_CHARS && lower.includes(typed)) {
      close.push({ name: candidate, distance: lower.length - typed.length });
    }
  }
  close.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return close.slice(0, MAX_CLOSE_NAMES).map((entry) => entry.name);
}

/**
 * The note after "not loaded", starting lower-case: `did you mean pdf? (900 skills loaded)`, `did you mean pdf or
 * pdf2? (…)`, `no close name (2 skills loaded)`, or `no skills loaded`.
 */
export function unknownSkillNote(name: string, names: readonly string[]): string {
  const count = new Set(names).size;
  if (count === 0) return 'no skills loaded';
  const loaded = `(${count} ${count === 1 ? 'skill' : 'skills'} loaded)`;
  const close = closeSkillNames(name, names);
  if (close.length === 0) return `no close name ${loaded}`;
  const listed = close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close[close.length - 1]}`;
  return `did you mean ${listed}? ${loaded}`;
}

/** The `SkillNotFound` message of every face: `Unknown skill: <name>`, a newline, the note capitalised. */
export function unknownSkillMessage(name: string, names: readonly string[]): string {
  const note = unknownSkillNote(name, names);
  return `Unknown skill: ${name}\n${note.charAt(0).toUpperCase()}${note.slice(1)}`;
}

export function unknownSkillError(name: string, names: readonly string[]): SkillsdError {
  return new SkillsdError('SkillNotFound', unknownSkillMessage(name, names));
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`, or `Infinity` as soon as it is known
 * to exceed `budget`.
 */
function editDistanceWithin(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return Number.POSITIVE_INFINITY;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > budget) return Number.POSITIVE_INFINITY;
    before = previous;
    previous = current;
  }
  const distance = previous[b.length] as number;
  return distance <= budget ? distance : Number.POSITIVE_INFINITY;
}
