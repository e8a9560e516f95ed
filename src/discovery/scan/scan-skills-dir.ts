// Scanning one skills directory (docs/discovery.md §3) into skill records (§1).

import type { Dirent, Stats } from 'node:fs';
import * as fs from 'node:fs';
import { readdir, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseFrontmatter } from '../frontmatter/frontmatter.js';
import {
  isTrustedLink,
  type LinkPolicy,
  namedFileAllowed,
  untrustedLinkOnPath,
  untrustedLinkText,
} from '../link-trust.js';
import {
  MAX_SKILL_FILE_BYTES,
  OPEN_FLAGS_NO_FOLLOW,
  readSkillFileHead,
  readSkillFileHeadNow,
  type SkillFileHead,
} from './read-skill-file.js';
import {
  type EntryChanges,
  listingChanges,
  MAX_UPDATED_ENTRIES,
  type PreviousScan,
  touchedEntryChanges,
  updateScan,
} from './scan-update.js';
import type { ScannedEntry } from './scanned-entry.js';

export type { ScannedEntry } from './scanned-entry.js';

import { sortBySkill } from '../pipeline/sort-skills.js';
import { skillNameNote } from '../skill-name-notes.js';
import type { Level, Profile, Skill, SkillDiagnostic } from '../types.js';
import { type CachedSkillFile, type SkillFileCache, type SkillFileStamp, stampOf } from './skill-file-cache.js';

export interface ScanOptions {
  requireDescription: boolean;
  /**
   * How the directory is written in the records (`filePath`, `baseDir`) and warnings, when not as `dir` itself: a
   * relative custom directory stays relative there (docs/discovery.md §5 step 4) while `dir` is what is read. `source.path`
   * is always the path read.
   */
  shownDir?: string;
  profile: Profile;
  provider: string;
  providerName: string;
  level: Level;
  /** The plugin the directory belongs to (docs/discovery.md §4a): recorded as `source.plugin`. */
  plugin?: string;
  /** Put before every name found (xcsh's claude-plugins: `<plugin>:`). */
  namePrefix?: string;
  cache?: SkillFileCache;
  /**
   * Receives this scan's diagnostics (daemon-only, see `SkillDiagnostic`) once it is done, ordered by SKILL.md
   * path. The reference skips these files silently; `skills` and `warnings` are the same with or without it.
   */
  diagnostics?: SkillDiagnostic[];
  /**
   * Receives the realpath of every loaded skill's SKILL.md (docs/discovery.md §5 step 3), keyed by its `filePath`. The
   * directory is resolved once; only entries that are symlinks or hold a symlinked SKILL.md are resolved one by one,
   * since below a real directory a real entry's real file has the path `<realpath(dir)>/<entry>/SKILL.md`.
   */
  realpaths?: Map<string, string>;
  /**
   * The directory's real path, resolved by the caller right before the scan (and checked again after it, scan-memo.ts):
   * not resolved once more here.
   */
  realDir?: string;
  /** Receives every candidate entry's outcome by entry name, for `reuse` by the next scan of this directory. */
  entries?: Map<string, ScannedEntry>;
  /**
   * `read` is set to true once the entries are those of a listing of the directory (read now, or the previous one
   * updated); left false when it could not be listed (missing, not a directory, unreadable) or was not read (a link
   * rule). A scan that updated `reuse.previous` sets `entries` and `realpaths` here (the previous maps with the
   * changes on top) instead of filling `ScanOptions.entries` and `ScanOptions.realpaths`.
   */
  listing?: {
    read: boolean;
    entries?: ReadonlyMap<string, ScannedEntry>;
    realpaths?: ReadonlyMap<string, string>;
    /** With `entries`: the records of the changed entries before and after (scan-update.ts `UpdatedScan.changed`). */
    changed?: { before: Skill[]; after: Skill[] };
  };
  /**
   * The previous scan's entries (with the same options): an entry still listed, of the same kind and not `touched`
   * is taken as it was instead of being read again. The caller promises that every entry changed since is touched.
   * With `previous` (that scan's outputs), a few changed entries update it (scan-update.ts) instead of a scan of all.
   */
  reuse?: {
    entries: ReadonlyMap<string, ScannedEntry>;
    touched: ReadonlySet<string>;
    previous?: PreviousScan;
  };
  /**
   * Which links may be followed (link-trust.ts): the directory's own path, a linked skill directory and a linked
   * SKILL.md that break a rule are skipped with a diagnostic. Absent, every link is followed, as the reference does.
   */
  links?: LinkPolicy;
  /**
   * Read each plain SKILL.md with synchronous calls (`read-skill-file.ts`), for a first index built before the daemon
   * listens, when nothing else needs the event loop. Anything but a regular, non-empty SKILL.md that is not a link
   * (a link, a missing or unreadable file, a directory, a FIFO…) is left to the asynchronous path, so the records,
   * notes and order are the same either way (`test/discovery/scan/blocking-scan.test.ts`).
   */
  blocking?: boolean;
}

