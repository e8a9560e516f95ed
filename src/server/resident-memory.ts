// The process's resident set size, read without opening a file. `process.memoryUsage()` and even
// `process.memoryUsage.rss()` open /proc/self/stat on every call on Linux, so with every descriptor in use they throw
// EMFILE (measured: `uv_resident_set_memory`). Here /proc/self/statm is opened once and re-read from offset 0.

import { openSync, readSync } from 'node:fs';

/** A function returning the RSS in bytes; it never opens a descriptor once created. */
export function residentMemoryReader(statmPath = '/proc/self/statm'): () => number {
  let fd: number;
  try {
    fd = openSync(statmPath, 'r');
  } catch {
    // No /proc (macOS, Windows): Node's own call there asks the kernel directly, without a file.
    return () => process.memoryUsage.rss();
  }
  const buffer = Buffer.alloc(256);
  const residentPages = (): number => {
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    // `size resident shared text lib data dt`, in pages.
    return Number(buffer.toString('latin1', 0, read).split(' ')[1]);
  };
  // The page size, from one reading of both figures: the nearest power of two to their ratio.
  const pageSize = 2 ** Math.round(Math.log2(process.memoryUsage.rss() / residentPages()));
  return () => residentPages() * pageSize;
}
