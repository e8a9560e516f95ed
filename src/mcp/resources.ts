// Resources (docs/mcp.md §Methods): `resources/list` (each loaded skill's SKILL.md), the `skill://{name}/{+path}`
// template, `resources/read` of any skill file under the guards of the file route, and subscriptions.

import { isUtf8 } from 'node:buffer';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SkillsdError } from '../discovery/errors.js';
import { openSkillFile, resolveSkillResource, skillContentType } from '../discovery/files/resolve-skill-url.js';
import { DEFAULT_SKILL_FILE_LIMITS } from '../discovery/files/skill-file-list.js';
import { skillUri } from '../discovery/skill-locations.js';
import type { Profile } from '../discovery/types.js';
import type { ChangeNotifier } from './change-notifications.js';
import { answering } from './mcp-errors.js';
import type { McpSession } from './mcp-session.js';
import { paginate } from './pagination.js';
import { parseSkillUri } from './skill-uri.js';

export const SKILL_URI_TEMPLATE = 'skill://{name}/{+path}';
/** Files past this are not read into one message (the Skills Extension's per-skill byte limit). */
export const MAX_READ_BYTES = DEFAULT_SKILL_FILE_LIMITS.maxBytes;
const BINARY_MIME_TYPE = 'application/octet-stream';

export function registerResources(server: Server, session: McpSession, notifier: ChangeNotifier): void {
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    answering(async () => {
      const { snapshot } = await session.view(extra.sendRequest);
      const resources = session.skills(snapshot).map((skill) => ({
        uri: skillUri(skill.name, 'SKILL.md'),
        name: skill.name,
        description: skill.description,
        mimeType: 'text/markdown',
      }));
      const { page, nextCursor } = paginate(resources, request.params?.cursor, session.pageSize);
      return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
    }),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: SKILL_URI_TEMPLATE,
        name: 'skill-file',
        title: 'A file of a skill',
        description: 'Any file inside a loaded skill; skill://<name>/SKILL.md is its entry point',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    answering(async () => {
      const { snapshot } = await session.view(extra.sendRequest);
      return { contents: [await readSkillResource(session, snapshot, request.params.uri)] };
    }),
  );

  server.setRequestHandler(SubscribeRequestSchema, (request, extra) =>
    answering(async () => {
      const { snapshot } = await session.view(extra.sendRequest);
      await notifier.subscribe(request.params.uri, snapshot);
      return {};
    }),
  );

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    notifier.unsubscribe(request.params.uri);
    return {};
  });
}

export type ResourceContents =
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; blob: string };

/**
 * One `skill://` resource, resolved and opened exactly as `GET /skill/<name>/<path>` does. A directory answers the
 * reference listing (as the file route does); a file answers its text when it is UTF-8 without NUL bytes, else its
 * bytes as a base64 blob.
 */
export async function readSkillResource(
  session: McpSession,
  snapshot: Parameters<McpSession['resolveOptions']>[0],
  uri: string,
): Promise<ResourceContents> {
  const { name, rawRelative } = parseSkillUri(uri);
  const resource = await resolveSkillResource(
    session.skills(snapshot),
    name,
    rawRelative,
    session.resolveOptions(snapshot),
  );
  if (resource.kind === 'directory') return { uri, mimeType: 'text/plain', text: resource.listing };
  const { handle, stat } = await openSkillFile(resource);
  let bytes: Buffer;
  try {
    if (stat.size > MAX_READ_BYTES) {
      throw new SkillsdError('TooLarge', `File is larger than ${MAX_READ_BYTES} bytes: ${resource.path}`);
    }
    bytes = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    bytes = bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
  if (isText(bytes)) return { uri, mimeType: resource.contentType, text: bytes.toString('utf8') };
  return { uri, mimeType: BINARY_MIME_TYPE, blob: bytes.toString('base64') };
}

/** The metadata of a file resource in a listing (`resources/directory/read`). */
export function fileResourceMetadata(uri: string, name: string, size: number, profile: Profile) {
  return { uri, name, mimeType: skillContentType(name, profile), size };
}

function isText(bytes: Buffer): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}
