// What the doctor looked at, kept between looks of a live workspace (docs/agents.md "Live"): each directory's listing
// of near misses, its scan, and each SKILL.md's findings. A SKILL.md's findings are a function of its text, of what
// the scan made of it and of the files of its skill (`missing-referenced-file`), a directory's look of its entries.
// The owner reports every change (`invalidate`): a path at or under a directory or file forgets what was kept for it,
// and a path inside a skill folder forgets that skill's SKILL.md findings (a file its body names came or went), except
// that an edit of a SKILL.md the look found, still a regular file, keeps the directory's look (its entries did not
// change); a full rebuild forgets everything.

import { lstat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { forgetAtOrUnder } from '../forget-under.js';
import { sameJson } from '../same-json.js';
import { createScanMemo, type ScanMemo } from '../scan/scan-memo.js';
import type { DirectoryLook } from './near-misses.js';
import type { SkillFileInput } from './skill-file-findings.js';
import type { Finding } from './types.js';

interface FileEntry {
  /** What the findings were computed from besides the text (the scan's record and notes, the provider's rules). */
  input: SkillFileInput;
  findings: readonly Finding[];
}

export class DoctorMemo {
  private readonly files = new Map<string, FileEntry>();
  private readonly looks = new Map<string, DirectoryLook>();
  /** The directories' scans, updated entry by entry like discovery's own (scan-memo.ts). */
  readonly scans: ScanMemo = createScanMemo();

  fileFindings(input: SkillFileInput): readonly Finding[] | undefined {
    const entry = this.files.get(input.filePath);
    return entry !== undefined && sameInput(entry.input, input) ? entry.findings : undefined;
  }

  keepFileFindings(input: SkillFileInput, findings: readonly Finding[]): void {
    this.files.set(input.filePath, { input, findings });
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
      return;
    }
    // Kept by path: one pass over what is kept, however many paths a burst reports (forget-under.ts).
    forgetAtOrUnder(this.files, paths, true);
    const lookPaths: string[] = [];
    for (const path of paths) {
      // The SKILL.md of every folder above the path: the skill the changed file belongs to, whatever its depth.
      for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) this.files.delete(join(dir, 'SKILL.md'));
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

/** The same listing: the very array (a look kept), or the same names in the same order. */
function sameEntries(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return a.every((name, i) => name === b[i]);
}
