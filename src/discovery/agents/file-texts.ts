// SKILL.md texts shared by every agent's view: one read per file and build, and none for a file unchanged since
// the last build (same inode, size and modification time).

import { stat } from 'node:fs/promises';
import { readTextFile } from '../read-text-file.js';

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
          : { ok: false, error: result.status === 'too-large' ? 'file too large' : result.status };
      this.entries.set(path, { key, read });
      return read;
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
}
