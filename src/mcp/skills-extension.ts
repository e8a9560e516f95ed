// The Skills Extension's own methods (docs/mcp.md §Methods): `skills/list`, `skills/get` and
// `resources/directory/read`, registered on the SDK server with their request schemas.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod';
import { resolveSkillResource, skillRelativePath } from '../discovery/files/resolve-skill-url.js';
import type { SkillDirectoryEntry } from '../discovery/files/skill-directory-listing.js';
import { skillFileLimits } from '../discovery/files/skill-file-list.js';
import { WalkBudget } from '../discovery/files/walk-budget.js';
import { skillUri, uriSegment } from '../discovery/skill-locations.js';
import { skillListing } from '../live-index/skill-listings.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import { answering, invalidParams } from './mcp-errors.js';
import type { McpSession } from './mcp-session.js';
import { paginate } from './pagination.js';
import { fileResourceMetadata } from './resources.js';
import { type SkillEntry, skillEntry } from './skill-entries.js';
import { parseSkillUri } from './skill-uri.js';

export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const DIRECTORY_MIME_TYPE = 'inode/directory';

const Params = z.looseObject({ cursor: z.string().optional(), uri: z.unknown().optional() });
const SkillsListRequest = z.object({ method: z.literal('skills/list'), params: Params.optional() });
const SkillsGetRequest = z.object({ method: z.literal('skills/get'), params: Params.optional() });
const DirectoryReadRequest = z.object({ method: z.literal('resources/directory/read'), params: Params.optional() });

type AnyResult = Record<string, unknown>;

export function registerSkillsExtension(server: Server, session: McpSession): void {
  server.setRequestHandler(SkillsListRequest, (request, extra) =>
    answering(async () => {
      const { snapshot } = await session.view(extra.sendRequest);
      const { page, nextCursor } = paginate(session.skills(snapshot), request.params?.cursor, session.pageSize);
      const skills: SkillEntry[] = [];
      for (const skill of page) skills.push(await skillEntry(session, snapshot, skill, extra.signal));
      return (nextCursor === undefined ? { skills } : { skills, nextCursor }) as AnyResult;
    }),
  );

  server.setRequestHandler(SkillsGetRequest, (request, extra) =>
    answering(async () => {
      const uri = requireUri(request.params?.uri);
      const { snapshot } = await session.view(extra.sendRequest);
      const { name, rawRelative } = parseSkillUri(uri);
      const skill = session.skills(snapshot).find((candidate) => candidate.name === name);
      // Only the URI of a served skill's SKILL.md names a skill (`skill://pdf/SKILL.md`).
      if (skill === undefined || rawRelative !== 'SKILL.md' || skillUri(name, 'SKILL.md') !== uri) {
        throw invalidParams(`No skill is served at ${uri}`);
      }
      return { skill: await skillEntry(session, snapshot, skill, extra.signal) } as AnyResult;
    }),
  );

  server.setRequestHandler(DirectoryReadRequest, (request, extra) =>
    answering(async () => {
      const uri = requireUri(request.params?.uri);
      const { snapshot } = await session.view(extra.sendRequest);
      const { name, rawRelative } = parseSkillUri(uri);
      // `skill://<name>` is the skill's root directory (no trailing slash).
      const raw = rawRelative === undefined || rawRelative === '' ? '.' : rawRelative;
      const entries = await directoryEntries(session, snapshot, name, raw, extra.signal);
      if (entries === undefined) throw invalidParams(`${uri} is not a directory resource`);
      // Directory URIs have no trailing slash: children are `<directory>/<name>` whichever form was asked for.
      const base = uri.replace(/\/+$/, '');
      const children = [...entries].sort(
        (a, b) => Number(a.type === 'file') - Number(b.type === 'file') || a.name.localeCompare(b.name),
      );
      const resources = children.map((entry) => {
        const childUri = `${base}/${uriSegment(entry.name)}`;
        if (entry.type === 'directory') return { uri: childUri, name: entry.name, mimeType: DIRECTORY_MIME_TYPE };
        return fileResourceMetadata(childUri, entry.name, entry.size, snapshot.profile);
      });
      const { page, nextCursor } = paginate(resources, request.params?.cursor, session.pageSize);
      return (nextCursor === undefined ? { resources: page } : { resources: page, nextCursor }) as AnyResult;
    }),
  );
}

/**
 * The entries of one directory of a skill, undefined when the path is a file. Every page of a directory comes from
 * the skill's one listing of this generation (skill-listings.ts), so paging does not list the directory again; a
 * directory that listing does not hold (the walk passed a bound first, or reached it through a link to a directory
 * already walked) is listed on its own, under the same bound on entries (docs/api.md "Limits on walks").
 */
async function directoryEntries(
  session: McpSession,
  snapshot: WorkspaceSnapshot,
  name: string,
  raw: string,
  signal: AbortSignal,
): Promise<readonly SkillDirectoryEntry[] | undefined> {
  const options = session.resolveOptions(snapshot);
  const settings = session.deps.getSettings();
  const limits = skillFileLimits(settings);
  // Directories are listed over MCP under every profile: xcsh reads them with MusePi's guards.
  const profile = options.profile === 'xcsh' ? 'musepi' : options.profile;
  if (snapshot.skill(name) !== undefined) {
    const relative = skillRelativePath(raw, profile);
    const listing = await skillListing({ snapshot, name, symlinks: settings.symlinks, limits, signal });
    const entries = listing.directories.get(relative);
    if (entries !== undefined) return entries;
  }
  const resource = await resolveSkillResource(session.skills(snapshot), name, raw, {
    ...options,
    profile,
    budget: new WalkBudget(limits, signal),
  });
  return resource.kind === 'directory' ? resource.entries : undefined;
}

export function requireUri(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalidParams('params.uri must be a non-empty string');
  return value;
}
