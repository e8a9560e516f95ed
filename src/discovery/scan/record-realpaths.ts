// The realpath of every loaded skill's SKILL.md (docs/discovery.md §5 step 3), resolved with as few system calls as
// the entries allow: below a real directory a plain entry's real file is known without asking.

import * as fs from 'node:fs';
import { realpath } from 'node:fs/promises';
import { concatFlat } from '../flat-string.js';
import { entryPrefixes } from './load-skill-now.js';
import type { ScannedEntry } from './scanned-entry.js';

function realpathNow(path: string): string {
  try {
    return fs.realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * `join(realDir, name, SKILL.md)` for the entries of one listing (never `.` or `..`, never holding a separator), flat;
 * the path read itself when the directory is its own realpath, the common case, so that the realpath maps share the
 * record's string (docs/memory.md "Kept strings"). Built from a prefix and a suffix as `entryPrefixes` builds the
 * paths read (load-skill-now.ts): a `join` per skill was 8 MB of the allocations of a first discovery at 10,000.
 */
function realPathsBelow(realDir: string): (entryName: string, readPath: string) => string {
  const { read: prefix, file } = entryPrefixes(realDir, realDir);
  return (entryName, readPath) =>
    readPath.length === prefix.length + entryName.length + file.length &&
    readPath.startsWith(prefix) &&
    readPath.startsWith(entryName, prefix.length) &&
    readPath.endsWith(file)
      ? readPath
      : concatFlat(prefix, entryName, file);
}

/** The realpath of each loaded skill's file; one that vanished meanwhile keeps its own path (as `realpath` fails). */
export async function recordRealpaths(
  loaded: readonly ScannedEntry[],
  realDir: string | undefined,
  into: Map<string, string>,
  blocking: boolean,
): Promise<void> {
  const below = realDir === undefined ? undefined : realPathsBelow(realDir);
  // Only a linked entry is asked of the system, and with blocking reads even that is answered in the loop; the maps
  // are filled in the listing's order either way.
  const resolved: Array<string | undefined> = new Array(loaded.length);
  const pending: Array<Promise<void>> = [];
  loaded.forEach(({ skill, linked, readPath, entryName, realpath: known }, index) => {
    if (skill === undefined || known !== undefined) {
      resolved[index] = known;
    } else if (!linked && below !== undefined) {
      resolved[index] = below(entryName, readPath);
    } else if (blocking) {
      // `realpathSync.native` is the same system call as the promise's `realpath` (not the JS `realpathSync`).
      resolved[index] = realpathNow(readPath);
    } else {
      pending.push(
        realpath(readPath)
          .catch(() => readPath)
          .then((real) => {
            resolved[index] = real;
          }),
      );
    }
  });
  if (pending.length > 0) await Promise.all(pending);
  loaded.forEach((entry, index) => {
    const real = resolved[index];
    if (real === undefined) return;
    entry.realpath = real;
    into.set(entry.filePath, real);
  });
}
