// skill:// resolution (docs/discovery.md §6): a skill name and a relative path become one file or one directory listing
// inside that skill's directory. The HTTP face is `GET /skill/<name>/<path>` (docs/api.md); the guards run here so that
// every caller gets the same answers.
//
// The relative part arrives still percent-encoded and is decoded exactly once here: Fastify would have decoded
// `%2e%2e`, `..%2f`, `..%5c` and `%00` before a route saw them (docs/platform-notes.md §1), so the raw URL text is what gets checked.

import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { SkillsdError } from '../errors.js';
import { linkNotFollowed, untrustedLinkOnPath } from '../link-trust.js';
import { descriptorPath } from '../open-descriptor.js';
import { skillDirOnDisk, skillFileOnDisk } from '../skill-paths.js';
import type { Profile, Skill, SymlinkMode } from '../types.js';
import { unknownSkillError } from '../unknown-skill.js';
import { listDirectory, renderListing, type SkillDirectoryEntry } from './skill-directory-listing.js';
import { changedAfterCheck, errorCode, isInside } from './skill-path-guards.js';
import { DEFAULT_WALK_LIMITS, type EntryBudget, WalkBudget } from './walk-budget.js';

export type SkillContentType = 'text/markdown' | 'text/plain';

export type SkillResource =
  | {
      kind: 'file';
      skill: Skill;
      /** The absolute path asked for (`join(baseDir, relative)`, or `filePath`), symlinks not resolved. */
      path: string;
      /** `realpath(path)`: the file that was checked, and the one {@link openSkillFile} opens. */
      realPath: string;
      contentType: SkillContentType;
      size: number;
      mtimeMs: number;
      ino: number;
      dev: number;
      /** Permission bits and file type, as `stat` gave them. */
      mode: number;
      /** The real skill directory the opened file must still be in; null when containment is not checked. */
      containedIn: string | null;
      /** `skill://<name>[/<relative>]`, as used in error messages. */
      url: string;
    }
  | {
      kind: 'directory';
      skill: Skill;
      path: string;
      entries: SkillDirectoryEntry[];
      /** The reference listing: `dir/` lines, then file lines, or `(empty directory)`. */
      listing: string;
      url: string;
    };

export type SkillFileResource = Extract<SkillResource, { kind: 'file' }>;

export interface ResolveOptions {
  profile: Profile;
  symlinks: SymlinkMode;
  /**
   * The realpath discovery read a skill's SKILL.md through (`filePath` → realpath). Given, contain mode serves a
   * skill's own SKILL.md only inside the skill or at that recorded place; absent, the SKILL.md is not checked.
   */
  knownRealPath?: (filePath: string) => string | undefined;
  /**
   * An Agent Plugins skill's real plugin root (docs/discovery.md §4a): its files must resolve inside it in every `symlinks`
   * mode, so `follow` is contained there too (contain mode's own bound, the skill directory, is already inside it).
   */
  pluginRoot?: (filePath: string) => string | undefined;
  /**
   * The skill of exactly that name in `skills`, from an index the caller keeps (a snapshot's): without it each
   * resolution scans `skills`, which at 10,000 skills cost more than the rest of a file answer.
   */
  skillNamed?: (name: string) => Skill | undefined;
  /**
   * Counts the entries a directory listing reads (docs/api.md "Limits on walks"); it throws to stop the listing. A
   * walk passes its own, shared by every directory it lists; without one a listing may read the default number of
   * entries.
   */
  budget?: EntryBudget;
}

const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set(['md', 'markdown', 'mdx', 'mdc', 'mkd', 'mdown']);
// `C:`, `C:\x`, `c:x`: a drive form is absolute (or drive-relative) on Windows, never a name inside a skill.
const DRIVE_PREFIX = /^[A-Za-z]:/;
const SEPARATORS = /[\\/]/;
// Linux's limit on symlinks followed in one lookup (MAXSYMLINKS).
const MAX_LINK_HOPS = 40;

/**
 * Resolves `skill://<name>[/<rawRelative>]` against `skills` (hidden skills included). `rawRelative` is the text
 * after `<name>/`, still percent-encoded; `undefined`, `''` and `'/'` all mean the skill's own SKILL.md.
 * Throws {@link SkillsdError} with the reference messages of §6.
 */
