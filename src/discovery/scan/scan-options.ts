// What one scan of a skills directory (docs/discovery.md §3) is given and gives back: the options every caller fills
// (the pipeline, the doctor, the scan memo) and the two loaders of an entry (load-skill.ts, load-skill-now.ts) read.

import type { LinkPolicy } from '../link-trust.js';
import type { TextIntern } from '../text-intern.js';
import type { Level, Profile, Skill, SkillDiagnostic } from '../types.js';
import type { PreviousScan } from './scan-update.js';
import type { ScannedEntry } from './scanned-entry.js';
import type { SkillFileCache } from './skill-file-cache.js';

export interface ScanOptions {
  requireDescription: boolean;
  /**
   * How the directory is written in the records (`filePath`, `baseDir`) and warnings, when not as `dir` itself: a
   * relative custom directory stays relative there (docs/discovery.md §5 step 4) while `dir` is what is read. `source.path`
   * is always the path read.
   */
  shownDir?: string;
  profile: Profile;
  provider: string;
  providerName: string;
  level: Level;
  /** The plugin the directory belongs to (docs/discovery.md §4a): recorded as `source.plugin`. */
  plugin?: string;
  /** Put before every name found (xcsh's claude-plugins: `<plugin>:`). */
  namePrefix?: string;
  cache?: SkillFileCache;
  /** Shares equal diagnostic texts among the scan's entries; a scan of a directory makes its own when none is given. */
  texts?: TextIntern;
  /**
   * Receives this scan's diagnostics (daemon-only, see `SkillDiagnostic`) once it is done, ordered by SKILL.md
   * path. The reference skips these files silently; `skills` and `warnings` are the same with or without it.
   */
  diagnostics?: SkillDiagnostic[];
  /**
   * Receives the realpath of every loaded skill's SKILL.md (docs/discovery.md §5 step 3), keyed by its `filePath`. The
   * directory is resolved once; only entries that are symlinks or hold a symlinked SKILL.md are resolved one by one,
   * since below a real directory a real entry's real file has the path `<realpath(dir)>/<entry>/SKILL.md`.
   */
  realpaths?: Map<string, string>;
  /**
   * The directory's real path, resolved by the caller right before the scan (and checked again after it, scan-memo.ts):
   * not resolved once more here.
   */
  realDir?: string;
  /** Receives every candidate entry's outcome by entry name, for `reuse` by the next scan of this directory. */
  entries?: Map<string, ScannedEntry>;
  /**
   * `read` is set to true once the entries are those of a listing of the directory (read now, or the previous one
   * updated); left false when it could not be listed (missing, not a directory, unreadable) or was not read (a link
   * rule). A scan that updated `reuse.previous` sets `entries` and `realpaths` here (the previous maps with the
   * changes on top) instead of filling `ScanOptions.entries` and `ScanOptions.realpaths`.
   */
  listing?: {
    read: boolean;
    entries?: ReadonlyMap<string, ScannedEntry>;
    realpaths?: ReadonlyMap<string, string>;
    /** With `entries`: the records of the changed entries before and after (scan-update.ts `UpdatedScan.changed`). */
    changed?: { before: Skill[]; after: Skill[] };
  };
  /**
   * The previous scan's entries (with the same options): an entry still listed, of the same kind and not `touched`
   * is taken as it was instead of being read again. The caller promises that every entry changed since is touched.
   * With `previous` (that scan's outputs), a few changed entries update it (scan-update.ts) instead of a scan of all.
   */
  reuse?: {
    entries: ReadonlyMap<string, ScannedEntry>;
    touched: ReadonlySet<string>;
    previous?: PreviousScan;
  };
  /**
   * Which links may be followed (link-trust.ts): the directory's own path, a linked skill directory and a linked
   * SKILL.md that break a rule are skipped with a diagnostic. Absent, every link is followed, as the reference does.
   */
  links?: LinkPolicy;
  /**
   * Read each plain SKILL.md with synchronous calls (`read-skill-file.ts`), for a first index built before the daemon
   * listens, when nothing else needs the event loop. Anything but a regular, non-empty SKILL.md that is not a link
   * (a link, a missing or unreadable file, a directory, a FIFO…) is left to the asynchronous path, so the records,
   * notes and order are the same either way (`test/discovery/scan/blocking-scan.test.ts`).
   */
  blocking?: boolean;
  /**
   * `blocking`'s synchronous reads, made inside the shared slice of time-slices.ts: the event loop turns between
   * slices. For a discovery run while the daemon serves (the other profiles' views, docs/agents.md "Live").
   */
  sliced?: boolean;
}

export interface ScanResult {
  skills: Skill[];
  /** Bare text; the caller adds its prefix. */
  warnings: string[];
}
