// `GET|HEAD /skill/{name}[/{path…}]`: the HTTP face of `skill://` (docs/api.md, docs/discovery.md §6).
//
// The name and path are taken from the raw request target, not from the route params: Fastify has already
// percent-decoded the params, so `..%2F..%2Fsecret` would look like an ordinary `../../secret` file name there,
// and a raw `../` segment reaches the route unnormalised (docs/platform-notes.md §1). resolveSkillResource decodes the
// raw text exactly once and refuses every traversal form with the reference message.

import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  directoryListingText,
  resolveOptionsOf,
  resolveSkillTarget,
  skillFileTarget,
} from '../../answers/skill-file-target.js';
import { SkillsdError } from '../../discovery/errors.js';
import { CheckedFileMemo, checkedFileKey, reopenCheckedFile } from '../../discovery/files/checked-file-memo.js';
import { openSkillFile, type SkillResource } from '../../discovery/files/resolve-skill-url.js';
import { skillFileLimits } from '../../discovery/files/skill-file-list.js';
import { hasDescriptorPaths } from '../../discovery/open-descriptor.js';
import type { WorkspaceSnapshot } from '../../live-index/snapshot.js';
import { requestSignal } from '../request-signal.js';
import { ConditionalHeaders, errorResponses, NotModified } from '../schemas/common.js';
import { SkillFileOk, SkillFileParams, SkillFileQuery } from '../schemas/skill-files.js';
import { matchesIfNoneMatch } from './conditional.js';

const NOT_HEADER_SAFE = /[^\x20-\x24\x26-\x7e]/gu;
/**
 * Files up to this size are read with one `read` into a buffer and closed before the answer is written; larger ones
 * stream. A stream of a 5.5 KB file cost its own open/read/close bookkeeping and two more turns of the event loop.
 */
const WHOLE_READ_BYTES = 64 * 1024;

export const skillFilesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const schema = {
    summary: 'A file of a skill (its SKILL.md by default), or a directory listing',
    description:
      'The HTTP face of `skill://<name>[/<path>]`. Files stream with ETag, Last-Modified, Content-Length and ' +
      'X-Skill-Source-Path; `If-None-Match` answers 304. A directory answers its listing as text, or ' +
      '`{ entries }` with `Accept: application/json`. `archive=tar.gz` on `/skill/{name}` answers the whole skill.',
    params: SkillFileParams,
    querystring: SkillFileQuery,
    headers: ConditionalHeaders,
    response: {
      200: SkillFileOk,
      304: NotModified,
      ...errorResponses(404, 409, 413),
    },
  } as const;
  // One operation per URL: the skill's SKILL.md (or archive), and a file or directory inside it; HEAD ids follow by
  // rule (src/server/openapi-conventions.ts).
  const operationIds: Record<string, string> = { '/skill/:name': 'getSkillDocument', '/skill/:name/*': 'getSkillFile' };
  // Checked files per snapshot (checked-file-memo.ts): a reload starts afresh. None where descriptors cannot be named.
  const memos = (await hasDescriptorPaths()) ? new WeakMap<WorkspaceSnapshot, CheckedFileMemo>() : undefined;
  const memoOf = (snapshot: WorkspaceSnapshot): CheckedFileMemo | undefined => {
    if (memos === undefined) return undefined;
    let memo = memos.get(snapshot);
    if (memo === undefined) {
      memo = new CheckedFileMemo();
      memos.set(snapshot, memo);
    }
    return memo;
  };

  for (const url of ['/skill/:name', '/skill/:name/*']) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      // HEAD is served by this handler itself, without reading the file, instead of by a GET that is thrown away.
      exposeHeadRoute: false,
      schema: { ...schema, operationId: operationIds[url] },
      handler: async (request, reply) => {
        // The target is checked first: a refused path opens no workspace and touches no file.
        const target = skillFileTarget(request.raw.url ?? '', request.query);
        const { name, rawRelative } = target;
        const cwd = request.query.cwd;
        const { snapshot } = app.readyDefaultView(cwd) ?? (await app.workspaceView(cwd));
        const settings = app.getSettings();
        const symlinks = settings.symlinks;
        const limits = skillFileLimits(settings);
        const memo = request.query.archive === undefined ? memoOf(snapshot) : undefined;
        const key = checkedFileKey(name, rawRelative);
        const checked = memo?.get(key, snapshot.skill(name), symlinks);
        if (checked !== undefined) {
          const reopened = await reopenCheckedFile(checked);
          if (reopened !== undefined) return sendFile(request, reply, descriptorFile(reopened), checked);
          // Not the checked file any more, or not there: what is there now is resolved from scratch.
          memo?.forget(key);
        }
        const options = resolveOptionsOf(snapshot, symlinks);
        if (request.query.archive !== undefined) {
          // The whole skill, from its root only: `/skill/pdf/scripts?archive=…` is not a smaller archive.
          if (rawRelative !== undefined && rawRelative !== '') {
            throw new SkillsdError('BadRequest', 'archive is only served for the skill itself: /skill/<name>');
          }
          // tar is loaded with the first archive asked for (docs/performance.md "Idle memory").
          const { sendSkillArchive } = await import('./skill-archive.js');
          return sendSkillArchive(request, reply, snapshot, name, options, limits, app.fileDigests);
        }
        const resource = await resolveSkillTarget(snapshot, target, options, limits, requestSignal(request, reply));
        if (resource.kind === 'directory') return sendDirectory(request, reply, resource);
        // Headers describe the descriptor actually read, which openSkillFile checked is the file that was resolved.
        const { handle, stat } = await openSkillFile(resource);
        memo?.remember(key, { ...resource, dev: stat.dev, ino: stat.ino, symlinks });
        return sendFile(request, reply, handleFile(handle, stat), resource);
      },
    });
  }
};

