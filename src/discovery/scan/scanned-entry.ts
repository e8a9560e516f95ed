// One candidate entry of a skills directory as a scan left it: what the first scan and the incremental update
// (scan-update.ts) both hold, kept in its own file so that neither of the two imports the other for it.

import type { Skill } from '../types.js';

/** What one candidate entry gave. */
export interface ScannedEntry {
  readonly entryName: string;
  /** As the record shows it (see `ScanOptions.shownDir`). */
  readonly filePath: string;
  /** The SKILL.md path read. */
  readonly readPath: string;
  readonly entryIsLink: boolean;
  /** The entry or its SKILL.md is a symlink: its realpath is not the directory's joined with the names. */
  readonly linked: boolean;
  /** The SKILL.md realpath, once resolved (loaded skills only). */
  realpath?: string;
  /** Undefined when the candidate is silently not a skill (docs/discovery.md §3, steps 2–3). */
  readonly skill: Skill | undefined;
  readonly notes: readonly string[];
}
