// The Skills Extension's `Skill` entry (docs/mcp.md §Methods): `{ uri, frontmatter, resources }`, with
// `frontmatter` as the author wrote it (keys not normalised) and `resources` listing every file the file route would
// serve, each with the `sha256:` digest of its bytes and its size. Digests and frontmatter are cached by file
// identity, so listing again reads only what changed.

import { openSkillFile, resolveSkillResource, type SkillFileResource } from '../discovery/files/resolve-skill-url.js';
import { skillFileLimits } from '../discovery/files/skill-file-list.js';
import { parseFrontmatter } from '../discovery/frontmatter/frontmatter.js';
import { MAX_SKILL_FILE_BYTES } from '../discovery/scan/read-skill-file.js';
import { skillUri } from '../discovery/skill-locations.js';
import type { Skill } from '../discovery/types.js';
import { skillListing } from '../live-index/skill-listings.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import type { McpSession } from './mcp-session.js';

export interface SkillResourceEntry {
  uri: string;
  digest: string;
  size: number;
}

export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  /** Absent when the skill is past the bounds of docs/mcp.md (then `diagnostics` says why). */
  resources?: SkillResourceEntry[];
  /** What a user should know about this entry (a name tools will struggle with, a skill too large to digest). */
  diagnostics?: string[];
}

// The Agent Skills naming rule: 1–64 lower-case letters, digits and single inner hyphens.
const AGENT_SKILLS_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

const frontmatterCache = new Map<string, { identity: string; frontmatter: Record<string, unknown> }>();
const MAX_FRONTMATTER_CACHE = 20_000;

/** `signal`: the request's; the walk of the skill's files stops when it aborts (docs/api.md "Limits on walks"). */
export async function skillEntry(
  session: McpSession,
  snapshot: WorkspaceSnapshot,
  skill: Skill,
  signal?: AbortSignal,
): Promise<SkillEntry> {
  const skills = session.skills(snapshot);
  const options = session.resolveOptions(snapshot);
  const entryFile = await resolveSkillResource(skills, skill.name, undefined, options);
  if (entryFile.kind !== 'file') throw new Error(`skill ${skill.name} has no SKILL.md file`);
  const entry: SkillEntry = {
    uri: skillUri(skill.name, 'SKILL.md'),
    frontmatter: await frontmatterAsWritten(entryFile, snapshot),
  };
  const diagnostics: string[] = [];
  if (!AGENT_SKILLS_NAME.test(skill.name)) {
    diagnostics.push(
      `name ${JSON.stringify(skill.name)} is not an Agent Skills name (1-64 lower-case letters, digits and single ` +
        'hyphens): it is served, percent-encoded in its URIs',
    );
  }
  // The skill's one listing of this generation, shared with the archive and `resources/directory/read`.
  const settings = session.deps.getSettings();
  const list = await skillListing({
    snapshot,
    name: skill.name,
    symlinks: settings.symlinks,
    limits: skillFileLimits(settings),
    ...(signal ? { signal } : {}),
  });
  if (list.complete) {
    const resources: SkillResourceEntry[] = [];
    for (const file of list.files) {
      resources.push({
        uri: skillUri(skill.name, file.relative),
        digest: await session.deps.digests.digest(file.resource),
        size: file.resource.size,
      });
    }
    entry.resources = resources;
  } else {
    diagnostics.push(`resources omitted: the skill has ${list.reason} (docs/mcp.md, Bounds)`);
  }
  if (diagnostics.length > 0) entry.diagnostics = diagnostics;
  return entry;
}

/** The SKILL.md frontmatter with the keys as written (rule 5 of the key normalisation not applied). */
async function frontmatterAsWritten(
  file: SkillFileResource,
  snapshot: WorkspaceSnapshot,
): Promise<Record<string, unknown>> {
  const identity = `${snapshot.profile}:${file.dev}:${file.ino}:${file.size}:${file.mtimeMs}`;
  const cached = frontmatterCache.get(file.realPath);
  if (cached?.identity === identity) return cached.frontmatter;
  const { handle, stat } = await openSkillFile(file);
  let text: string;
  try {
    const length = Math.min(stat.size, MAX_SKILL_FILE_BYTES);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = length > 0 ? await handle.read(buffer, 0, length, 0) : { bytesRead: 0 };
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  const withoutBom = text.startsWith('\ufeff') ? text.slice(1) : text;
  const { frontmatter } = parseFrontmatter(withoutBom, snapshot.profile, undefined, 'as-written');
  frontmatterCache.delete(file.realPath);
  frontmatterCache.set(file.realPath, { identity, frontmatter });
  if (frontmatterCache.size > MAX_FRONTMATTER_CACHE)
    frontmatterCache.delete(frontmatterCache.keys().next().value as string);
  return frontmatter;
}
