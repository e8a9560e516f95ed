// A re-scan of a skills directory built from the previous scan of it and the few entries that changed, instead of from
// the whole listing: what a reload after one edit or one skill added, removed or renamed pays for. With 1,524 siblings
// (the crowded directory of the `real` benchmark tree) reading the listing, walking every entry, resolving their
// realpaths, sorting the records and the diagnostics again took ≈ 4 ms of a reload that changed one entry.
//
// The answer is the one a full scan gives, given what the caller promises (scan-memo.ts): every entry changed since
// the previous scan is touched, or the listing itself moved. So:
// - which entries are candidates (docs/discovery.md §3: not hidden, a directory or a link) is either the listing read again,
//   or, when the directory's own stamp (scan-memo.ts `stampOf`, taken before each listing) did not move, the previous
//   listing with each touched entry looked at alone (`lstat`, as the listing's entry types); a touched entry found
//   otherwise than the previous listing had it reads the listing after all;
// - the entries that came, went, changed kind or were touched are loaded again; every other entry's outcome is kept;
// - the records are those kept with the loaded ones inserted in the order of docs/discovery.md §1 (a total order: one record
//   per entry, so one per `filePath`), the diagnostics likewise in `filePath` order, the entries and realpaths the
//   previous maps with the changed entries' on top (layered-map.ts).

import type { Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { LayeredMap } from '../pipeline/layered-map.js';
import { compareSkills } from '../pipeline/sort-skills.js';
import { sameJson } from '../same-json.js';
import type { Skill, SkillDiagnostic } from '../types.js';
import type { ScannedEntry } from './scanned-entry.js';

/** What the previous scan of the same directory with the same options gave. */
export interface PreviousScan {
  readonly skills: readonly Skill[];
  readonly diagnostics: readonly SkillDiagnostic[];
  readonly realpaths: ReadonlyMap<string, string>;
  /** The directory's stamp is what it was before the previous listing: the listing is taken as unchanged. */
  readonly listingUnchanged: boolean;
}

/** Above this many changed entries the whole directory is scanned as usual (sorting all is then as cheap). */
export const MAX_UPDATED_ENTRIES = 64;

/** What is a candidate now, by entry name: a link (true), a directory (false), or none (undefined). */
export type EntryChanges = Map<string, boolean | undefined>;

/**
 * With the listing taken as unchanged: each touched entry looked at alone. Undefined when one is not what the previous
 * listing had (the listing must be read), or when too many were touched.
 */
export async function touchedEntryChanges(
  dir: string,
  entries: ReadonlyMap<string, ScannedEntry>,
  touched: ReadonlySet<string>,
): Promise<EntryChanges | undefined> {
  if (touched.size > MAX_UPDATED_ENTRIES) return undefined;
  const names = [...touched].filter((name) => !name.startsWith('.') && name !== '');
  const kinds = await Promise.all(names.map((name) => candidateKind(join(dir, name))));
  const changes: EntryChanges = new Map();
  for (const [i, name] of names.entries()) {
    const now = kinds[i];
    if (now === UNKNOWN) return undefined;
    const before = entries.get(name);
    if ((now === undefined) !== (before === undefined) || (before !== undefined && before.entryIsLink !== now)) {
      return undefined;
    }
    if (now !== undefined) changes.set(name, now);
  }
  return changes;
}

/**
 * With the listing read again: the entries that came, went, changed kind or were touched. Undefined when too many
 * changed (the whole directory is then scanned as usual).
 */
export function listingChanges(
  candidates: readonly Dirent[],
  entries: ReadonlyMap<string, ScannedEntry>,
  touched: ReadonlySet<string>,
): EntryChanges | undefined {
  const changes: EntryChanges = new Map();
  let stayed = 0;
  const touchedListed = new Set<string>();
  for (const candidate of candidates) {
    const { name } = candidate;
    const isLink = candidate.isSymbolicLink();
    const before = entries.get(name);
    if (before !== undefined) stayed++;
    const isTouched = touched.has(name);
    if (isTouched) touchedListed.add(name);
    if (before === undefined || before.entryIsLink !== isLink || isTouched) {
      changes.set(name, isLink);
      if (changes.size > MAX_UPDATED_ENTRIES) return undefined;
    }
  }
  // Every previous entry still listed: none went (the common case of an entry added, no walk of the previous ones).
  if (stayed === entries.size) return changes;
  // The touched entries that went account for every entry that went (the common case of an entry removed or renamed,
  // and reported so): no walk of the previous ones either (7,612 in the crowded directory at N = 50,000).
  const wentTouched = [...touched].filter((name) => !touchedListed.has(name) && entries.has(name));
  if (wentTouched.length === entries.size - stayed) {
    for (const name of wentTouched) {
      changes.set(name, undefined);
      if (changes.size > MAX_UPDATED_ENTRIES) return undefined;
    }
    return changes;
  }
  const listed = new Set(candidates.map((candidate) => candidate.name));
  for (const name of entries.keys()) {
    if (listed.has(name)) continue;
    changes.set(name, undefined);
    if (changes.size > MAX_UPDATED_ENTRIES) return undefined;
  }
  return changes;
}

/** What `updateScan` hands back: the scan's outputs. */
export interface UpdatedScan {
  skills: Skill[];
  diagnostics: SkillDiagnostic[];
  /** The previous maps with the changes on top (layered-map.ts): a change costs what it changed, not a copy of all. */
  entries: ReadonlyMap<string, ScannedEntry>;
  realpaths: ReadonlyMap<string, string>;
  /**
   * The records of the changed entries before and after (each record of an entry that did not change, and its
   * realpath, is the very one of the previous scan): what a caller compares instead of every record of the directory.
   */
  changed: { before: Skill[]; after: Skill[] };
}

/**
 * The previous scan with the `changes` applied: `loaded` are the outcomes of the changed entries that are candidates
 * now (their realpaths resolved).
 */
export function updateScan(
  previous: PreviousScan,
  previousEntries: ReadonlyMap<string, ScannedEntry>,
  changes: EntryChanges,
  loaded: readonly ScannedEntry[],
): UpdatedScan {
  // Every record and diagnostic of a changed entry goes (one per entry, found by its name and `filePath`), the loaded
  // come in, each in its sorted place.
  const skills = [...previous.skills];
  let diagnostics = previous.diagnostics;
  const gone: string[] = [];
  const changedBefore: Skill[] = [];
  /** The previous record and diagnostics of each changed entry, by `filePath`: kept when read again alike. */
  const kept = new Map<string, { skill: Skill | undefined; notes: readonly SkillDiagnostic[] }>();
  for (const name of changes.keys()) {
    const before = previousEntries.get(name);
    if (before === undefined) continue;
    gone.push(before.filePath);
    let notes: readonly SkillDiagnostic[] = [];
    // The record as the previous scan answered it: the entry may hold an equal copy of it (a whole scan keeps the
    // previous record object in its answer, scan-memo.ts `keepUnchanged`, not in its entries).
    let record: Skill | undefined;
    if (before.skill !== undefined) {
      const at = insertionPoint(skills, before.skill);
      if (skills[at]?.filePath === before.filePath) {
        record = skills[at]!;
        changedBefore.push(record);
        skills.splice(at, 1);
      }
    }
    if (before.notes.length > 0) [diagnostics, notes] = withoutNotesOf(diagnostics, before.filePath);
    kept.set(before.filePath, { skill: record, notes });
  }
  // An entry read again that serialises as before keeps its previous objects (scan-memo.ts `keepUnchanged` does the
  // same over a whole scan): the snapshot's diff and serialiser then see the very objects of what did not change.
  const changedAfter: Skill[] = [];
  const reloaded = loaded.map((entry): ScannedEntry => {
    const old = kept.get(entry.filePath)?.skill;
    if (entry.skill === undefined || old === undefined || old === entry.skill || !sameJson(old, entry.skill)) {
      return entry;
    }
    return { ...entry, skill: old };
  });
  for (const { skill } of reloaded) {
    if (skill === undefined) continue;
    changedAfter.push(skill);
    skills.splice(insertionPoint(skills, skill), 0, skill);
  }
  const real: Array<[string, string]> = [];
  for (const entry of loaded)
    if (entry.skill !== undefined && entry.realpath !== undefined) {
      real.push([entry.filePath, entry.realpath]);
    }
  return {
    skills,
    diagnostics: mergeDiagnostics(diagnostics, reloaded, kept),
    entries: LayeredMap.update(
      previousEntries,
      changes.keys(),
      reloaded.map((entry) => [entry.entryName, entry] as const),
    ),
    realpaths: LayeredMap.update(previous.realpaths, gone, real),
    changed: { before: changedBefore, after: changedAfter },
  };
}

/** `diagnostics` (in `skillPath` order) without those of `filePath` (the same list when it has none), and those. */
function withoutNotesOf(
  diagnostics: readonly SkillDiagnostic[],
  filePath: string,
): [readonly SkillDiagnostic[], readonly SkillDiagnostic[]] {
  let low = 0;
  let high = diagnostics.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (diagnostics[mid]!.skillPath < filePath) low = mid + 1;
    else high = mid;
  }
  let end = low;
  while (end < diagnostics.length && diagnostics[end]!.skillPath === filePath) end++;
  if (end === low) return [diagnostics, []];
  return [[...diagnostics.slice(0, low), ...diagnostics.slice(end)], diagnostics.slice(low, end)];
}

