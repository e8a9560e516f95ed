// Where an open descriptor really is. A path checked with realpath can change before it is used: a directory on it
// renamed away and a symlink to elsewhere put in its place sends the next open, stat or readdir outside, while every
// path-based re-check agrees again a moment later. A descriptor cannot be swapped. On Linux `/proc/self/fd/<fd>` is
// the kernel's view of it: its link names the opened file's real path now, and a path through it
// (`/proc/self/fd/<fd>/<name>`) is looked up inside that very directory.

import { access, type FileHandle, open, readlink } from 'node:fs/promises';
import { join } from 'node:path';

const PROC_FD = '/proc/self/fd';
// Linux `O_PATH` (the same value on every architecture Node runs on): a descriptor that names a file without opening
// it for I/O, so classifying a link's target never opens a device or a FIFO. Node does not export the constant.
const O_PATH = 0o10000000;

let procAvailable: Promise<boolean> | undefined;

/** True where descriptors can be resolved through `/proc/self/fd` (Linux with /proc mounted). */
export function hasDescriptorPaths(): Promise<boolean> {
  procAvailable ??=
    process.platform === 'linux'
      ? access(PROC_FD).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
  return procAvailable;
}

/** The real path of what `handle` has open now; undefined where the platform cannot tell. */
export async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  if (!(await hasDescriptorPaths())) return undefined;
  return readlink(join(PROC_FD, String(handle.fd)));
}

/** A path that names the directory `handle` has open, whatever happens to its own path (Linux only). */
export function descriptorDirectory(handle: FileHandle): string {
  return join(PROC_FD, String(handle.fd));
}

/** Opens `path` (following links) without opening it for I/O: for `stat` and {@link descriptorPath} only (Linux). */
export function openPathOnly(path: string): Promise<FileHandle> {
  return open(path, O_PATH);
}
