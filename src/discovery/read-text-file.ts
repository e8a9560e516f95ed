// Reading a text file that anyone with write access to a workspace controls (a SKILL.md at invocation time, an
// AGENTS.md): only a regular file, never more than a fixed number of bytes, and never blocking on a FIFO.

import * as fs from 'node:fs';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** 1 MiB: far above any real SKILL.md or AGENTS.md, far below what could hurt a long-running daemon. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

export type TextFileRead =
  | { status: 'ok'; text: string }
  /** ENOENT, or a path through a file (ENOTDIR). */
  | { status: 'missing' }
  /** A directory, FIFO, socket or device. */
  | { status: 'not-a-file' }
  | { status: 'too-large' };

/**
 * Reads `path` as UTF-8 when it is a regular file of at most `maxBytes` bytes. Symlinks are followed (the callers
 * read files discovery already found through them) unless `noFollow`: then a link in the last place (swapped in
 * after the caller checked the path) fails with ELOOP. Other errors (EACCES, ELOOP, …) are thrown.
 */
export async function readTextFile(
  path: string,
  maxBytes = MAX_TEXT_FILE_BYTES,
  noFollow = false,
): Promise<TextFileRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait forever for a writer.
    handle = await open(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { status: 'not-a-file' };
    if (info.size > maxBytes) return { status: 'too-large' };
    // Read until EOF, stopping one byte past the cap: the file may have grown since the fstat.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(info.size, 4096), maxBytes) + 1);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { status: 'too-large' };
    }
    return { status: 'ok', text: Buffer.concat(chunks, total).toString('utf8') };
  } finally {
    await handle.close();
  }
}

/**
 * `readTextFile` with synchronous calls, for a caller that runs them in slices (files/sliced-fs.ts): the same flags,
 * checks, statuses and errors.
 */
export function readTextFileNow(path: string, maxBytes = MAX_TEXT_FILE_BYTES, noFollow = false): TextFileRead {
  let fd: number;
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  try {
    fd = fs.openSync(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    throw error;
  }
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile()) return { status: 'not-a-file' };
    if (info.size > maxBytes) return { status: 'too-large' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(info.size, 4096), maxBytes) + 1);
      const bytesRead = fs.readSync(fd, chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { status: 'too-large' };
    }
    return { status: 'ok', text: Buffer.concat(chunks, total).toString('utf8') };
  } finally {
    fs.closeSync(fd);
  }
}