export async function resolveSkillResource(
  skills: Skill[],
  name: string,
  rawRelative: string | undefined,
  options: ResolveOptions,
): Promise<SkillResource> {
  if (name === '') throw new SkillsdError('InvalidPath', 'skill:// URL requires a skill name: skill://<name>');
  const skill =
    options.skillNamed !== undefined ? options.skillNamed(name) : skills.find((candidate) => candidate.name === name);
  if (skill === undefined) {
    throw unknownSkillError(
      name,
      skills.map((candidate) => candidate.name),
    );
  }

  if (rawRelative === undefined || rawRelative === '' || rawRelative === '/') {
    return resolveTarget(skill, resolve(skillFileOnDisk(skill)), `skill://${name}`, options);
  }

  const url = `skill://${name}/${rawRelative}`;
  const relative = decodeRelative(rawRelative, options.profile);
  const base = resolve(skillDirOnDisk(skill));
  // A `\` that passed the guards stays a character of the name, as POSIX reads it. The join resolves the dot
  // segments xcsh lets through (`sub/../ref.md` is `ref.md`) and keeps a trailing slash as given.
  const target = join(base, relative);
  // Unreachable after the checks above; kept so that a future change to them cannot open a hole silently.
  if (!isInside(base, target)) {
    throw new SkillsdError('InvalidPath', 'Path traversal (..) is not allowed in skill:// URLs');
  }
  return resolveTarget(skill, target, url, options);
}

/**
 * Opens a resolved file for streaming. The file is opened by its real path with `O_NOFOLLOW` (a symlink swapped in
 * after the check is refused instead of followed) and `O_NONBLOCK` (a FIFO swapped in cannot hang the open), and the
 * descriptor is `fstat`-ed: it must be the very regular file (device + inode) that was checked. In contain mode the
 * descriptor's own path must still be inside the skill: a directory on the checked path swapped for a link out of the
 * skill between the check and the open would otherwise serve the file behind it (docs/platform-notes.md §1).
 * The caller closes the handle.
 */
