// `GET|HEAD /skill/{name}[/{path…}]`, the HTTP face of `skill://` (docs/api.md, docs/discovery.md §6): which skill and
// which path inside it a request target names, and what is there.
//
// The name and path are taken from the raw request target: a router has already percent-decoded its params, so
// `..%2F..%2Fsecret` would look like an ordinary `../../secret` file name there (docs/platform-notes.md §1).
// resolveSkillResource decodes the raw text exactly once and refuses every traversal form with the reference message.

import { SkillsdError } from '../discovery/errors.js';
import { type ResolveOptions, resolveSkillResource, type SkillResource } from '../discovery/files/resolve-skill-url.js';
import type { SkillFileLimits } from '../discovery/files/skill-file-list.js';
import { checkPathDepth } from '../discovery/files/skill-path-depth.js';
import { isWalkBoundPassed, WalkBudget } from '../discovery/files/walk-budget.js';
import type { Skill, SymlinkMode } from '../discovery/types.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import { capEcho } from './echo.js';

// `http://host/skill/…`: an absolute-form request target (RFC 9112 §3.2.2).
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i;
const SKILL_TARGET = /^\/skill\/([^/]*)(?:\/(.*))?$/s;

export interface SkillFileTarget {
  name: string;
  /** The path after the name, still percent-encoded; `.` for the skill's top directory when listing. */
  rawRelative: string | undefined;
  listing: boolean;
}

/**
 * The skill and raw path a target names, with `list` and `archive` of its query; checked before any workspace is
 * opened, so that a refused path touches no file.
 */
export function skillFileTarget(rawUrl: string, query: { list?: string; archive?: string }): SkillFileTarget {
  const target = splitSkillTarget(rawUrl);
  const listing = query.list !== undefined;
  if (listing && query.archive !== undefined) {
    throw new SkillsdError('BadRequest', 'list and archive cannot be combined: pick one');
  }
  // `/skill/<name>/` is the SKILL.md; `?list` asks for the skill's top directory instead (docs/api.md).
  const rawRelative = listing && isSkillRoot(target.rawRelative) ? '.' : target.rawRelative;
  return { name: target.name, rawRelative, listing };
}

/** Splits `/skill/<name>[/<relative>]` of the raw target; the name is decoded once, the relative part stays raw. */
export function splitSkillTarget(rawUrl: string): { name: string; rawRelative: string | undefined } {
  const end = rawUrl.search(/[?#]/);
  const path = (end === -1 ? rawUrl : rawUrl.slice(0, end)).replace(ABSOLUTE_FORM, '');
  const match = SKILL_TARGET.exec(path);
  if (match === null) throw new SkillsdError('InvalidPath', `Not a skill URL: ${capEcho(path)}`);
  const rawName = match[1] ?? '';
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    throw new SkillsdError('InvalidPath', `Malformed percent-encoding in skill name: ${capEcho(rawName)}`);
  }
  if (name.includes('\0')) throw new SkillsdError('InvalidPath', 'NUL bytes are not allowed in skill:// URLs');
  const rawRelative = match[2];
  // Refused before any file is touched: each segment costs a lookup, and 7,000 of them cost half a second.
  checkPathDepth(rawRelative);
  return { name, rawRelative };
}

/** How the snapshot's skills resolve a path: the profile, the symlink mode in force, and what discovery recorded. */
export function resolveOptionsOf(snapshot: WorkspaceSnapshot, symlinks: SymlinkMode): ResolveOptions {
  return {
    profile: snapshot.profile,
    symlinks,
    knownRealPath: (filePath: string) => snapshot.knownRealPath(filePath),
    pluginRoot: (filePath: string) => snapshot.pluginRoot(filePath),
    skillNamed: (skillName: string) => snapshot.skill(skillName),
  };
}

/**
 * The file or directory the target names. A directory's listing is bounded like a walk (docs/api.md "Limits on
 * walks"): 413 `TooLarge` past the bound; `list` on a file is 400.
 */
export async function resolveSkillTarget(
  snapshot: WorkspaceSnapshot,
  target: SkillFileTarget,
  options: ResolveOptions,
  limits: SkillFileLimits,
  signal: AbortSignal | undefined,
): Promise<SkillResource> {
  const { name, rawRelative } = target;
  const budget = new WalkBudget(limits, signal);
  let resource: SkillResource;
  try {
    resource = await resolveSkillResource(snapshot.skills as Skill[], name, rawRelative, { ...options, budget });
  } catch (error) {
    if (!isWalkBoundPassed(error)) throw error;
    const shown = capEcho(`skill://${name}/${rawRelative ?? ''}`);
    throw new SkillsdError('TooLarge', `Directory ${shown} is too large to list: ${error.message}`);
  }
  if (resource.kind === 'file' && target.listing) {
    throw new SkillsdError('BadRequest', `list is for directories: ${capEcho(resource.url)} is a file`);
  }
  return resource;
}

/** No path after the name (`/skill/pdf`, `/skill/pdf/`): what answers the SKILL.md. */
export function isSkillRoot(rawRelative: string | undefined): boolean {
  return rawRelative === undefined || rawRelative === '' || rawRelative === '/';
}

/** The text listing of a directory: one entry a line, each ending with a newline as text files do. */
export function directoryListingText(resource: Extract<SkillResource, { kind: 'directory' }>): string {
  return `${resource.listing}\n`;
}
