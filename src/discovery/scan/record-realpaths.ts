// The realpath of every loaded skill's SKILL.md (docs/discovery.md §5 step 3), resolved with as few system calls as
// the entries allow: below a real directory a plain entry's real file is known without asking.

import * as fs from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { flattened } from '../flat-string.js';
import type { ScannedEntry } from './scanned-entry.js';
import { SKILL_FILE_NAME } from './skill-record.js';

function realpathNow(path: string): string {
  try {
    return fs.realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * `<realDir>/<entryName>/SKILL.md`, flat; the path read itself when the directory is its own realpath, the common case,
 * so that the realpath maps share the record's string (docs/memory.md "Kept strings").
 */
function realBelow(realDir: string, entryName: string, readPath: string): string {
  const real = join(realDir, entryName, SKILL_FILE_NAME);
  return real === readPath ? readPath : flattened(real);
}

/** The realpath of each loaded skill's file; one that vanished meanwhile keeps its own path (as `realpath` fails). */
export async function recordRealpaths(
  loaded: readonly ScannedEntry[],
  realDir: string | undefined,
  into: Map<string, string>,
  blocking: boolean,
): Promise<void> {
  const resolved = await Promise.all(
    loaded.map(({ skill, linked, readPath, entryName, realpath: known }) => {
      if (skill === undefined || known !== undefined) return known;
      if (!linked && realDir !== undefined) return realBelow(realDir, entryName, readPath);
      // `realpathSync.native` is the same system call as the promise's `realpath` (not the JS `realpathSync`).
      return blocking ? realpathNow(readPath) : realpath(readPath).catch(() => readPath);
    }),
  );
  loaded.forEach((entry, index) => {
    const real = resolved[index];
    if (real === undefined) return;
    entry.realpath = real;
    into.set(entry.filePath, real);
  });
}
