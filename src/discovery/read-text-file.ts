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
 * No file at `path`, answered by one synchronous `stat` that makes no error object: most users have none of the
 * plugin registries and settings files a build reads, and a failed `open` costs a trip to the thread pool and an
 * error with its stack each time (0.2-0.35 ms after an idle moment, against 0.02-0.03 ms; docs/performance.md "The
 * per-view event"). Any other answer is left to the `open`, which words it as before.
 */
function surelyMissing(path: string): boolean {
  try {
    return fs.statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}

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
  if (surelyMissing(path)) return { status: 'missing' };
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
      const chunk = Buffer.allocUnsafe(chunkBytes(info.size, maxBytes));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { status: 'too-large' };
      if (bytesRead < chunk.length) break;
    }
    return { status: 'ok', text: textOf(chunks, total) };
  } finally {
    await handle.close();
  }
}

/**
 * `readTextFile` with synchronous calls, for a caller that runs them in slices (files/sliced-fs.ts): the same flags,
 * checks, statuses and errors.
 */
export function readTextFileNow(
  path: string,
  maxBytes = MAX_TEXT_FILE_BYTES,
  noFollow = false,
  /** Given the stats of the file opened, before it is read (a caller that keys what it keeps by them needs no stat). */
  opened?: (info: fs.Stats) => void,
): TextFileRead {
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
    opened?.(info);
    if (!info.isFile()) return { status: 'not-a-file' };
    if (info.size > maxBytes) return { status: 'too-large' };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes(info.size, maxBytes));
      const bytesRead = fs.readSync(fd, chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { status: 'too-large' };
      if (bytesRead < chunk.length) break;
    }
    return { status: 'ok', text: textOf(chunks, total) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * One byte more than the file's size when it was opened (at least a page, at most one past the cap): a read that
 * fills less than that reached the end, so a file that did not grow takes one read and no second one to see EOF (a
 * regular file's read is short only at its end). At 10,000 SKILL.md files the second reads, the copy of a single
 * chunk and a `stat` before the open were a third of the views' reads of them (docs/performance.md "The views' file
 * system calls").
 */
function chunkBytes(size: number, maxBytes: number): number {
  return Math.min(Math.max(size, 4096), maxBytes) + 1;
}

/** The chunks as UTF-8 text; one chunk is decoded where it lies, without a copy. */
function textOf(chunks: readonly Buffer[], total: number): string {
  return chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, total).toString('utf8');
}
