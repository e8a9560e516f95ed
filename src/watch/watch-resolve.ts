// Where a watched path stands on disk, and which directory to watch to learn when that changes.
// chokidar silently never watches a path whose parent's parent is missing, and a root that is deleted and recreated
// stays dead (docs/platform-notes.md §2): so the watcher never hands chokidar a missing path. It watches the
// nearest existing ancestor for the one child name that leads towards the target, and moves deeper as it appears.

import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export interface Resolution {
  /** `lstat(path)` succeeded: something (file, directory, link, even a dangling one) has that name. */
  exists: boolean;
  /** The path leads to a directory (symlinks followed). */
  isDir: boolean;
  /** `realpath(path)` when it leads to a directory, else null. */
  real: string | null;
  /** Inode of that directory (0 when not a directory): a new inode under the same name needs a new watch. */
  ino: number;
  /** Directory to watch… */
  watchDir: string;
  /** …for events on this child name: the target's own name when its parent exists, else the next missing step. */
  watchName: string;
  /**
   * The target is a symlink that does not lead to a directory (dangling, a loop, a file): where what it points to
   * would appear, which is not under `watchDir` in general. Null otherwise.
   */
  linkWatch: { dir: string; name: string } | null;
}

/** Links followed to find where a dangling link's target would appear; a loop stops here. */
const MAX_LINK_HOPS = 8;

/** Walks `path` (absolute, normalised) from the root; one `lstat` per component. */
export async function resolveTarget(path: string, hops = 0): Promise<Resolution> {
  const parts = path.split(sep).filter((part) => part !== '');
  let current: string = sep;
  for (let index = 0; index < parts.length; index++) {
    const name = parts[index]!;
    const next = join(current, name);
    const here = await lstat(next).catch(() => null);
    if (here === null) return missing(current, name);
    if (index === parts.length - 1) {
      const target = here.isSymbolicLink() ? await stat(next).catch(() => null) : here;
      const real = target?.isDirectory() === true ? await realpath(next).catch(() => null) : null;
      if (target === null || real === null) {
        const linkWatch = here.isSymbolicLink() ? await linkTargetWatch(next, hops) : null;
        return { exists: true, isDir: false, real: null, ino: 0, watchDir: current, watchName: name, linkWatch };
      }
      return { exists: true, isDir: true, real, ino: target.ino, watchDir: current, watchName: name, linkWatch: null };
    }
    // A link or a file in the middle: follow links (the kernel does when watching); a file blocks the path.
    const through = here.isSymbolicLink() ? await stat(next).catch(() => null) : here;
    if (through === null || !through.isDirectory()) return missing(current, name);
    current = next;
  }
  return { exists: true, isDir: true, real: sep, ino: 0, watchDir: sep, watchName: '', linkWatch: null };
}

/** Where the target of the dangling (or looping) link at `path` would appear: a directory and the name to watch in it. */
export function danglingLinkWatch(path: string): Promise<{ dir: string; name: string } | null> {
  return linkTargetWatch(path, 0);
}

/** Where the target of the link at `path` would appear (following further links), or null past the hop limit. */
async function linkTargetWatch(path: string, hops: number): Promise<{ dir: string; name: string } | null> {
  if (hops >= MAX_LINK_HOPS) return null;
  const text = await readlink(path).catch(() => null);
  if (text === null) return null;
  const inner = await resolveTarget(resolve(dirname(path), text), hops + 1);
  return inner.linkWatch ?? { dir: inner.watchDir, name: inner.watchName };
}

function missing(watchDir: string, watchName: string): Resolution {
  return { exists: false, isDir: false, real: null, ino: 0, watchDir, watchName, linkWatch: null };
}
