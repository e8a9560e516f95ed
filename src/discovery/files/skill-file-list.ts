// Every file of a skill that `GET /skill/<name>/<path>` would serve, found by walking the skill's directory through
// skill:// resolution itself (docs/discovery.md §6): each directory and each file goes through resolveSkillResource, so a
// link out of the skill under `contain`, a FIFO, a device or a file that vanished is left out exactly where the file
// route would refuse it. The archive route, the MCP `skills/list` resources and `resources/directory/read` are built
// from this list.
//
// The walk is bounded (docs/api.md "Limits on walks"): by the entries it examines, refused ones included, by the
// directories it lists and by their depth, and it stops when its signal aborts. Past a bound it answers what it
// found so far with the bound's reason; the files and bytes bounds are those of docs/mcp.md §Bounds.

import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isSkillsdError } from '../errors.js';
import { uriSegment } from '../skill-locations.js';
import { skillDirOnDisk } from '../skill-paths.js';
import type { Settings, Skill } from '../types.js';
import { type ResolveOptions, resolveSkillResource, type SkillFileResource } from './resolve-skill-url.js';
import type { SkillDirectoryEntry } from './skill-directory-listing.js';
import { DEFAULT_WALK_LIMITS, isWalkBoundPassed, WalkBudget, type WalkLimits } from './walk-budget.js';

/**
 * Bounds on one skill's walk: a skill is instructions and a few assets, not a data set. Files and bytes are the
 * per-skill limits of the MCP Skills Extension, which every conforming host accepts (docs/mcp.md §Bounds); entries,
 * directories and depth bound the work of the walk itself (docs/api.md "Limits on walks").
 */
export interface SkillFileLimits extends WalkLimits {
  /** Most files listed. */
  maxFiles: number;
  /** Most bytes in all listed files together (by their size when listed). */
  maxBytes: number;
}

export const DEFAULT_SKILL_FILE_LIMITS: Readonly<SkillFileLimits> = Object.freeze({
  ...DEFAULT_WALK_LIMITS,
  maxFiles: 512,
  maxBytes: 16 * 1024 * 1024,
});

/** The bounds in force: `server.walkLimits` over the defaults. */
export function skillFileLimits(settings: Settings): SkillFileLimits {
  return { ...DEFAULT_SKILL_FILE_LIMITS, ...settings.server.walkLimits };
}

export interface SkillFileEntry {
  /** The path below the skill's directory, `/`-separated (`SKILL.md`, `scripts/run.sh`). */
  relative: string;
  resource: SkillFileResource;
}

/** Each directory listed, by its path below the skill's directory (`''` for the skill's own). */
export type SkillDirectories = ReadonlyMap<string, readonly SkillDirectoryEntry[]>;

