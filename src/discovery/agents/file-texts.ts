// SKILL.md texts shared by every agent's view (docs/agents.md "Live"): one read per file, kept between updates.
// A kept text is used without looking at the file again until the watcher reports a change at or above its path
// (`invalidate`); after a full invalidation each file is looked at once more and re-read only when its inode, size or
// modification time moved. The same read object is handed out while the file is unchanged: readings of it are
// memoised by that identity (run-agent.ts).

import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { sliced, stat } from '../files/sliced-fs.js';
import { forgetAtOrUnder } from '../forget-under.js';
import { readTextFileNow, type TextFileRead } from '../read-text-file.js';

/** The error of a file over the daemon's read cap. */
export const FILE_TOO_LARGE = 'file too large';

export type TextRead = { ok: true; text: string } | { ok: false; error: string };

interface Entry {
  key: string;
  read: TextRead;
  /** `dev:ino` of the file read. */
  inode: string;
}

export class AgentFileTexts {
  private readonly entries = new Map<string, Entry>();
  /** Entries known current: no change was reported at or above their path since they were read or looked at. */
  private readonly current = new Set<string>();
  private pending = new Map<string, Promise<TextRead>>();
  /** Files read from disk since this cache was made (tests count them). */
  diskReads = 0;

  /** Entries not current: a change was reported at or above them since they were read (entries less `current`). */
  private readonly stale = new Set<string>();
  /** The entries that were not current when the computation under way began (`changedAtBegin`). */
  private staleAtBegin: ReadonlySet<string> = new Set();

  /** Starts one computation of the views: each file is read at most once during it. */
  begin(): void {
    this.pending = new Map();
    // Agents run side by side: once one reads a reported file it is current again; the others must still see it
    // changed. Kept as the few entries that are not current, not as the thousands that are.
    this.staleAtBegin = new Set(this.stale);
  }

  /**
   * The files whose kept text was not current when this computation began: a change was reported at or above their
   * path since they were read (a run patches only these: run-agent.ts).
   */
  changedAtBegin(): ReadonlySet<string> {
    return this.staleAtBegin;
  }

  /**
   * Forgets that the files at or under `paths` are current (all of them when `full`): they are looked at again on
   * their next read.
   */
  invalidate(full: boolean, paths: Iterable<string>): void {
    if (full) {
      for (const path of this.entries.keys()) this.stale.add(path);
      this.current.clear();
      return;
    }
    // Keys are files: a reported path that is one has nothing below it.
    forgetAtOrUnder(this.current, paths, true, (path) => this.stale.add(path));
  }

  /** The reads of the computation under way (or the last one), by path. */
  reads(): ReadonlyMap<string, Promise<TextRead>> {
    return this.pending;
  }

  /** `dev:ino` of a file this computation read, without another `stat` (undefined when it could not be read). */
  async inode(path: string): Promise<string | undefined> {
    await this.read(path);
    return this.entries.get(path)?.inode;
  }

  /** Ends a build: files no view read this time are forgotten. */
  end(): void {
    for (const path of this.entries.keys()) {
      if (this.pending.has(path)) continue;
      this.entries.delete(path);
      this.current.delete(path);
      this.stale.delete(path);
    }
  }

  /**
   * The kept text of `path` when it is current (no change reported since it was read or looked at), without a
   * promise: what a reading of thousands of kept files (the matrix's rows) takes first.
   */
  known(path: string): TextRead | undefined {
    return this.current.has(path) ? this.entries.get(path)?.read : undefined;
  }

  read(path: string): Promise<TextRead> {
    let promise = this.pending.get(path);
    if (promise === undefined) {
      promise = this.load(path);
      this.pending.set(path, promise);
    }
    return promise;
  }

  private async load(path: string): Promise<TextRead> {
    const kept = this.entries.get(path);
    if (kept !== undefined && this.current.has(path)) return kept.read;
    try {
      if (kept === undefined) {
        // Nothing kept to compare with: the file is read at once, keyed by the stats of the descriptor read.
        let opened: Stats | undefined;
        const result = await sliced(() =>
          readTextFileNow(path, undefined, true, (info) => {
            opened = info;
          }),
        );
        // Gone before the open: the `stat` below words the error as it always did.
        if (opened !== undefined) return this.keep(path, result, opened);
      }
      const info = await stat(path);
      const known = this.entries.get(path);
      if (known !== undefined && known.key === keyOf(info)) {
        this.current.add(path);
        this.stale.delete(path);
        return known.read;
      }
      // Paths are real paths the walk judged: a link put in the last place since is not followed.
      const result = await sliced(() => readTextFileNow(path, undefined, true));
      return this.keep(path, result, info);
    } catch (error) {
      this.entries.delete(path);
      this.current.delete(path);
      this.stale.delete(path);
      return { ok: false, error: (error as Error).message };
    }
  }

  private keep(path: string, result: TextFileRead, info: Stats): TextRead {
    this.diskReads++;
    const read: TextRead =
      result.status === 'ok'
        ? { ok: true, text: result.text }
        : { ok: false, error: result.status === 'too-large' ? FILE_TOO_LARGE : result.status };
    this.entries.set(path, { key: keyOf(info), read, inode: `${info.dev}:${info.ino}` });
    this.current.add(path);
    this.stale.delete(path);
    return read;
  }
}

/** What tells a kept text from a file changed since: its inode, size and modification time. */
function keyOf(info: Stats): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

/**
 * The first `bytes` bytes of a regular file as text (a character cut at the end is replaced), opened like the bounded
 * read (no link followed, never waiting on a FIFO).
 */
export async function readFileHead(path: string, bytes: number): Promise<TextRead> {
  try {
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
    try {
      if (!(await handle.stat()).isFile()) return { ok: false, error: 'not-a-file' };
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return { ok: true, text: buffer.subarray(0, bytesRead).toString('utf8') };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
