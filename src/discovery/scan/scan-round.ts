// What the directory scans of one discovery did, as the scan memo (scan-memo.ts) records it and the pipeline's update
// (pipeline-memo.ts) reads it: which directories were scanned again, what each gave before and after.

import type { Skill, SkillDiagnostic } from '../types.js';

/** One directory scan as remembered: its loaded records, bare warnings and the realpaths of its SKILL.md files. */
export interface RememberedScan {
  readonly skills: readonly Skill[];
  readonly warnings: readonly string[];
  readonly realpaths: ReadonlyMap<string, string>;
  readonly diagnostics: readonly SkillDiagnostic[];
}

/** A directory scanned again during one discovery: what it gave before (none: not remembered) and what it gives now. */
export interface Rescan {
  /** The provider id of the scan's options. */
  provider: string;
  before: RememberedScan | undefined;
  after: RememberedScan;
  /**
   * When the scan updated `before` (scan-update.ts): the records of the entries that changed, before and after. Every
   * other record of `after` is the very object of `before`, under the same realpath.
   */
  changed?: { readonly before: readonly Skill[]; readonly after: readonly Skill[] };
}

/** What the scans of one discovery did, from the memo's point of view (`prune`). */
export interface ScanRound {
  /** Every directory scanned again (not answered from the memo), in completion order. */
  rescanned: Rescan[];
  /** A scan threw: its provider lost its skills for this discovery (docs/discovery.md §5 step 1 `Failed to load`). */
  failed: boolean;
  /** A remembered scan was not used: a directory is no longer scanned. */
  dropped: boolean;
  /** The realpaths of every scan used, in call order. */
  realpaths: ReadonlyMap<string, string>[];
}
