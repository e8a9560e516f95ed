// A skill directory's listing as skill:// answers it (docs/discovery.md §6.7): the entries the file route would
// serve there, and their text.

import { constants, type Dirent, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SkillsdError } from '../errors.js';
import { untrustedLinkOnPath } from '../link-trust.js';
import { descriptorDirectory, descriptorPath, hasDescriptorPaths, openPathOnly } from '../open-descriptor.js';
import { changedAfterCheck, errorCode, isInside } from './skill-path-guards.js';
import type { EntryBudget } from './walk-budget.js';

export interface SkillDirectoryEntry {
  name: string;
  type: 'file' | 'directory';
  /** Bytes for files; 0 for directories. */
  size: number;
}

const EMPTY_LISTING = '(empty directory)';

/** §6.7: sub-directories first (with a trailing `/`), then files, each group in locale order. */
export function renderListing(entries: readonly SkillDirectoryEntry[]): string {
  const byName = (a: SkillDirectoryEntry, b: SkillDirectoryEntry) => a.name.localeCompare(b.name);
  const directories = entries.filter((entry) => entry.type === 'directory').sort(byName);
  const files = entries.filter((entry) => entry.type === 'file').sort(byName);
  const lines = [...directories.map((entry) => `${entry.name}/`), ...files.map((entry) => entry.name)];
  return lines.length > 0 ? lines.join('\n') : EMPTY_LISTING;
}

/**
 * The entries of a directory with their types: what the file route would serve there, and nothing else
 * (docs/api.md "GET /skill/{name}…"). A symlink is listed as what it points to; a link that leaves the skill's real
 * directory in contain mode, another user's link, a dangling or looping link and a FIFO, socket or device are left
 * out, so a listing names nothing the route refuses and reveals nothing outside.
 */
export async function listDirectory(
  dir: string,
  realBase: string | null,
  target: string,
  budget: EntryBudget,
): Promise<SkillDirectoryEntry[]> {
  if (realBase !== null && (await hasDescriptorPaths())) return listOpenedDirectory(dir, realBase, target, budget);
  return listDirectoryByPath(dir, realBase, budget);
}

/**
 * Contain mode where descriptors can be resolved: the directory is opened first and read through its descriptor, so
 * a directory on its path swapped for a link out of the skill after the check cannot make it list the outside.
 * Each entry is classified through a descriptor as well (`O_PATH`: nothing is opened for I/O, not even a FIFO).
 */
async function listOpenedDirectory(
  dir: string,
  realBase: string,
  target: string,
  budget: EntryBudget,
): Promise<SkillDirectoryEntry[]> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') throw new SkillsdError('FileNotFound', `File not found: ${target}`);
    // A link (ELOOP) or something else (ENOTDIR) now stands where the checked directory was.
    if (code === 'ELOOP' || code === 'ENOTDIR') throw changedAfterCheck(target);
    throw error;
  }
  try {
    const where = await descriptorPath(handle);
    if (where === undefined || !isInside(realBase, where)) throw changedAfterCheck(target);
    const view = descriptorDirectory(handle);
    const entries: SkillDirectoryEntry[] = [];
    // Read as it goes (opendir), not all at once: a directory of a million entries stops at the budget's bound.
    for await (const dirent of await opendir(view)) {
      budget.entry();
      const entry = await classifyEntry(dirent, join(view, dirent.name), realBase);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/**
 * One entry of an opened directory; `path` goes through its descriptor. A plain file or directory is what `lstat`
 * says (it follows nothing); a link is judged by where a descriptor of its target is. Undefined: not listed.
 */
async function classifyEntry(dirent: Dirent, path: string, realBase: string): Promise<SkillDirectoryEntry | undefined> {
  const name = dirent.name;
  if (dirent.isDirectory()) return { name, type: 'directory', size: 0 };
  if (!dirent.isSymbolicLink()) {
    try {
      const info = await lstat(path);
      if (!info.isSymbolicLink()) return entryOf(name, info);
    } catch {
      // Removed since readdir.
      return undefined;
    }
  }
  let handle: FileHandle;
  try {
    handle = await openPathOnly(path);
  } catch {
    // Dangling link, a loop, or removed since readdir: nothing the route would serve.
    return undefined;
  }
  try {
    const where = await descriptorPath(handle);
    if (where === undefined || !isInside(realBase, where)) return undefined;
    return entryOf(name, await handle.stat());
  } finally {
    await handle.close();
  }
}

/** Follow mode, or contain mode where descriptors cannot be resolved: the entries by path. */
async function listDirectoryByPath(
  dir: string,
  realBase: string | null,
  budget: EntryBudget,
): Promise<SkillDirectoryEntry[]> {
  const entries: SkillDirectoryEntry[] = [];
  for await (const dirent of await opendir(dir)) {
    budget.entry();
    const path = join(dir, dirent.name);
    if (dirent.isDirectory()) {
      entries.push({ name: dirent.name, type: 'directory', size: 0 });
      continue;
    }
    try {
      const real = dirent.isSymbolicLink() ? await realpath(path) : path;
      // Another user's link to what is not theirs is refused by the route: not listed.
      if (dirent.isSymbolicLink() && (await untrustedLinkOnPath(path, real)) !== undefined) continue;
      if (realBase !== null && !isInside(realBase, real)) continue;
      const entry = entryOf(dirent.name, await stat(real));
      if (entry !== undefined) entries.push(entry);
    } catch {
      // Dangling link, or removed since readdir: nothing the route would serve.
    }
  }
  return entries;
}

/** A directory or a regular file; anything else (FIFO, socket, device) is refused by the route and not listed. */
function entryOf(name: string, info: Stats): SkillDirectoryEntry | undefined {
  if (info.isDirectory()) return { name, type: 'directory', size: 0 };
  if (info.isFile()) return { name, type: 'file', size: info.size };
  return undefined;
}