export async function openSkillFile(resource: SkillFileResource): Promise<{ handle: FileHandle; stat: Stats }> {
  let handle: FileHandle;
  try {
    handle = await open(
      resource.realPath,
      constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
    );
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new SkillsdError('FileNotFound', `File not found: ${resource.path}`);
    }
    if (code === 'ELOOP') {
      throw new SkillsdError(
        'PathEscapesSkill',
        `File was replaced by a symbolic link after it was checked: ${resource.path}`,
      );
    }
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new SkillsdError('NotAFile', `skill:// URL must resolve to a file or directory: ${resource.url}`);
    }
    if (info.ino !== resource.ino || info.dev !== resource.dev) {
      throw changedAfterCheck(resource.path);
    }
    if (resource.containedIn !== null && !(await stillInside(handle, info, resource.realPath, resource.containedIn))) {
      throw changedAfterCheck(resource.path);
    }
    return { handle, stat: info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** §6.9: markdown for the markdown extensions (xcsh: `.md` only), plain text otherwise. */
export function skillContentType(path: string, profile: Profile): SkillContentType {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  if (dot === -1) return 'text/plain';
  const extension = name.slice(dot + 1).toLowerCase();
  const markdown = profile === 'xcsh' ? extension === 'md' : MARKDOWN_EXTENSIONS.has(extension);
  return markdown ? 'text/markdown' : 'text/plain';
}

/**
 * The path below the skill's directory that `rawRelative` names, `/`-separated without `.` or empty segments (`''`
 * for the skill's directory itself), as a walk's listing keys it (skill-file-list.ts). Throws the guards' errors.
 */
export function skillRelativePath(rawRelative: string, profile: Profile): string {
  return decodeRelative(rawRelative, profile)
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

/**
 * Decodes once and applies the lexical guards of docs/discovery.md §6 (plus NUL and malformed encoding, docs/api.md).
 * MusePi and omp refuse any `..` segment, split on `/` or `\`; xcsh refuses only a path whose POSIX normal form
 * climbs out (starts with `..` or holds `/..`), a `\` being an ordinary character there, so `sub/../ref.md` is
 * `ref.md` and `sub\..\ref.md` a file name.
 */
function decodeRelative(raw: string, profile: Profile): string {
  let relative: string;
  try {
    relative = decodeURIComponent(raw);
  } catch {
    throw new SkillsdError('InvalidPath', `Malformed percent-encoding in skill:// URL path: ${raw}`);
  }
  // A NUL would be cut off by the C layer below Node, or rejected there with an error that is not ours.
  if (relative.includes('\0')) {
    throw new SkillsdError('InvalidPath', 'NUL bytes are not allowed in skill:// URLs');
  }
  if (relative.startsWith('/') || relative.startsWith('\\') || DRIVE_PREFIX.test(relative)) {
    throw new SkillsdError('InvalidPath', 'Absolute paths are not allowed in skill:// URLs');
  }
  if (profile === 'xcsh') {
    const normalised = posix.normalize(relative);
    if (normalised.startsWith('..') || normalised.includes('/..')) {
      throw new SkillsdError('InvalidPath', 'Path traversal (..) is not allowed in skill:// URLs');
    }
    return relative;
  }
  // `\` counts as a separator here even on POSIX: `..\..\x` is a traversal attempt whatever the platform.
  const normalised = posix.normalize(relative.replaceAll('\\', '/'));
  if (relative.split(SEPARATORS).includes('..') || normalised.startsWith('..') || normalised.includes('/..')) {
    throw new SkillsdError('InvalidPath', 'Path traversal (..) is not allowed in skill:// URLs');
  }
  return relative;
}

async function resolveTarget(
  skill: Skill,
  target: string,
  url: string,
  options: ResolveOptions,
): Promise<SkillResource> {
  const pluginRoot = options.symlinks === 'contain' ? undefined : options.pluginRoot?.(skill.filePath);
  const contain = options.symlinks === 'contain' || pluginRoot !== undefined;
  const base = resolve(skillDirOnDisk(skill));
  // What a resolved path must stay inside: the skill directory, or in follow mode an Agent Plugin's root.
  const bound = pluginRoot ?? base;
  const ownFile = target === resolve(skillFileOnDisk(skill));
  // The skill's own SKILL.md may lead out of the skill: discovery read it through whatever links lead to it. It is
  // served there only while it is still the file discovery read; a SKILL.md swapped after discovery for a link to
  // anything else outside is an escape like any other. Without a record (library callers) it is not checked. The
  // skill directory itself may be a symlink: containment is measured against its real path.
  const guardOwnFile = contain && ownFile && options.knownRealPath !== undefined;
  const recorded = guardOwnFile ? options.knownRealPath?.(skill.filePath) : undefined;
  const checkContainment = contain && (!ownFile || guardOwnFile);

  let realTarget: string;
  try {
    realTarget = await realpath(target);
  } catch (error) {
    throw await describeUnreachable(error, bound, target, url, checkContainment, options.profile);
  }
  // In every mode: another user's link to a file that is not theirs is not followed (link-trust.ts). Free when no
  // link is on the path.
  const untrusted = await untrustedLinkOnPath(target, realTarget);
  if (untrusted !== undefined) throw linkNotFollowed(untrusted);

  const realBase = contain ? await realBaseOf(bound, target) : null;
  const escaping = realBase !== null && !isInside(realBase, realTarget);
  if (checkContainment && escaping && !(guardOwnFile && realTarget === recorded)) {
    throw escapes(target);
  }

  let info: Stats;
  try {
    info = await stat(realTarget);
  } catch (error) {
    throw await describeUnreachable(error, bound, target, url, checkContainment, options.profile);
  }

  if (info.isDirectory()) {
    // xcsh only asks whether a file exists there: a directory is simply not found, and never listed.
    if (options.profile === 'xcsh') throw new SkillsdError('FileNotFound', `File not found: ${target}`);
    const budget = options.budget ?? new WalkBudget(DEFAULT_WALK_LIMITS);
    const entries = await listDirectory(realTarget, contain ? realBase : null, target, budget);
    return { kind: 'directory', skill, path: target, entries, listing: renderListing(entries), url };
  }
  if (!info.isFile()) {
    throw new SkillsdError('NotAFile', `skill:// URL must resolve to a file or directory: ${url}`);
  }
  return {
    kind: 'file',
    skill,
    path: target,
    realPath: realTarget,
    contentType: skillContentType(target, options.profile),
    size: info.size,
    mtimeMs: info.mtimeMs,
    ino: info.ino,
    dev: info.dev,
    mode: info.mode,
    // The recorded SKILL.md outside the skill is held to its identity (device + inode) only.
    containedIn: checkContainment && !escaping ? realBase : null,
    url,
  };
}

/**
 * Turns a failed realpath/stat into the reference error. In contain mode a missing path behind an escaping link
 * (`outside-link/missing`) is refused as an escape, so a 404-versus-403 answer cannot probe what exists outside.
 */
async function describeUnreachable(
  error: unknown,
  base: string,
  target: string,
  url: string,
  checkContainment: boolean,
  profile: Profile,
): Promise<unknown> {
  const code = errorCode(error);
  // Another user's link leading nowhere (or into a directory it may not show) answers as it would when it resolves:
  // 404 against 403 must not tell what exists behind it.
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') {
    const untrusted = await untrustedLinkOnPath(target);
    if (untrusted !== undefined) return linkNotFollowed(untrusted);
  }
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    if (checkContainment && (await missingTargetEscapes(base, target))) return escapes(target);
    // xcsh: a path through a file is not found like any other (docs/api.md, errors).
    if (code === 'ENOENT' || profile === 'xcsh') return new SkillsdError('FileNotFound', `File not found: ${target}`);
    return new SkillsdError('NotADirectory', `Not a directory: a part of the path is a file: ${target}`);
  }
  // A symlink loop resolves to nothing at all; one that leaves the skill is an escape like any other, so that 409
  // versus 403 cannot tell whether a loop exists outside either.
  if (code === 'ELOOP') {
    if (checkContainment && (await missingTargetEscapes(base, target))) return escapes(target);
    return new SkillsdError('NotAFile', `skill:// URL must resolve to a file or directory: ${url}`);
  }
  if (code === 'ENAMETOOLONG') return new SkillsdError('InvalidPath', `Path too long: ${target}`);
  return error;
}

