// Scanning one skills directory (docs/discovery.md §3) into skill records (§1): the listing, the entries kept from
// the previous scan or updated from it (scan-update.ts), each other entry loaded (load-skill.ts, load-skill-now.ts),
// the records sorted and the diagnostics gathered.

import type { Dirent } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { untrustedLinkOnPath, untrustedLinkText } from '../link-trust.js';
import { sortBySkill } from '../pipeline/sort-skills.js';
import { TextIntern } from '../text-intern.js';
import { nextSlice, sliceSpent } from '../time-slices.js';
import type { Skill } from '../types.js';
import { isErrnoException } from './is-errno-exception.js';
import { loadSkill } from './load-skill.js';
import { entryPrefixes, loadPlainSkillNow, OPEN_REFUSES_LINKS } from './load-skill-now.js';
import { mapWithLimit } from './map-with-limit.js';
import { recordRealpaths } from './record-realpaths.js';
import type { ScanOptions, ScanResult } from './scan-options.js';
import {
  type EntryChanges,
  listingChanges,
  MAX_UPDATED_ENTRIES,
  touchedEntryChanges,
  updateScan,
} from './scan-update.js';
import type { ScannedEntry } from './scanned-entry.js';

/** Files read at once: enough to keep the disk busy, few enough not to exhaust descriptors with 10,000 skills. */
const READ_CONCURRENCY = 64;