/** A directory as it was when listed: any entry added, removed or renamed in it changes its times. */
export interface DirectoryStamp {
  realPath: string;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface WalkRecord {
  /** Each directory listed, by its path below the skill's directory. */
  directories: SkillDirectories;
  /** What `stillCurrent` compares against the disk. */
  stamps: readonly DirectoryStamp[];
  /** Entries examined, refused ones included. */
  examined: number;
}

export type SkillFileList =
  | ({ complete: true; files: SkillFileEntry[]; bytes: number } & WalkRecord)
  /** A bound was passed: `reason` says which, in words for a person; `directories` holds those listed before. */
  | ({ complete: false; reason: string } & WalkRecord);

export interface SkillWalkOptions {
  /** Ends the walk (it rejects with the signal's reason): the client went away. */
  signal?: AbortSignal;
  /** Called for every entry examined (a counter the daemon shows). */
  onEntry?: () => void;
  /** Called for every directory the walk lists. */
  onDirectory?: () => void;
}

/**
 * The files of skill `name`, sorted by relative path (code unit order: stable whatever the locale). Throws the
 * resolution errors of the skill itself (`SkillNotFound`); files and directories that resolution refuses are left
 * out. A directory reached twice (a link to an ancestor) is walked once.
 */
export async function listSkillFiles(
  skills: Skill[],
  name: string,
  options: ResolveOptions,
  limits: SkillFileLimits = DEFAULT_SKILL_FILE_LIMITS,
  walk: SkillWalkOptions = {},
): Promise<SkillFileList> {
  // Directories are listed whatever the profile: xcsh refuses a directory URL, not a directory walk.
  // An unknown (or empty) name is the resolution error of the skill itself.
  if (!skills.some((skill) => skill.name === name)) await resolveSkillResource(skills, name, undefined, options);
  const budget = new WalkBudget(limits, walk.signal, walk.onEntry, walk.onDirectory);
  const walkOptions: ResolveOptions = {
    ...options,
    profile: options.profile === 'xcsh' ? 'musepi' : options.profile,
    budget,
  };
  const fileOptions: ResolveOptions = { ...options, budget };
  const files: SkillFileEntry[] = [];
  const directories = new Map<string, readonly SkillDirectoryEntry[]>();
  const stamps: DirectoryStamp[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  const pending: Array<{ relative: string; depth: number }> = [{ relative: '', depth: 0 }];
  const stampDirectory = async (real: string): Promise<void> => {
    const info = await stat(real).catch(() => undefined);
    if (info !== undefined)
      stamps.push({ realPath: real, ino: info.ino, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs });
  };
  // The directory being listed when a bound passed: its stamp tells when a second look could answer otherwise.
  let listing = '';
  const passed = (reason: string): SkillFileList => ({
    complete: false,
    reason,
    directories,
    stamps,
    examined: budget.examined,
  });
  try {
    while (pending.length > 0) {
      const { relative, depth } = pending.pop()!;
      listing = relative;
      budget.directory();
      const directory = await resolveQuietly(skills, name, relative === '' ? '.' : encodePath(relative), walkOptions);
      if (directory?.kind !== 'directory') continue;
      directories.set(relative, directory.entries);
      const real = await realpath(directory.path).catch(() => undefined);
      if (real === undefined || seen.has(real)) continue;
      seen.add(real);
      await stampDirectory(real);
      for (const entry of directory.entries) {
        walk.signal?.throwIfAborted();
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.type === 'directory') {
          budget.depth(depth + 1);
          pending.push({ relative: child, depth: depth + 1 });
          continue;
        }
        const file = await resolveQuietly(skills, name, encodePath(child), fileOptions);
        if (file?.kind !== 'file') continue;
        files.push({ relative: child, resource: file });
        bytes += file.size;
        if (files.length > limits.maxFiles) return passed(`more than ${limits.maxFiles} files`);
        if (bytes > limits.maxBytes) return passed(`more than ${limits.maxBytes} bytes`);
      }
    }
  } catch (error) {
    if (!isWalkBoundPassed(error)) throw error;
    const skill = skills.find((candidate) => candidate.name === name);
    const real = skill && (await realpath(join(skillDirOnDisk(skill), listing)).catch(() => undefined));
    if (real !== undefined && !seen.has(real)) await stampDirectory(real);
    return passed(error.message);
  }
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { complete: true, files, bytes, directories, stamps, examined: budget.examined };
}

/**
 * Whether a listing still describes the disk: every directory it listed has the times it had (an entry added,
 * removed or replaced changes them) and every file it found has the same inode, size, mode and mtime. A few
 * thousand `stat` calls at most, against the resolution of every entry a walk costs; supporting files change
 * without moving the index's generation, so a remembered listing is checked before it is used again.
 */
export async function stillCurrent(list: SkillFileList): Promise<boolean> {
  for (const stamp of list.stamps) {
    const info = await stat(stamp.realPath).catch(() => undefined);
    if (info?.ino !== stamp.ino || info.mtimeMs !== stamp.mtimeMs || info.ctimeMs !== stamp.ctimeMs) return false;
  }
  if (!list.complete) return true;
  for (const { resource } of list.files) {
    const info = await stat(resource.realPath).catch(() => undefined);
    if (
      info?.ino !== resource.ino ||
      info.size !== resource.size ||
      info.mtimeMs !== resource.mtimeMs ||
      info.mode !== resource.mode
    ) {
      return false;
    }
  }
  return true;
}

/** A relative path as the raw (still percent-encoded) text resolveSkillResource decodes once. */
function encodePath(relative: string): string {
  return relative.split('/').map(uriSegment).join('/');
}

async function resolveQuietly(skills: Skill[], name: string, raw: string, options: ResolveOptions) {
  try {
    return await resolveSkillResource(skills, name, raw, options);
  } catch (error) {
    // A bound passed ends the walk; any other refusal leaves out this one entry.
    if (isSkillsdError(error) && !isWalkBoundPassed(error)) return undefined;
    throw error;
  }
}
