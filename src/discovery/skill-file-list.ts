// Every file of a skill that `GET /skill/<name>/<path>` would serve, found by walking the skill's directory through
// skill:// resolution itself (SKILLS.md §6): each directory and each file goes through resolveSkillResource, so a
// link out of the skill under `contain`, a FIFO, a device or a file that vanished is left out exactly where the file
// route would refuse it. The archive route and the MCP `skills/list` resources are built from this list.

import { realpath } from 'node:fs/promises';
import { isSkillsdError } from './errors.js';
import { type ResolveOptions, resolveSkillResource, type SkillFileResource } from './resolve-skill-url.js';
import { uriSegment } from './skill-locations.js';
import type { Skill } from './types.js';

/**
 * Bounds on one skill's walk (docs/mcp.md §Bounds): a skill is instructions and a few assets, not a data set. The
 * defaults are the per-skill limits of the MCP Skills Extension, which every conforming host accepts.
 */
export interface SkillFileLimits {
  /** Most files listed. */
  maxFiles: number;
  /** Most bytes in all listed files together (by their size when listed). */
  maxBytes: number;
  /** Deepest directory level walked below the skill's directory. */
  maxDepth: number;
}

export const DEFAULT_SKILL_FILE_LIMITS: SkillFileLimits = {
  maxFiles: 512,
  maxBytes: 16 * 1024 * 1024,
  maxDepth: 16,
};

export interface SkillFileEntry {
  /** The path below the skill's directory, `/`-separated (`SKILL.md`, `scripts/run.sh`). */
  relative: string;
  resource: SkillFileResource;
}

export type SkillFileList =
  | { complete: true; files: SkillFileEntry[]; bytes: number }
  /** A bound was passed: `reason` says which, in words for a person. */
  | { complete: false; reason: string };

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
): Promise<SkillFileList> {
  // Directories are listed whatever the profile: xcsh refuses a directory URL, not a directory walk.
  // An unknown (or empty) name is the resolution error of the skill itself.
  if (!skills.some((skill) => skill.name === name)) await resolveSkillResource(skills, name, undefined, options);
  const walkOptions: ResolveOptions = { ...options, profile: options.profile === 'xcsh' ? 'musepi' : options.profile };
  const files: SkillFileEntry[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  const pending: Array<{ relative: string; depth: number }> = [{ relative: '', depth: 0 }];
  while (pending.length > 0) {
    const { relative, depth } = pending.pop()!;
    const directory = await resolveQuietly(skills, name, relative === '' ? '.' : encodePath(relative), walkOptions);
    if (directory?.kind !== 'directory') continue;
    const real = await realpath(directory.path).catch(() => undefined);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    for (const entry of directory.entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.type === 'directory') {
        if (depth + 1 > limits.maxDepth) {
          return { complete: false, reason: `directories nested deeper than ${limits.maxDepth} levels` };
        }
        pending.push({ relative: child, depth: depth + 1 });
        continue;
      }
      const file = await resolveQuietly(skills, name, encodePath(child), options);
      if (file?.kind !== 'file') continue;
      files.push({ relative: child, resource: file });
      bytes += file.size;
      if (files.length > limits.maxFiles) return { complete: false, reason: `more than ${limits.maxFiles} files` };
      if (bytes > limits.maxBytes) return { complete: false, reason: `more than ${limits.maxBytes} bytes` };
    }
  }
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { complete: true, files, bytes };
}

/** A relative path as the raw (still percent-encoded) text resolveSkillResource decodes once. */
function encodePath(relative: string): string {
  return relative.split('/').map(uriSegment).join('/');
}

async function resolveQuietly(skills: Skill[], name: string, raw: string, options: ResolveOptions) {
  try {
    return await resolveSkillResource(skills, name, raw, options);
  } catch (error) {
    if (isSkillsdError(error)) return undefined;
    throw error;
  }
}
