// Reads a settings or token file with a bound: opened once, `fstat`-ed through that descriptor, regular files only,
// and never more than the limit plus one byte. A config linked to /dev/zero otherwise grew the daemon's memory without
// end (readFile reads a device until it stops, which /dev/zero never does); a FIFO blocked the start; and a file
// checked by path and read by path again could be swapped in between.

import { constants, type Stats } from 'node:fs';
import { open, realpath } from 'node:fs/promises';

export interface BoundedRead {
  /** The bytes read: at most `maxBytes`. */
  bytes: Buffer;
  /** The stat of the descriptor the bytes came from. */
  stat: Stats;
}

/** Why a file cannot be read as a small regular file: `problem` is said after the file's name. */
export class BoundedReadError extends Error {
  constructor(
    readonly problem: string,
    readonly code?: string,
  ) {
    super(problem);
    this.name = 'BoundedReadError';
  }
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; on a regular file it changes nothing.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Reads `file` when it is a regular file of at most `maxBytes` bytes; throws {@link BoundedReadError} otherwise. */
export async function readBoundedFile(file: string, maxBytes: number): Promise<BoundedRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    throw new BoundedReadError(
      describeOpenError(error as NodeJS.ErrnoException),
      (error as NodeJS.ErrnoException).code,
    );
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new BoundedReadError('is a directory, not a file', 'EISDIR');
    if (!stat.isFile()) throw new BoundedReadError('not a regular file');
    // One byte past the limit tells a file at the limit from a longer one, whatever its size said a moment ago.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw new BoundedReadError(`larger than ${maxBytes} bytes`);
    return { bytes: buffer.subarray(0, length), stat };
  } finally {
    await handle.close();
  }
}

/** `file`, followed by the file it really is when links lead elsewhere: messages name the file that was read. */
export async function nameWithRealPath(file: string): Promise<string> {
  const real = await realpath(file).catch(() => file);
  return real === file ? file : `${file} (${real})`;
}

function describeOpenError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'not found';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'ENOTDIR':
      return 'a parent path is not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return error.message;
  }
}