export interface ScanResult {
  skills: Skill[];
  /** Bare text; the caller adds its prefix. */
  warnings: string[];
}

export const SKILL_FILE_NAME = 'SKILL.md';

/**
 * `lstat`/`stat` of every SKILL.md through the callback API, cheaper per call than `fs/promises` here: 10,000 calls
 * with 64 at a time took ≈ 115 ms against ≈ 160 ms (benchmark fixture, same process, alternating rounds).
 */
const lstat = promisify(fs.lstat);
const stat = promisify(fs.stat);

/**
 * The synchronous path tells a linked SKILL.md by the open refusing it (`O_NOFOLLOW`): where the platform has no such
 * flag (Windows), every file goes through the asynchronous path and its `lstat`.
 */
const OPEN_REFUSES_LINKS = (fs.constants.O_NOFOLLOW ?? 0) !== 0;

/** Files read at once: enough to keep the disk busy, few enough not to exhaust descriptors with 10,000 skills. */
const READ_CONCURRENCY = 64;

export async function scanSkillsDir(dir: string, options: ScanOptions): Promise<ScanResult> {
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
  const prefixes =
    options.blocking === true && OPEN_REFUSES_LINKS ? entryPrefixes(dir, options.shownDir ?? dir) : undefined;
  const loaded = await mapWithLimit(candidates, READ_CONCURRENCY, (entry) => {
    const kept = reuse?.entries.get(entry.name);
    if (kept !== undefined && kept.entryIsLink === entry.isSymbolicLink() && !reuse?.touched.has(entry.name)) {
      return kept;
    }
    if (prefixes !== undefined) {
      const now = loadPlainSkillNow(prefixes, entry.name, entry.isSymbolicLink(), options);
      if (now !== undefined) return now;
    }
    return loadSkill(dir, entry.name, entry.isSymbolicLink(), options);
  });
  if (options.realpaths !== undefined) {
    await recordRealpaths(loaded, await realDir, options.realpaths, options.blocking === true);
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

/** One candidate `<dir>/<entryName>`. */
async function loadSkill(
  dir: string,
  entryName: string,
  entryIsLink: boolean,
  options: ScanOptions,
): Promise<ScannedEntry> {
  const readPath = join(dir, entryName, SKILL_FILE_NAME);
  const baseDir = join(options.shownDir ?? dir, entryName);
  const filePath = join(baseDir, SKILL_FILE_NAME);
  // Links are judged and files read where they are on disk; the record shows `filePath`/`baseDir`.
  const diskDir = join(dir, entryName);
  if (entryIsLink && options.links !== undefined) {
    const refused = await untrustedEntryNote(diskDir);
    if (refused !== undefined) {
      return { entryName, filePath, readPath, entryIsLink, linked: true, skill: undefined, notes: [refused] };
    }
  }
  const read = await readFrontmatter(readPath, diskDir, options);
  const { frontmatter, fileIsLink, real } = read;
  let notes = read.notes;
  if (entryIsLink && frontmatter === undefined && notes.length === 0) {
    const dangling = await danglingLinkNote(diskDir);
    if (dangling !== undefined) notes = [dangling];
  }
  const skill = frontmatter && toSkill(frontmatter, entryName, baseDir, filePath, readPath, options);
  const nameNote = skill && skillNameNote(skill.name);
  return {
    entryName,
    filePath,
    readPath,
    entryIsLink,
    linked: entryIsLink || fileIsLink,
    // Resolved already to judge the link: `recordRealpaths` need not resolve it again.
    ...(skill !== undefined && real !== undefined ? { realpath: real } : {}),
    skill,
    notes: nameNote ? [...notes, nameNote] : notes,
  };
}

/**
 * `loadSkill` with synchronous calls, for what it handles the common way: a SKILL.md that is a regular file and no
 * link, read through one `open(O_NOFOLLOW)` + `fstat` + `read` + `close` (the `lstat` of the asynchronous path is
 * the `fstat` of the descriptor here: the same stats for a file that is not a link). Undefined for everything else,
 * which `loadSkill` then handles from the start; a skill directory that is a link with link rules, too.
 *
 * On the `real` benchmark tree at 10,000 the first discovery's per-skill I/O went from five callbacks (lstat, open,
 * fstat, read, close) with their promises to four plain calls in a loop; see docs/performance.md.
 */
function loadPlainSkillNow(
  prefixes: EntryPrefixes,
  entryName: string,
  entryIsLink: boolean,
  options: ScanOptions,
): ScannedEntry | undefined {
  const diskDir = prefixes.read + entryName;
  const readPath = diskDir + prefixes.file;
  const baseDir = prefixes.shown + entryName;
  const filePath = baseDir + prefixes.file;
  if (entryIsLink && options.links !== undefined) {
    const refused = untrustedEntryNoteNow(diskDir);
    if (refused !== undefined) {
      return { entryName, filePath, readPath, entryIsLink, linked: true, skill: undefined, notes: [refused] };
    }
  }
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
  const { frontmatter, notes } =
    cached ??
    (head === undefined || stamp === undefined
      ? { frontmatter: undefined, notes: NO_NOTES }
      : parsedHead(head, filePath, stamp, options));
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
interface EntryPrefixes {
  read: string;
  shown: string;
  file: string;
}

function entryPrefixes(dir: string, shownDir: string): EntryPrefixes {
  // `join(dir, 'x')` is the normalised `dir` followed by a separator (none after an empty `dir`) and `x`.
  const probe = 'x';
  return {
    read: join(dir, probe).slice(0, -probe.length),
    shown: join(shownDir, probe).slice(0, -probe.length),
    file: join(probe, SKILL_FILE_NAME).slice(probe.length),
  };
}

/** `untrustedEntryNote` with synchronous calls. */
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

function realpathNow(path: string): string {
  try {
    return fs.realpathSync.native(path);
  } catch {
    return path;
  }
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

/** The diagnostic of a skill directory that is another user's link to something not theirs; undefined when fine. */
async function untrustedEntryNote(baseDir: string): Promise<string | undefined> {
  let link: Stats;
  try {
    link = await lstat(baseDir);
  } catch {
    // Gone since the listing: the read below finds nothing either.
    return undefined;
  }
  if (!link.isSymbolicLink()) return undefined;
  const target = await stat(baseDir).catch(() => undefined);
  // Dangling: nothing is read through it (the SKILL.md read finds nothing).
  if (target === undefined || isTrustedLink(link, target)) return undefined;
  return untrustedEntryText(baseDir, link, target);
}

function untrustedEntryText(baseDir: string, link: Stats, target: Stats): string {
  const text = untrustedLinkText({ path: baseDir, ownerUid: link.uid, targetUid: target.uid });
  return `skill directory not read: ${text}; the skill is skipped`;
}

/** The realpath of each loaded skill's file; one that vanished meanwhile keeps its own path (as `realpath` fails). */
async function recordRealpaths(
  loaded: readonly ScannedEntry[],
  realDir: string | undefined,
  into: Map<string, string>,
  blocking: boolean,
): Promise<void> {
  const resolved = await Promise.all(
    loaded.map(({ skill, linked, readPath, entryName, realpath: known }) => {
      if (skill === undefined || known !== undefined) return known;
      if (!linked && realDir !== undefined) return join(realDir, entryName, SKILL_FILE_NAME);
      // `realpathSync.native` is the same system call as the promise's `realpath` (not the JS `realpathSync`).
      return blocking ? realpathNow(readPath) : realpath(readPath).catch(() => readPath);
    }),
  );
  loaded.forEach((entry, index) => {
    const real = resolved[index];
    if (real === undefined) return;
    entry.realpath = real;
    into.set(entry.filePath, real);
  });
}

function toSkill(
  frontmatter: Record<string, unknown>,
  entryName: string,
  baseDir: string,
  filePath: string,
  readPath: string,
  options: ScanOptions,
): Skill | undefined {
  if (frontmatter.enabled === false) return undefined;
  if (options.requireDescription && !frontmatter.description) return undefined;
  const { name, description } = frontmatter;
  const ownName = typeof name === 'string' && name.trim() !== '' ? name.trim() : entryName;
  return {
    name: options.namePrefix === undefined ? ownName : `${options.namePrefix}${ownName}`,
    description: typeof description === 'string' ? description : '',
    filePath,
    baseDir,
    hide: options.profile !== 'xcsh' && (frontmatter.hide === true || frontmatter.disableModelInvocation === true),
    source: {
      id: `${options.provider}:${options.level}`,
      provider: options.provider,
      providerName: options.providerName,
      level: options.level,
      path: readPath,
      ...(options.plugin === undefined ? {} : { plugin: options.plugin }),
    },
    frontmatter,
  };
}

const NO_NOTES: readonly string[] = Object.freeze([]);

/**
 * A skill directory that is a link to nothing: the reference skips it without a word, which in a container (a link into
 * a directory that was not mounted) looks like a skill that vanished. Said in the diagnostics instead.
 */
async function danglingLinkNote(linkPath: string): Promise<string | undefined> {
  try {
    await stat(linkPath);
    return undefined;
  } catch (error) {
    if (!isErrnoException(error) || error.code !== 'ENOENT') return undefined;
  }
  const target = await readlink(linkPath).catch(() => undefined);
  if (target === undefined) return undefined;
  return (
    `the skill directory is a symbolic link to ${target}, which does not exist here (in a container: a path outside ` +
    'the mounted volumes); the skill is skipped'
  );
}

/**
 * The file's normalised frontmatter; undefined when it is missing, not a file, empty or unreadable. `notes` are
 * the diagnostics of the read and the parse: a missing or empty file has none (that is how a skill is removed, or
 * how an editor saves), a file that exists but cannot be read does.
 */
async function readFrontmatter(
  filePath: string,
  baseDir: string,
  options: ScanOptions,
): Promise<{
  frontmatter: Record<string, unknown> | undefined;
  notes: readonly string[];
  fileIsLink: boolean;
  /** realpath(filePath), when a link rule needed it. */
  real?: string;
}> {
  let stats: Stats;
  let fileIsLink = false;
  let linkStats: Stats | undefined;
  try {
    // The entry's own symlink is followed either way; `lstat` tells whether SKILL.md itself is a link, and gives
    // the same stats as `stat` when it is not.
    stats = await lstat(filePath);
    if (stats.isSymbolicLink()) {
      fileIsLink = true;
      linkStats = stats;
      // Follows symlinks: a dangling link, a link to a file (ENOTDIR) or a missing SKILL.md all end here.
      stats = await stat(filePath);
    }
  } catch (error) {
    const code = isErrnoException(error) ? error.code : undefined;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { frontmatter: undefined, notes: NO_NOTES, fileIsLink };
    return { frontmatter: undefined, notes: [unreadableNote(error)], fileIsLink };
  }
  if (!stats.isFile()) {
    return {
      frontmatter: undefined,
      notes: [`SKILL.md is not a regular file (${fileKind(stats)}); the skill is skipped`],
      fileIsLink,
    };
  }
  let real: string | undefined;
  if (linkStats !== undefined && options.links !== undefined) {
    // Judged before the cache is consulted: a parse remembered from before never bypasses the rules.
    const judged = await judgeLinkedSkillFile(filePath, baseDir, linkStats, stats, options.links);
    if (typeof judged !== 'string') return { frontmatter: undefined, notes: [judged.note], fileIsLink };
    real = judged;
  }
  if (stats.size === 0) return { frontmatter: undefined, notes: NO_NOTES, fileIsLink };
  const stamp = stampOf(stats);
  const cached = options.cache?.lookup(filePath, stamp, options.profile);
  if (cached) return { ...cached, fileIsLink, real };
  let head: Awaited<ReturnType<typeof readSkillFileHead>>;
  try {
    // With link rules, the path that was judged (the link's real path, or the plain file), never a link swapped in
    // since: what a swap higher up could still lead to is a file named SKILL.md.
    head =
      options.links === undefined
        ? await readSkillFileHead(filePath, MAX_SKILL_FILE_BYTES, false, 'frontmatter')
        : await readSkillFileHead(real ?? filePath, MAX_SKILL_FILE_BYTES, true, 'frontmatter');
  } catch (error) {
    return { frontmatter: undefined, notes: [unreadableNote(error)], fileIsLink };
  }
  return { ...parsedHead(head, filePath, stamp, options), fileIsLink, real };
}

/** The frontmatter and notes of a SKILL.md's head, remembered in the cache under `stamp`. */
function parsedHead(
  head: SkillFileHead,
  filePath: string,
  stamp: SkillFileStamp,
  options: ScanOptions,
): { frontmatter: Record<string, unknown> | undefined; notes: readonly string[] } {
  if (head.text === '') return { frontmatter: undefined, notes: NO_NOTES };
  const notes: string[] = [];
  if (head.truncated) {
    notes.push(
      `SKILL.md is ${head.size} bytes, more than the ${MAX_SKILL_FILE_BYTES}-byte read limit: only its first ` +
        `${MAX_SKILL_FILE_BYTES} bytes were read (the frontmatter must close within them)`,
    );
  }
  if (!head.validUtf8) notes.push('SKILL.md is not valid UTF-8: its invalid bytes were read as U+FFFD');
  const { frontmatter } = parseFrontmatter(head.text, options.profile, notes);
  options.cache?.set(filePath, stamp, options.profile, frontmatter, keptTextLength(head.text, notes), notes);
  return { frontmatter, notes };
}

/**
 * A SKILL.md that is a link: its real path when the link rules allow it, else the diagnostic that skips the skill.
 * Ownership in every mode; in contain mode it must lead inside the skill's real directory, the workspace or its
 * repository, or to a file named SKILL.md (a SKILL.md shared with another skill).
 */
async function judgeLinkedSkillFile(
  filePath: string,
  baseDir: string,
  link: Stats,
  target: Stats,
  policy: LinkPolicy,
): Promise<string | { note: string }> {
  if (!isTrustedLink(link, target)) {
    const text = untrustedLinkText({ path: filePath, ownerUid: link.uid, targetUid: target.uid });
    return { note: `SKILL.md not read: ${text}; the skill is skipped` };
  }
  let real: string;
  let realBase: string;
  try {
    [real, realBase] = await Promise.all([realpath(filePath), realpath(baseDir)]);
  } catch (error) {
    return { note: unreadableNote(error) };
  }
  if (policy.contain && !namedFileAllowed(real, SKILL_FILE_NAME, [realBase, ...policy.roots])) {
    return {
      note:
        `SKILL.md is a symbolic link to ${real}, which is outside the skill's directory, the workspace and its ` +
        `repository, and not a file named SKILL.md ("symlinks": "contain"); the skill is skipped`,
    };
  }
  return real;
}

/**
 * What a cache entry really holds, in characters of source: the frontmatter block (up to its closing fence) and the
 * notes, never the body. Weighing by the whole file made 50,000 skills of 6.7 KiB outweigh the cache's bound while the
 * frontmatter it keeps is a few hundred bytes each, so the LRU evicted everything on every scan.
 */
export function keptTextLength(text: string, notes: readonly string[]): number {
  const close = text.startsWith('---') ? text.indexOf('\n---', 3) : -1;
  let length = close === -1 ? 0 : close;
  for (const note of notes) length += note.length;
  return length;
}

function unreadableNote(error: unknown): string {
  const reason = isErrnoException(error) && error.code !== undefined ? error.code : String(error);
  return `SKILL.md cannot be read (${reason}); the skill is skipped`;
}

function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a file';
}

async function mapWithLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => R | Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