/** Where `skill` goes in `skills`, sorted by `compareSkills` (no record of the same `filePath` is there). */
function insertionPoint(skills: readonly Skill[], skill: Skill): number {
  let low = 0;
  let high = skills.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareSkills(skills[mid]!, skill) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * `kept` (in `skillPath` order) with the notes of `loaded` merged in by `filePath`, as a full scan lists them: each
 * message once per file, in the order the file's read gave them.
 */
function mergeDiagnostics(
  kept: readonly SkillDiagnostic[],
  loaded: readonly ScannedEntry[],
  before: ReadonlyMap<string, { notes: readonly SkillDiagnostic[] }>,
): SkillDiagnostic[] {
  const noted = loaded.filter((entry) => entry.notes.length > 0);
  if (noted.length === 0) return [...kept];
  noted.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  const out: SkillDiagnostic[] = [];
  let i = 0;
  for (const { filePath, notes } of noted) {
    while (i < kept.length && kept[i]!.skillPath < filePath) out.push(kept[i++]!);
    const old = before.get(filePath)?.notes ?? [];
    for (const message of notes.length > 1 ? new Set(notes) : notes) {
      out.push(old.find((note) => note.message === message) ?? { skillPath: filePath, message });
    }
  }
  while (i < kept.length) out.push(kept[i++]!);
  return out;
}

const UNKNOWN = Symbol('unknown');

/**
 * Whether `path` is a candidate skill directory as a listing tells it: a link, a directory, or neither (missing
 * included); UNKNOWN when it cannot be told (the listing then decides).
 */
async function candidateKind(path: string): Promise<boolean | undefined | typeof UNKNOWN> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return true;
    return stats.isDirectory() ? false : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : UNKNOWN;
  }
}
