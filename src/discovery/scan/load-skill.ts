// Loading one entry of a skills directory (docs/discovery.md §3) with asynchronous calls: the way that handles every
// case (links judged by the rules of SECURITY.md "Links and workspaces", dangling links, files that are not regular,
// unreadable files). load-skill-now.ts handles the common case synchronously and leaves everything else here.

import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { concatFlat, flattened } from '../flat-string.js';
import { isTrustedLink, type LinkPolicy, namedFileAllowed, untrustedLinkText } from '../link-trust.js';
import { skillNameNote } from '../skill-name-notes.js';
import { fileKind, NO_NOTES, unreadableNote, untrustedEntryText } from './entry-notes.js';
import { isErrnoException } from './is-errno-exception.js';
import { parsedHead } from './parse-skill-head.js';
import { MAX_SKILL_FILE_BYTES, readSkillFileHead } from './read-skill-file.js';
import type { ScanOptions } from './scan-options.js';
import type { ScannedEntry } from './scanned-entry.js';
import { stampOf } from './skill-file-cache.js';
import { SKILL_FILE_NAME, toSkill } from './skill-record.js';

/**
 * `lstat`/`stat` of every SKILL.md through the callback API, cheaper per call than `fs/promises` here: 10,000 calls
 * with 64 at a time took ≈ 115 ms against ≈ 160 ms (benchmark fixture, same process, alternating rounds).
 */
const lstat = promisify(fs.lstat);
const stat = promisify(fs.stat);

/** One candidate `<dir>/<entryName>`. */
export async function loadSkill(
  dir: string,
  entryName: string,
  entryIsLink: boolean,
  options: ScanOptions,
): Promise<ScannedEntry> {
  // Flat, and one string for a path shown as read (docs/memory.md "Kept strings"): the records keep them.
  const diskDir = flattened(join(dir, entryName));
  const readPath = skillFileIn(diskDir);
  const shownDir = options.shownDir ?? dir;
  const baseDir = shownDir === dir ? diskDir : flattened(join(shownDir, entryName));
  const filePath = baseDir === diskDir ? readPath : skillFileIn(baseDir);
  // Links are judged and files read where they are on disk; the record shows `filePath`/`baseDir`.
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

/** `join(dir, SKILL.md)` for a `join` result, flat. */
function skillFileIn(dir: string): string {
  return dir.endsWith(sep) ? concatFlat(dir, SKILL_FILE_NAME) : concatFlat(dir, sep, SKILL_FILE_NAME);
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
