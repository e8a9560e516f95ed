// SKILL.md texts shared by every agent's view: one read per file and build, and none for a file unchanged since
// the last build (same inode, size and modification time).

import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { readTextFile } from '../read-text-file.js';

/** The error of a file over the daemon's read cap. */
export const FILE_TOO_LARGE = 'file too large';

export type TextRead = { ok: true; text: string } | { ok: false; error: string };

interface Entry {
  key: string;
  read: TextRead;
}

export class AgentFileTexts {
  private readonly entries = new Map<string, Entry>();
  private pending = new Map<string, Promise<TextRead>>();

  /** Starts one build: files are looked at again (once each). */
  begin(): void {
    this.pending = new Map();
  }

  /** Ends a build: files no view read this time are forgotten. */
  end(): void {
    for (const path of this.entries.keys()) if (!this.pending.has(path)) this.entries.delete(path);
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
    try {
      const info = await stat(path);
      const key = `${info.ino}:${info.size}:${info.mtimeMs}`;
      const known = this.entries.get(path);
      if (known !== undefined && known.key === key) return known.read;
      // Paths are real paths the walk judged: a link put in the last place since is not followed.
      const result = await readTextFile(path, undefined, true);
      const read: TextRead =
        result.status === 'ok'
          ? { ok: true, text: result.text }
          : { ok: false, error: result.status === 'too-large' ? FILE_TOO_LARGE : result.status };
      this.entries.set(path, { key, read });
      return read;
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
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