/**
 * Where a path that does not resolve (missing, or a link loop) would have led. Links are followed as far as they
 * go (up to the kernel's 40 hops) and the deepest existing directory reached must be inside the skill, so
 * `dir-out/missing`, a dangling link to `/elsewhere/missing` and a link to a loop elsewhere are escapes as well:
 * 404 or 409 versus 403 cannot probe what exists outside the skill.
 */
async function missingTargetEscapes(base: string, target: string): Promise<boolean> {
  let realBase: string;
  try {
    realBase = await realpath(base);
  } catch {
    return false;
  }
  let path = target;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop += 1) {
    const reached = await deepestExisting(path);
    if (reached === undefined) return false;
    if (!isInside(realBase, reached.real)) return true;
    const [missing, ...below] = reached.rest;
    // Resolves after all (it changed meanwhile): nothing missing to judge.
    if (missing === undefined) return false;
    let link: string;
    try {
      link = await readlink(join(reached.real, missing));
    } catch {
      // Simply missing, or a file in the way.
      return false;
    }
    path = resolve(reached.real, link, ...below);
  }
  return false;
}

/** The real path of the deepest ancestor of `path` (itself included) that resolves, and the names below it. */
async function deepestExisting(path: string): Promise<{ real: string; rest: string[] } | undefined> {
  const rest: string[] = [];
  for (let dir = path; ; ) {
    try {
      return { real: await realpath(dir), rest };
    } catch {
      const up = dirname(dir);
      if (up === dir) return undefined;
      rest.unshift(basename(dir));
      dir = up;
    }
  }
}

async function realBaseOf(base: string, target: string): Promise<string> {
  try {
    return await realpath(base);
  } catch (error) {
    const code = errorCode(error);
    // The skill directory went away since discovery: what was asked for is not there.
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SkillsdError('FileNotFound', `File not found: ${target}`);
    throw error;
  }
}

/**
 * Where the opened file is now must be inside `realBase`. On Linux the descriptor itself says so; elsewhere the
 * checked path is resolved again and must still lead to the opened file, which narrows the window to the open itself.
 */
async function stillInside(handle: FileHandle, opened: Stats, realPath: string, realBase: string): Promise<boolean> {
  const where = await descriptorPath(handle);
  if (where !== undefined) return isInside(realBase, where);
  try {
    const again = await stat(realPath);
    return isInside(realBase, await realpath(realPath)) && again.ino === opened.ino && again.dev === opened.dev;
  } catch {
    return false;
  }
}

function escapes(target: string): SkillsdError {
  return new SkillsdError('PathEscapesSkill', `Path resolves outside the skill directory: ${target}`);
}
