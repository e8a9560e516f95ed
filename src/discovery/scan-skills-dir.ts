// Scanning one skills directory (SKILLS.md §3) into skill records (§1).

import type { Dirent, Stats } from 'node:fs';
import * as fs from 'node:fs';
import { readdir, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseFrontmatter } from './frontmatter.js';
import { MAX_SKILL_FILE_BYTES, readSkillFileHead } from './read-skill-file.js';
import { type SkillFileCache, stampOf } from './skill-file-cache.js';
import { skillNameNote } from './skill-name-notes.js';
import { sortBySkill } from './sort-skills.js';
import type { Level, Profile, Skill, SkillDiagnostic } from './types.js';

export interface ScanOptions {
  requireDescription: boolean;
  profile: Profile;
  provider: string;
  providerName: string;
  level: Level;
  cache?: SkillFileCache;
  /**
   * Receives this scan's diagnostics (daemon-only, see `SkillDiagnostic`) once it is done, ordered by SKILL.md
   * path. The reference skips these files silently; `skills` and `warnings` are the same with or without it.
   */
  diagnostics?: SkillDiagnostic[];
  /**
   * Receives the realpath of every loaded skill's SKILL.md (SKILLS.md §5 step 3), keyed by its `filePath`. The
   * directory is resolved once; only entries that are symlinks or hold a symlinked SKILL.md are resolved one by one,
   * since below a real directory a real entry's real file has the path `<realpath(dir)>/<entry>/SKILL.md`.
   */
  realpaths?: Map<string, string>;
  /** Receives every candidate entry's outcome by entry name, for `reuse` by the next scan of this directory. */
  entries?: Map<string, ScannedEntry>;
  /**
   * The previous scan's entries (with the same options): an entry still listed, of the same kind and not `touched`
   * is taken as it was instead of being read again. The caller promises that every entry changed since is touched.
   */
  reuse?: { entries: ReadonlyMap<string, ScannedEntry>; touched: ReadonlySet<string> };
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

/** Files read at once: enough to keep the disk busy, few enough not to exhaust descriptors with 10,000 skills. */
const READ_CONCURRENCY = 64;

export async function scanSkillsDir(dir: string, options: ScanOptions): Promise<ScanResult> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return { skills: [], warnings: [] };
    return { skills: [], warnings: [`Failed to read skills directory: ${dir} (${String(error)})`] };
  }
  // Exactly one level deep; hidden entries and plain files are not skills; a symlink is judged by its target below.
  const candidates = entries.filter(
    (entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()),
  );
  const realDir = options.realpaths === undefined ? undefined : realpath(dir).catch(() => undefined);
  const { reuse } = options;
  const loaded = await mapWithLimit(candidates, READ_CONCURRENCY, (entry) => {
    const kept = reuse?.entries.get(entry.name);
    if (kept !== undefined && kept.entryIsLink === entry.isSymbolicLink() && !reuse?.touched.has(entry.name)) {
      return kept;
    }
    return loadSkill(dir, entry.name, entry.isSymbolicLink(), options);
  });
  if (options.realpaths !== undefined) await recordRealpaths(loaded, await realDir, options.realpaths);
  if (options.entries !== undefined) for (const entry of loaded) options.entries.set(entry.entryName, entry);
  const skills = sortBySkill(
    loaded.flatMap((result) => (result.skill === undefined ? [] : [result.skill])),
    (skill) => skill,
  );
  if (options.diagnostics) {
    const noted = loaded.filter((result) => result.notes.length > 0);
    noted.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
    for (const { filePath, notes } of noted) {
      for (const message of notes) options.diagnostics.push({ skillPath: filePath, message });
    }
  }
  return { skills, warnings: [] };
}

/** What one candidate entry gave. */
export interface ScannedEntry {
  readonly entryName: string;
  readonly filePath: string;
  readonly entryIsLink: boolean;
  /** The entry or its SKILL.md is a symlink: its realpath is not the directory's joined with the names. */
  readonly linked: boolean;
  /** The SKILL.md realpath, once resolved (loaded skills only). */
  realpath?: string;
  /** Undefined when the candidate is silently not a skill (§3 steps 2–3). */
  readonly skill: Skill | undefined;
  readonly notes: readonly string[];
}

/** One candidate `<dir>/<entryName>`. */
async function loadSkill(
  dir: string,
  entryName: string,
  entryIsLink: boolean,
  options: ScanOptions,
): Promise<ScannedEntry> {
  const baseDir = join(dir, entryName);
  const filePath = join(baseDir, SKILL_FILE_NAME);
  const read = await readFrontmatter(filePath, options);
  const { frontmatter, fileIsLink } = read;
  let notes = read.notes;
  if (entryIsLink && frontmatter === undefined && notes.length === 0) {
    const dangling = await danglingLinkNote(baseDir);
    if (dangling !== undefined) notes = [dangling];
  }
  const skill = frontmatter && toSkill(frontmatter, entryName, baseDir, filePath, options);
  const nameNote = skill && skillNameNote(skill.name);
  return {
    entryName,
    filePath,
    entryIsLink,
    linked: entryIsLink || fileIsLink,
    skill,
    notes: nameNote ? [...notes, nameNote] : notes,
  };
}

/** The realpath of each loaded skill's file; one that vanished meanwhile keeps its own path (as `realpath` fails). */
async function recordRealpaths(
  loaded: readonly ScannedEntry[],
  realDir: string | undefined,
  into: Map<string, string>,
): Promise<void> {
  const resolved = await Promise.all(
    loaded.map(({ skill, linked, filePath, entryName, realpath: known }) => {
      if (skill === undefined || known !== undefined) return known;
      if (!linked && realDir !== undefined) return join(realDir, entryName, SKILL_FILE_NAME);
      return realpath(filePath).catch(() => filePath);
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
  options: ScanOptions,
): Skill | undefined {
  if (frontmatter.enabled === false) return undefined;
  if (options.requireDescription && !frontmatter.description) return undefined;
  const { name, description } = frontmatter;
  return {
    name: typeof name === 'string' && name.trim() !== '' ? name.trim() : entryName,
    description: typeof description === 'string' ? description : '',
    filePath,
    baseDir,
    hide: options.profile !== 'xcsh' && (frontmatter.hide === true || frontmatter.disableModelInvocation === true),
    source: {
      id: `${options.provider}:${options.level}`,
      provider: options.provider,
      providerName: options.providerName,
      level: options.level,
      path: filePath,
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
  options: ScanOptions,
): Promise<{ frontmatter: Record<string, unknown> | undefined; notes: readonly string[]; fileIsLink: boolean }> {
  let stats: Stats;
  let fileIsLink = false;
  try {
    // The entry's own symlink is followed either way; `lstat` tells whether SKILL.md itself is a link, and gives
    // the same stats as `stat` when it is not.
    stats = await lstat(filePath);
    if (stats.isSymbolicLink()) {
      fileIsLink = true;
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
  if (stats.size === 0) return { frontmatter: undefined, notes: NO_NOTES, fileIsLink };
  const stamp = stampOf(stats);
  const cached = options.cache?.lookup(filePath, stamp, options.profile);
  if (cached) return { ...cached, fileIsLink };
  let head: Awaited<ReturnType<typeof readSkillFileHead>>;
  try {
    head = await readSkillFileHead(filePath);
  } catch (error) {
    return { frontmatter: undefined, notes: [unreadableNote(error)], fileIsLink };
  }
  if (head.text === '') return { frontmatter: undefined, notes: NO_NOTES, fileIsLink };
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
  return { frontmatter, notes, fileIsLink };
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