export async function scanSkillsDir(dir: string, given: ScanOptions): Promise<ScanResult> {
  // The scan's own table of diagnostic texts, unless the caller shares one (docs/memory.md "Repeated diagnostics").
  const options = given.texts === undefined ? { ...given, texts: new TextIntern() } : given;
  const { reuse } = options;
  const previous = reuse?.previous;
  const knownRealDir = options.realDir;
  // The listing known unchanged: the touched entries looked at alone, unless one is not what the listing had. They
  // are read meanwhile as the listing had them (used only when they still are), unless the directory's path holds a
  // link, which is judged first (link-trust.ts).
  let changes: EntryChanges | undefined;
  let guessed: Map<string, Promise<ScannedEntry>> | undefined;
  if (previous?.listingUnchanged === true) {
    const { entries, touched } = reuse!;
    if (knownRealDir === resolve(dir) && touched.size <= MAX_UPDATED_ENTRIES) {
      guessed = guessTouched(dir, entries, touched, options);
    }
    changes = await touchedEntryChanges(dir, entries, touched);
    // A touched entry is not what the listing had: the listing is read, and what was read meanwhile is not used.
    if (changes === undefined) guessed = undefined;
  }
  let candidates: Dirent[] = [];
  if (changes === undefined) {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isErrnoException(error) && error.code === 'ENOENT') return { skills: [], warnings: [] };
      const shown = options.shownDir ?? dir;
      // The error quotes the path read; the warning quotes the directory as written, as the reference's does.
      const reason = shown === dir ? String(error) : String(error).replaceAll(`'${dir}'`, `'${shown}'`);
      return { skills: [], warnings: [`Failed to read skills directory: ${shown} (${reason})`] };
    }
    // Exactly one level deep; hidden entries and plain files are not skills; a symlink is judged by its target below.
    candidates = entries.filter(
      (entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()),
    );
    if (previous !== undefined) changes = listingChanges(candidates, reuse!.entries, reuse!.touched);
  }
  const realDir =
    options.realpaths === undefined && options.links === undefined
      ? undefined
      : knownRealDir !== undefined
        ? Promise.resolve(knownRealDir)
        : realpath(dir).catch(() => undefined);
  if (options.links !== undefined) {
    // The directory itself, reached through another user's link (`<workspace>/.claude -> /home/<you>/…`): not read.
    const untrusted = await untrustedLinkOnPath(dir, await realDir);
    if (untrusted !== undefined) {
      options.diagnostics?.push({
        skillPath: dir,
        message: `skills directory not read: ${untrustedLinkText(untrusted)}`,
      });
      return { skills: [], warnings: [] };
    }
  }
  if (options.listing !== undefined) options.listing.read = true;
  if (previous !== undefined && changes !== undefined) {
    const changed = [...changes].flatMap(([name, isLink]) => (isLink === undefined ? [] : [{ name, isLink }]));
    const loaded = await mapWithLimit(
      changed,
      READ_CONCURRENCY,
      ({ name, isLink }) => guessed?.get(name) ?? loadSkill(dir, name, isLink, options),
    );
    if (options.realpaths !== undefined) await recordRealpaths(loaded, await realDir, new Map(), false);
    const updated = updateScan(previous, reuse!.entries, changes, loaded);
    // Handed over as they are when the caller takes them so (scan-memo.ts), else copied into its maps.
    const { listing } = options;
    if (listing !== undefined) {
      listing.entries = updated.entries;
      listing.realpaths = updated.realpaths;
      listing.changed = updated.changed;
    } else {
      for (const [name, entry] of updated.entries) options.entries?.set(name, entry);
      for (const [path, real] of updated.realpaths) options.realpaths?.set(path, real);
    }
    if (options.diagnostics !== undefined) for (const note of updated.diagnostics) options.diagnostics.push(note);
    return { skills: updated.skills, warnings: [] };
  }
  const now = options.blocking === true || options.sliced === true;
  const prefixes = now && OPEN_REFUSES_LINKS ? entryPrefixes(dir, options.shownDir ?? dir) : undefined;
  const loaded = await mapWithLimit(candidates, READ_CONCURRENCY, async (entry) => {
    const kept = reuse?.entries.get(entry.name);
    if (kept !== undefined && kept.entryIsLink === entry.isSymbolicLink() && !reuse?.touched.has(entry.name)) {
      return kept;
    }
    if (prefixes !== undefined) {
      if (options.sliced === true && sliceSpent()) await nextSlice();
      const now = loadPlainSkillNow(prefixes, entry.name, entry.isSymbolicLink(), options);
      if (now !== undefined) return now;
    }
    return loadSkill(dir, entry.name, entry.isSymbolicLink(), options);
  });
  if (options.realpaths !== undefined) {
    await recordRealpaths(loaded, await realDir, options.realpaths, now);
  }
  if (options.entries !== undefined) for (const entry of loaded) options.entries.set(entry.entryName, entry);
  const skills = sortBySkill(
    loaded.flatMap((result) => (result.skill === undefined ? [] : [result.skill])),
    (skill) => skill,
  );
  if (options.diagnostics) {
    const noted = loaded.filter((result) => result.notes.length > 0);
    noted.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
    for (const { filePath, notes } of noted) {
      // Each message once per file, as discovery lists them (one scan never repeats a file).
      for (const message of notes.length > 1 ? new Set(notes) : notes) {
        options.diagnostics.push({ skillPath: filePath, message });
      }
    }
  }
  return { skills, warnings: [] };
}

/**
 * The touched entries that the previous listing had, read as it had them (a directory or a link): what a re-scan
 * whose listing holds will use (`touchedEntryChanges` tells whether it does).
 */
function guessTouched(
  dir: string,
  entries: ReadonlyMap<string, ScannedEntry>,
  touched: ReadonlySet<string>,
  options: ScanOptions,
): Map<string, Promise<ScannedEntry>> {
  const guessed = new Map<string, Promise<ScannedEntry>>();
  for (const name of touched) {
    const before = entries.get(name);
    if (before === undefined) continue;
    const load = loadSkill(dir, name, before.entryIsLink, options);
    // Not used when the entry turned out otherwise: never an unhandled rejection either.
    load.catch(() => {});
    guessed.set(name, load);
  }
  return guessed;
}

/**
 * The SKILL.md directly inside `dir`, as a skill of its own (claude-plugins, docs/discovery.md §4a): named by its frontmatter,
 * else by the directory's own name; the same rules as an entry of §3 otherwise.
 */
export async function scanSelfSkill(dir: string, options: ScanOptions): Promise<Skill | undefined> {
  const entry = await loadSkill(dirname(dir), basename(dir), false, options);
  return entry.skill;
}
