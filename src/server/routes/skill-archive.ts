// `GET /skill/{name}?archive=tar.gz`: the whole skill in one answer (docs/api.md), so a remote agent can fetch a skill
// and revalidate it with one conditional request.
//
// - The files are those of skill-file-list.ts: every file the file route would serve, under the same guards.
// - The walk is the skill's one listing of this generation (skill-listings.ts), bounded as docs/api.md "Limits on
//   walks" says: past a bound the answer is 413 `TooLarge` naming it, and a client that goes away stops the walk.
// - Stable order and stable bytes: entries sorted by path; `portable` headers (no owner, no device numbers, no
//   atime/ctime); the mode reduced as docs/api.md states it (0644 or 0755, and a file its owner alone may read
//   stays owner-only: 0600 or 0700); mtimes in whole seconds; gzip without a timestamp. The same files
//   therefore give the same bytes, and the ETag, a hash of every entry's path, mode, mtime and `sha256:` digest,
//   changes exactly when the bytes would.
// - Streamed: each file is opened through the guarded open as it is reached and fed into the tar stream, hashed on
//   the way; a file that differs from what its digest (and the ETag) promised aborts the answer instead of sending
//   bytes under a tag that does not describe them.

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Header, Pack, ReadEntry } from 'tar';
import { SkillsdError } from '../../discovery/errors.js';
import type { FileDigests } from '../../discovery/files/file-digests.js';
import { openSkillFile, type ResolveOptions } from '../../discovery/files/resolve-skill-url.js';
import type { SkillFileEntry, SkillFileLimits } from '../../discovery/files/skill-file-list.js';
import { uriSegment } from '../../discovery/skill-locations.js';
import { skillListing } from '../../live-index/skill-listings.js';
import type { WorkspaceSnapshot } from '../../live-index/snapshot.js';
import { requestSignal } from '../request-signal.js';
import { matchesIfNoneMatch } from './conditional.js';

interface ArchiveEntry {
  file: SkillFileEntry;
  digest: string;
  mode: number;
  /** Whole seconds. */
  mtime: number;
}

const EXECUTABLE_BITS = 0o111;
const GROUP_AND_OTHER_BITS = 0o077;

/**
 * The mode a file gets in the archive (docs/api.md, the archive): executable or not, and shared or owner-only. A
 * file that grants nothing to its group and to others (0600, 0400, 0700) is 0600, or 0700 when executable, so
 * extracting the archive does not widen it; every other file is 0644, or 0755 when executable.
 */
export function archiveMode(mode: number): number {
  const executable = (mode & EXECUTABLE_BITS) !== 0;
  if ((mode & GROUP_AND_OTHER_BITS) === 0) return executable ? 0o700 : 0o600;
  return executable ? 0o755 : 0o644;
}

export async function sendSkillArchive(
  request: FastifyRequest,
  reply: FastifyReply,
  snapshot: WorkspaceSnapshot,
  name: string,
  options: ResolveOptions,
  limits: SkillFileLimits,
  digests: FileDigests,
) {
  const signal = requestSignal(request, reply);
  const list = await skillListing({ snapshot, name, symlinks: options.symlinks, limits, signal });
  if (!list.complete) {
    throw new SkillsdError('TooLarge', `Skill ${name} is too large to archive: ${list.reason}`);
  }
  const entries: ArchiveEntry[] = [];
  for (const file of list.files) {
    signal.throwIfAborted();
    entries.push({
      file,
      digest: await digests.digest(file.resource),
      mode: archiveMode(file.resource.mode),
      mtime: Math.floor(file.resource.mtimeMs / 1000),
    });
  }
  const etag = archiveTag(entries);
  reply
    .header('etag', etag)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename="${uriSegment(name)}.tar.gz"`)
    .type('application/gzip');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    reply.removeHeader('content-type');
    return reply.code(304).send();
  }
  if (request.method === 'HEAD') return reply.send();
  const output = new PassThrough();
  const pack = new Pack({ gzip: true, portable: true });
  pack.on('error', (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  pack.pipe(output);
  writeEntries(pack, entries).catch((error: unknown) => {
    request.log.warn({ err: error, skill: name }, 'skill archive aborted');
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply.send(output);
}

/** `"<sha256 hex>"` over one line per entry: what decides the archive's bytes. */
function archiveTag(entries: readonly ArchiveEntry[]): string {
  const hash = createHash('sha256');
  for (const entry of entries) {
    hash.update(`${entry.mode.toString(8)} ${entry.mtime} ${entry.digest} ${entry.file.relative}\n`);
  }
  return `"${hash.digest('hex')}"`;
}

async function writeEntries(pack: Pack, entries: readonly ArchiveEntry[]): Promise<void> {
  for (const entry of entries) await writeEntry(pack, entry);
  pack.end();
}

async function writeEntry(pack: Pack, entry: ArchiveEntry): Promise<void> {
  const { resource } = entry.file;
  const { handle, stat } = await openSkillFile(resource);
  try {
    if (stat.size !== resource.size || stat.mtimeMs !== resource.mtimeMs) throw changed(resource.path);
    const tarEntry = new ReadEntry(
      new Header({
        path: entry.file.relative,
        type: 'File',
        mode: entry.mode,
        size: stat.size,
        mtime: new Date(entry.mtime * 1000),
      }),
    );
    pack.add(tarEntry);
    const hash = createHash('sha256');
    let left = stat.size;
    if (left > 0) {
      for await (const chunk of handle.createReadStream({ autoClose: false, start: 0, end: stat.size - 1 })) {
        const bytes = chunk as Buffer;
        hash.update(bytes);
        left -= bytes.length;
        if (!tarEntry.write(bytes)) await once(tarEntry, 'drain');
      }
    }
    if (left !== 0 || `sha256:${hash.digest('hex')}` !== entry.digest) throw changed(resource.path);
    tarEntry.end();
  } finally {
    await handle.close();
  }
}

function changed(path: string): Error {
  return new Error(`File changed while the archive was sent: ${path}`);
}