/** An opened, checked file: its descriptor, what `fstat` said of it, and how to stream and close it. */
interface OpenedFile {
  fd: number;
  stat: Stats;
  /** The bytes `start`–`end` (inclusive); the descriptor closes when the stream ends. */
  stream(end: number): Readable;
  close(): void;
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: OpenedFile,
  resource: { path: string; contentType: string },
) {
  const stat = file.stat;
  const etag = `W/"${stat.ino.toString(36)}-${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`;
  reply
    .header('etag', etag)
    .header('last-modified', stat.mtime.toUTCString())
    .header('x-skill-source-path', headerPath(resource.path))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-cache')
    .type(`${resource.contentType}; charset=utf-8`);
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    file.close();
    reply.removeHeader('content-type');
    return reply.code(304).send();
  }
  if (request.method === 'HEAD' || stat.size === 0) {
    file.close();
    reply.header('content-length', String(stat.size));
    return reply.send(request.method === 'HEAD' ? undefined : '');
  }
  if (stat.size <= WHOLE_READ_BYTES) {
    let bytes: Buffer;
    try {
      bytes = await readWhole(file.fd, stat.size);
    } finally {
      file.close();
    }
    // What was there: a file that shrank since the fstat is sent as it now is, never padded.
    reply.header('content-length', String(bytes.length));
    return reply.send(bytes);
  }
  reply.header('content-length', String(stat.size));
  // Exactly the bytes announced in Content-Length, even if the file grows while it is sent.
  return reply.send(file.stream(stat.size - 1));
}

/** The first `size` bytes of `fd` (fewer if it ends first), read from offset 0. */
function readWhole(fd: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  return new Promise((resolve, reject) => {
    const readFrom = (filled: number): void => {
      fs.read(fd, buffer, filled, size - filled, filled, (error, bytesRead) => {
        if (error) reject(error);
        else if (bytesRead === 0 || filled + bytesRead === size) resolve(buffer.subarray(0, filled + bytesRead));
        else readFrom(filled + bytesRead);
      });
    };
    readFrom(0);
  });
}

function handleFile(handle: FileHandle, stat: Stats): OpenedFile {
  return {
    fd: handle.fd,
    stat,
    stream: (end) => handle.createReadStream({ start: 0, end, autoClose: true }),
    close: () => {
      handle.close().catch(ignore);
    },
  };
}

function descriptorFile({ fd, stat }: { fd: number; stat: Stats }): OpenedFile {
  return {
    fd,
    stat,
    stream: (end) => fs.createReadStream('', { fd, start: 0, end, autoClose: true }),
    close: () => fs.close(fd, ignore),
  };
}

/** Closing a descriptor opened for reading has nothing to report that would change the answer. */
function ignore(): void {}

function sendDirectory(
  request: FastifyRequest,
  reply: FastifyReply,
  resource: Extract<SkillResource, { kind: 'directory' }>,
) {
  reply
    .header('x-skill-source-path', headerPath(resource.path))
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'Accept')
    .header('cache-control', 'no-cache');
  if (acceptsJson(request.headers.accept)) {
    // The order of the text listing (docs/discovery.md §6): directories first, then files, each in locale order.
    const entries = [...resource.entries].sort(
      (a, b) => Number(a.type === 'file') - Number(b.type === 'file') || a.name.localeCompare(b.name),
    );
    return reply.type('application/json; charset=utf-8').send({ entries });
  }
  // One entry a line, each ending with a newline as text files do (docs/api.md "GET /skill/{name}…").
  return reply.type('text/plain; charset=utf-8').send(directoryListingText(resource));
}

/**
 * The path as a header value can carry it: a header holds only bytes 0x09 and 0x20–0xFF, so a directory named in
 * Japanese or holding a line break made the answer fail (500) and Latin-1 arrived as mojibake. Every character
 * outside printable ASCII, and `%` itself, is percent-encoded as UTF-8 (`decodeURIComponent` restores the path);
 * printable ASCII paths, spaces included, are unchanged.
 */
export function headerPath(path: string): string {
  // A lone surrogate (no file system gives one; kept safe anyway) has no UTF-8 form: it becomes U+FFFD.
  return path.replace(NOT_HEADER_SAFE, (char: string) =>
    char.length === 1 && isSurrogate(char) ? '%EF%BF%BD' : encodeURIComponent(char),
  );
}

function isSurrogate(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0xd800 && code <= 0xdfff;
}

/** True when the Accept header names `application/json` with a non-zero quality. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === 'application/json' && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}
