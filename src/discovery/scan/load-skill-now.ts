// Loading one entry of a skills directory (docs/discovery.md §3) with synchronous calls, for the first index built
// before the daemon listens (docs/performance.md): only a plain SKILL.md that is no link; anything else is left to
// load-skill.ts, so that the records and notes are the same either way.

import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { concatFlat } from '../flat-string.js';
import { isTrustedLink } from '../link-trust.js';
import { skillNameNote } from '../skill-name-notes.js';
import { NO_NOTES, untrustedEntryText } from './entry-notes.js';
import { isErrnoException } from './is-errno-exception.js';
import { parsedHead } from './parse-skill-head.js';
import { OPEN_FLAGS_NO_FOLLOW, readSkillFileHeadNow, type SkillFileHead } from './read-skill-file.js';
import type { ScanOptions } from './scan-options.js';
import type { ScannedEntry } from './scanned-entry.js';
import { type CachedSkillFile, type SkillFileStamp, stampOf } from './skill-file-cache.js';
import { SKILL_FILE_NAME, toSkill } from './skill-record.js';

/**
 * The synchronous path tells a linked SKILL.md by the open refusing it (`O_NOFOLLOW`): where the platform has no such
 * flag (Windows), every file goes through the asynchronous path and its `lstat`.
 */
export const OPEN_REFUSES_LINKS = (fs.constants.O_NOFOLLOW ?? 0) !== 0;

/**
 * `loadSkill` (load-skill.ts) with synchronous calls, for what it handles the common way: a SKILL.md that is a
 * regular file and no link, read through one `open(O_NOFOLLOW)` + `fstat` + `read` + `close` (the `lstat` of the
 * asynchronous path is the `fstat` of the descriptor here: the same stats for a file that is not a link). Undefined
 * for everything else, which `loadSkill` then handles from the start; a skill directory that is a link with link
 * rules, too.
 *
 * On the `real` benchmark tree at 10,000 the first discovery's per-skill I/O went from five callbacks (lstat, open,
 * fstat, read, close) with their promises to four plain calls in a loop; see docs/performance.md.
 */
export function loadPlainSkillNow(
  prefixes: EntryPrefixes,
  entryName: string,
  entryIsLink: boolean,
  options: ScanOptions,
): ScannedEntry | undefined {
  // Built flat, and the shown paths are the read ones when the directory is shown as read (docs/memory.md "Kept
  // strings"): the records keep them for the life of the snapshot.
  const diskDir = concatFlat(prefixes.read, entryName);
  const readPath = concatFlat(prefixes.read, entryName, prefixes.file);
  const sameShown = prefixes.shown === prefixes.read;
  const baseDir = sameShown ? diskDir : concatFlat(prefixes.shown, entryName);
  const filePath = sameShown ? readPath : concatFlat(prefixes.shown, entryName, prefixes.file);
  if (entryIsLink && options.links !== undefined) {
    const refused = untrustedEntryNoteNow(diskDir);
    if (refused !== undefined) {
      return { entryName, filePath, readPath, entryIsLink, linked: true, skill: undefined, notes: [refused] };
    }
  }
  const kept = keptReadingNow(readPath, filePath, options);
  if (kept !== undefined) return scannedOf(entryName, filePath, readPath, baseDir, entryIsLink, kept, options);
  let found: FileNow;
  try {
    found = openSkillFileNow(readPath);
  } catch (error) {
    // Missing: no skill and nothing to say, unless the entry is a link (the dangling-link note is the slow path's).
    const code = isErrnoException(error) ? error.code : undefined;
    if (entryIsLink || (code !== 'ENOENT' && code !== 'ENOTDIR')) return undefined;
    return { entryName, filePath, readPath, entryIsLink, linked: false, skill: undefined, notes: NO_NOTES };
  }
  const { fd, stats } = found;
  let stamp: SkillFileStamp | undefined;
  let cached: CachedSkillFile | undefined;
  let head: SkillFileHead | undefined;
  try {
    // A directory, FIFO, socket or device: the slow path words the note.
    if (!stats.isFile()) throw new Error('not a regular file');
    if (stats.size > 0) {
      stamp = stampOf(stats);
      cached = options.cache?.lookup(filePath, stamp, options.profile);
      if (cached === undefined) head = readSkillFileHeadNow(fd, stats, 'frontmatter');
    }
  } catch {
    closeNow(fd);
    return undefined;
  }
  // Closed before anything is parsed or cached: a close that fails is an unreadable file on the slow path.
  if (!closeNow(fd)) return undefined;
  const read =
    cached ??
    (head === undefined || stamp === undefined
      ? { frontmatter: undefined, notes: NO_NOTES }
      : parsedHead(head, filePath, stamp, options));
  return scannedOf(entryName, filePath, readPath, baseDir, entryIsLink, read, options);
}

