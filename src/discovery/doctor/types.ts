// The doctor's answers (docs/api.md §GET /doctor): why the index is what it is, for people and for CI.

import type { Dirent } from 'node:fs';
import type { Collision, Level, Profile, Skill, SkillSource, SkillWarning } from '../types.js';

/**
 * What the per-agent views already read, handed to the doctor of a live workspace's views so that a folder is listed
 * and a SKILL.md read once for them all (docs/agents.md "Live"). Both take real paths.
 */
export interface SharedReads {
  /** A directory's entries, in code-unit order (shared: never changed by the caller); rejects as `readdir` does. */
  list(realDir: string): Promise<readonly Dirent[]>;
  /** A SKILL.md's text as the views read it (no link followed, at most 1 MiB), or why it could not be read. */
  text(realPath: string): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
}

export type Severity = 'error' | 'warning' | 'info';

/**
 * One thing the doctor noticed. `error`: something that looks like a skill did not load; `warning`: it loaded, but
 * not as its author probably meant, or against the Agent Skills specification; `info`: a deliberate choice (a toggle,
 * a filter, `enabled: false`) or a candidate that lost to another.
 */
export interface Finding {
  /** Stable id, e.g. `wrong-case-skill-md`, `spec-name-folder`. */
  rule: string;
  severity: Severity;
  /** The file or directory concerned (absolute, as discovered). */
  path: string;
  /** 1-based line in `path`, where there is one. */
  line?: number;
  message: string;
  /** What to do about it. */
  hint?: string;
}

/** How many findings of one rule a report holds (`summary` of docs/api.md §GET /doctor). */
export interface RuleCount {
  rule: string;
  severity: Severity;
  count: number;
}

export interface DoctorDirectory {
  path: string;
  /** Provider id (`native`, `claude`, …, `custom`). */
  provider: string;
  level: Level;
  exists: boolean;
  readable: boolean;
  /** Skills the scan of this directory found (before precedence and filters). */
  skills: number;
}

export type CandidateOutcome = 'loaded' | 'shadowed' | 'filtered' | 'skipped';

export interface CandidateReport {
  name: string;
  filePath: string;
  source: SkillSource;
  outcome: CandidateOutcome;
  /** Why, in words: which candidate won, which toggle or glob, which rule of the file. */
  reason: string;
  findings: Finding[];
}

/** What the doctor engine computes for one workspace; the server adds the index's own state. */
export interface WorkspaceDiagnosis {
  directories: DoctorDirectory[];
  findings: Finding[];
  /** Every candidate of every name, in pipeline order. */
  candidates: CandidateReport[];
}

export interface DoctorReport {
  generation: number;
  cwd: string;
  profile: Profile;
  directories: DoctorDirectory[];
  /** Per rule, how many of `findings` it has: errors, warnings, info, then the most frequent first. */
  summary: RuleCount[];
  /** Errors, then warnings, then info; of `?severity=` or worse when asked. */
  findings: Finding[];
  warnings: SkillWarning[];
  collisions: Collision[];
  watch: { mode: 'events' | 'polling' | 'off'; [key: string]: unknown };
}

export interface SkillDoctorReport {
  name: string;
  winner: Skill | null;
  candidates: CandidateReport[];
  /** Near misses whose folder has this name (a skill that was never a candidate). */
  findings: Finding[];
}
