// The doctor's findings about each SKILL.md, kept between looks (docs/agents.md "Live"): a file's findings are a
// function of its text and of what the scan made of it, so an unchanged file is not read again. The owner forgets a
// file when a change is reported at or above its path (`invalidate`), and everything on a full rebuild.

import type { Finding } from './types.js';

interface Entry {
  /** What the findings were computed from besides the text (the scan's record and notes, the provider's rules). */
  inputs: string;
  findings: readonly Finding[];
}

export class FileFindingsMemo {
  private readonly entries = new Map<string, Entry>();

  get(filePath: string, inputs: string): readonly Finding[] | undefined {
    const entry = this.entries.get(filePath);
    return entry !== undefined && entry.inputs === inputs ? entry.findings : undefined;
  }

  set(filePath: string, inputs: string, findings: readonly Finding[]): void {
    this.entries.set(filePath, { inputs, findings });
  }

  invalidate(full: boolean, paths: Iterable<string>): void {
    if (full) {
      this.entries.clear();
      return;
    }
    for (const path of paths) {
      if (this.entries.delete(path)) continue;
      const prefix = path.endsWith('/') ? path : `${path}/`;
      for (const known of this.entries.keys()) if (known.startsWith(prefix)) this.entries.delete(known);
    }
  }
}