/**
 * The cache's reading of a SKILL.md it holds one of, when one `lstat` finds the file as the open below would: a
 * regular file, no link, with the stamp of the reading (its inode, size, modification and change times). The open, its
 * `fstat` and the close are then not needed: the other profiles' discoveries of the views look at thousands of files
 * the daemon's own discovery has just read (docs/performance.md "The views' file system calls"). A file the cache does
 * not hold (a first discovery) costs no `lstat` more.
 */
function keptReadingNow(readPath: string, filePath: string, options: ScanOptions): CachedSkillFile | undefined {
  const cache = options.cache;
  if (cache === undefined || !cache.has(filePath)) return undefined;
  let stats: Stats;
  try {
    stats = fs.lstatSync(readPath);
  } catch {
    return undefined;
  }
  if (!stats.isFile() || stats.size === 0) return undefined;
  const stamp = stampOf(stats);
  return cache.holds(filePath, stamp, options.profile) ? cache.lookup(filePath, stamp, options.profile) : undefined;
}

/** The scanned entry of a SKILL.md that opened, from its reading (none: empty, or nothing to parse). */
function scannedOf(
  entryName: string,
  filePath: string,
  readPath: string,
  baseDir: string,
  entryIsLink: boolean,
  { frontmatter, notes }: { frontmatter: Record<string, unknown> | undefined; notes: readonly string[] },
  options: ScanOptions,
): ScannedEntry {
  // A skill directory that is a link and gave no skill is not dangling either: its SKILL.md opened.
  const skill = frontmatter && toSkill(frontmatter, entryName, baseDir, filePath, readPath, options);
  const nameNote = skill && skillNameNote(skill.name);
  return {
    entryName,
    filePath,
    readPath,
    entryIsLink,
    linked: entryIsLink,
    skill,
    notes: nameNote ? [...notes, nameNote] : notes,
  };
}

/**
 * What `join(dir, name)` and `join(shownDir, name)` start with, and what `join(path, SKILL.md)` adds, for any entry
 * `name` of a listing that is not hidden (never `.` or `..`, never holding a separator): the same strings as `join`
 * gives, built by concatenation (`join` normalises its whole result each time: four calls per skill showed as 8 % of
 * a first discovery's samples at 10,000 skills).
 */
export interface EntryPrefixes {
  read: string;
  shown: string;
  file: string;
}

export function entryPrefixes(dir: string, shownDir: string): EntryPrefixes {
  // `join(dir, 'x')` is the normalised `dir` followed by a separator (none after an empty `dir`) and `x`.
  const probe = 'x';
  return {
    read: join(dir, probe).slice(0, -probe.length),
    shown: join(shownDir, probe).slice(0, -probe.length),
    file: join(probe, SKILL_FILE_NAME).slice(probe.length),
  };
}

/** `untrustedEntryNote` (load-skill.ts) with synchronous calls. */
function untrustedEntryNoteNow(baseDir: string): string | undefined {
  let link: Stats | undefined;
  try {
    link = fs.lstatSync(baseDir);
  } catch {
    return undefined;
  }
  if (!link.isSymbolicLink()) return undefined;
  let target: Stats | undefined;
  try {
    target = fs.statSync(baseDir);
  } catch {
    target = undefined;
  }
  if (target === undefined || isTrustedLink(link, target)) return undefined;
  return untrustedEntryText(baseDir, link, target);
}

function closeNow(fd: number): boolean {
  try {
    fs.closeSync(fd);
    return true;
  } catch {
    return false;
  }
}

interface FileNow {
  fd: number;
  stats: Stats;
}

/** Opens `path`, refusing a link in the last place (ELOOP), and `fstat`s it; closes it again when the `fstat` fails. */
function openSkillFileNow(path: string): FileNow {
  const fd = fs.openSync(path, OPEN_FLAGS_NO_FOLLOW);
  try {
    return { fd, stats: fs.fstatSync(fd) };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
