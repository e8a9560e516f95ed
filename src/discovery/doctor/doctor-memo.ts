// What the doctor looked at, kept between looks of a live workspace (docs/agents.md "Live"): each directory's listing
// of near misses, its scan, and each SKILL.md's findings. A SKILL.md's findings are a function of its text, of what
// the scan made of it and of the files of its skill (`missing-referenced-file`), a directory's look of its entries.
// The owner reports every change (`invalidate`): a path at or under a directory or file forgets what was kept for it,
// and a path inside a skill folder forgets that skill's SKILL.md findings (a file its body names came or went), except
// that an edit of a SKILL.md the look found, still a regular file, keeps the directory's look (its entries did not
// change); a full rebuild forgets everything.

import { basename, dirname, join } from 'node:path';
import { lstat } from '../files/sliced-fs.js';
import { forgetAtOrUnder } from '../forget-under.js';
import { sameJson } from '../same-json.js';
import { createScanMemo, type ScanMemo } from '../scan/scan-memo.js';
import type { Collision, Settings, Skill } from '../types.js';
import type { DirectoryLook } from './near-misses.js';
import type { SkillFileInput } from './skill-file-findings.js';
import type { Finding } from './types.js';

interface FileEntry {
  /** What the findings were computed from besides the text (the scan's record and notes, the provider's rules). */
  input: SkillFileInput;
  findings: readonly Finding[];
}

/** What one directory's report was made from (see `directoryReport`). */
export interface DirectoryInputs {
  /** The directory as the doctor placed it (provider, level, rules), serialised. */
  key: string;
  look: DirectoryLook;
  /** The scan's skills (the very objects: a scan kept by the memo keeps them). */
  skills: readonly Skill[];
  /** The pipeline's decisions (`pipelineToken`). */
  pipeline: object;
}

export class DoctorMemo {
  private readonly files = new Map<string, FileEntry>();
  private readonly looks = new Map<string, DirectoryLook>();
  /** Each directory's report, with what it was made from. */
  private readonly reports = new Map<string, { inputs: DirectoryInputs; report: unknown }>();
  /** The last pipeline the doctor explained, and the token that stands for its decisions. */
  private pipeline:
    | { settings: Settings; skills: readonly Skill[]; collisions: readonly Collision[]; token: object }
    | undefined;
  /** The directories' scans, updated entry by entry like discovery's own (scan-memo.ts). */
  readonly scans: ScanMemo = createScanMemo();

  fileFindings(input: SkillFileInput): readonly Finding[] | undefined {
    const entry = this.files.get(input.filePath);
    return entry !== undefined && sameInput(entry.input, input) ? entry.findings : undefined;
  }

  keepFileFindings(input: SkillFileInput, findings: readonly Finding[]): void {
    this.files.set(input.filePath, { input, findings });
  }

  /**
   * A token for the pipeline's decisions: the previous one when every candidate wins or loses to the same files for
   * the same reasons as last time (the same settings; the same names, files and sources in the same order; the same
   * collisions), so that a directory whose own inputs are unchanged explains its candidates as before.
   */
  pipelineToken(settings: Settings, skills: readonly Skill[], collisions: readonly Collision[]): object {
    const last = this.pipeline;
    if (
      last !== undefined &&
      last.settings === settings &&
      sameCandidates(last.skills, skills) &&
      (last.collisions === collisions ||
        (last.collisions.length === collisions.length &&
          last.collisions.every((collision, i) => collision === collisions[i] || sameJson(collision, collisions[i]))))
    ) {
      this.pipeline = { ...last, skills, collisions };
      return last.token;
    }
    const token = {};
    this.pipeline = { settings, skills, collisions, token };
    return token;
  }

  /** The report kept for `dir` when it was made from the same inputs (one change under the directory forgets it). */
  directoryReport<T>(dir: string, inputs: DirectoryInputs): T | undefined {
    const kept = this.reports.get(dir);
    if (kept === undefined) return undefined;
    const was = kept.inputs;
    const same =
      was.key === inputs.key &&
      was.look === inputs.look &&
      was.pipeline === inputs.pipeline &&
      sameObjects(was.skills, inputs.skills);
    return same ? (kept.report as T) : undefined;
  }

  keepDirectoryReport(dir: string, inputs: DirectoryInputs, report: unknown): void {
    this.reports.set(dir, { inputs, report });
  }

  look(dir: string): DirectoryLook | undefined {
    return this.looks.get(dir);
  }

  keepLook(dir: string, look: DirectoryLook): void {
    this.looks.set(dir, look);
  }

  async invalidate(full: boolean, paths: readonly string[]): Promise<void> {
    if (full || !this.scans.invalidate(paths)) this.scans.clear();
    if (full) {
      this.files.clear();
      this.looks.clear();
      this.reports.clear();
      this.pipeline = undefined;
      return;
    }
    // Kept by path: one pass over what is kept, however many paths a burst reports (forget-under.ts).
    forgetAtOrUnder(this.files, paths, true);
    forgetAtOrUnder(this.reports, paths);
    const lookPaths: string[] = [];
    for (const path of paths) {
      // The SKILL.md of every folder above the path: the skill the changed file belongs to, whatever its depth; and
      // the report of every directory above it.
      for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
        this.files.delete(join(dir, 'SKILL.md'));
        this.reports.delete(dir);
      }
      if (!(await this.keepsLooks(path))) lookPaths.push(path);
    }
    if (lookPaths.length === 0) return;
    forgetAtOrUnder(this.looks, lookPaths);
    // A path inside a directory changes that directory's look, and those of the directories above it.
    for (const path of lookPaths) {
      for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) this.looks.delete(dir);
    }
  }

  /** `path` is a SKILL.md one kept look found and still a regular file: no look changes. */
  private async keepsLooks(path: string): Promise<boolean> {
    if (basename(path) !== 'SKILL.md') return false;
    const look = this.looks.get(dirname(dirname(path)));
    if (look === undefined || !look.skillFiles.includes(path)) return false;
    const info = await lstat(path).catch(() => undefined);
    return info?.isFile() === true;
  }
}

/** The same file input: the scan's record (the very one, or an equal one), its notes and the provider's rules. */
function sameInput(a: SkillFileInput, b: SkillFileInput): boolean {
  return (
    a.requireDescription === b.requireDescription &&
    a.providerName === b.providerName &&
    a.profile === b.profile &&
    a.folder?.path === b.folder?.path &&
    sameEntries(a.folder?.entries, b.folder?.entries) &&
    a.diagnostics.length === b.diagnostics.length &&
    a.diagnostics.every((note, i) => note === b.diagnostics[i]) &&
    (a.skill === b.skill || sameJson(a.skill ?? null, b.skill ?? null))
  );
}

function sameObjects(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The same candidates for the pipeline: each the same object, or the same name, file and source. */
function sameCandidates(a: readonly Skill[], b: readonly Skill[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Skill;
    const y = b[i] as Skill;
    if (x !== y && (x.name !== y.name || x.filePath !== y.filePath || x.source.id !== y.source.id)) return false;
  }
  return true;
}

/** The same listing: the very array (a look kept), or the same names in the same order. */
function sameEntries(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return a.every((name, i) => name === b[i]);
}
