// Files of `skill://` answers that were resolved and checked, remembered so that asking again costs what reading the
// file costs. The full resolution (resolve-skill-url.ts) is a realpath of the path asked for, one of the skill
// directory, a stat, then an open with O_NOFOLLOW, an fstat and a look at where the descriptor is: at 10,000 skills
// that chain and its promises were most of a `GET /skill/{name}/{file}` answer (docs/performance.md, "File route").
//
// A hit is not trusted, it is proved again on disk, by the open itself:
// - Only a path without any symbolic link on it is remembered (its realpath was the path itself), so the skill's
//   real directory is the path's own prefix and nothing on the way can re-point without the path changing.
// - A hit opens the very path asked for (every link on it followed, as a lookup would) with O_NOFOLLOW and
//   O_NONBLOCK, and serves only when the descriptor is a regular file with the remembered device and inode AND the
//   kernel names the descriptor's place (/proc/self/fd) as exactly that path. Then no link was followed now either:
//   the path still resolves to itself, inside the same skill directory, to the file that was checked.
// Anything else (a file swapped for a link: ELOOP; a directory on the path, or the skill directory itself, swapped
// for a link: the descriptor is elsewhere; a file replaced by another one: another inode; a file removed) drops the
// entry and the request takes the full resolution, which answers what is there now. A memo belongs to one snapshot
// of the index: a reload (a skill removed, another taking its name) starts an empty one, and an entry is used only
// while the name still leads to the same skill record and the `symlinks` mode is the one it was checked under.
//
// A hit opens before it knows what is there, where the full resolution stats first: a FIFO put in the file's place
// opens without blocking (O_NONBLOCK) and is refused by the fstat, as the full resolution's own open would between its
// stat and its open. Where descriptors cannot be named (no /proc), nothing is remembered.

import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import type { Skill, SymlinkMode } from '../types.js';
import type { SkillContentType } from './resolve-skill-url.js';

/** Entries per snapshot: far more than the files any client asks for in turn; the oldest goes first. */
export const CHECKED_FILES_LIMIT = 1024;

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const PROC_FD = '/proc/self/fd/';

/** A file answer that passed the full resolution, with the identity of the descriptor that was served. */
export interface CheckedFile {
  skill: Skill;
  /** The absolute path asked for, which was also its own real path. */
  path: string;
  contentType: SkillContentType;
  dev: number;
  ino: number;
  symlinks: SymlinkMode;
}

/** A descriptor opened for a hit, proved to be the checked file; the caller closes `fd`. */
export interface ReopenedFile {
  fd: number;
  stat: Stats;
}

export class CheckedFileMemo {
  private readonly entries = new Map<string, CheckedFile>();

  constructor(private readonly limit = CHECKED_FILES_LIMIT) {}

  /** The entry for `skill://<name>[/<rawRelative>]` (raw text, as asked), if it is still for `skill` and `symlinks`. */
  get(key: string, skill: Skill | undefined, symlinks: SymlinkMode): CheckedFile | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.skill !== skill || entry.symlinks !== symlinks) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Remembers a checked file; a path that went through a link (`realPath !== path`) is not remembered. */
  remember(key: string, file: CheckedFile & { realPath: string }): void {
    if (file.realPath !== file.path) return;
    this.entries.delete(key);
    this.entries.set(key, {
      skill: file.skill,
      path: file.path,
      contentType: file.contentType,
      dev: file.dev,
      ino: file.ino,
      symlinks: file.symlinks,
    });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The memo key of `skill://<name>[/<rawRelative>]`: neither part can hold a NUL (both are refused before). */
export function checkedFileKey(name: string, rawRelative: string | undefined): string {
  return rawRelative === undefined ? name : `${name}\0${rawRelative}`;
}

/**
 * Opens `file.path` again and proves it is the checked file at the checked place (see the top of this file); resolves
 * undefined, having closed what it opened, when it is not. Callbacks, not a FileHandle: a promise per step cost as
 * much as the system calls themselves (read-skill-file.ts). Naming the descriptor reads /proc, which touches no
 * file system, so it is done synchronously.
 */
export function reopenCheckedFile(file: CheckedFile): Promise<ReopenedFile | undefined> {
  return new Promise((resolve) => {
    fs.open(file.path, OPEN_FLAGS, (openError, fd) => {
      if (openError) {
        resolve(undefined);
        return;
      }
      fs.fstat(fd, (statError, stat) => {
        if (
          !statError &&
          stat.isFile() &&
          stat.ino === file.ino &&
          stat.dev === file.dev &&
          placeOf(fd) === file.path
        ) {
          resolve({ fd, stat });
          return;
        }
        fs.close(fd, () => resolve(undefined));
      });
    });
  });
}

function placeOf(fd: number): string | undefined {
  try {
    return fs.readlinkSync(PROC_FD + fd);
  } catch {
    return undefined;
  }
}
