// Live doctor findings (docs/api.md §GET /doctor, SSE `diagnostic`): after each rebuild of a watched workspace the doctor
// looks again, and every error or warning that appeared or went since the last look is reported once (a log line and
// an event). Info findings (filters, shadowed candidates) are left out: collisions and settings have events of their
// own. The first look only sets the baseline: what was there at start is reported by `GET /doctor`, not as news.
//
// A look waits for the files to be quiet (`delayMs` after the last rebuild): an editor's save passes through states
// (an empty file, a half-written folder) that are not worth reporting. Looks are coalesced like rebuilds
// (run-once-queue-one.ts: one running, one waiting, which takes the latest snapshot). A look re-reads every skills
// directory, so a workspace of more than `maxSkills` loaded skills is not looked at live (its reloads stay as cheap
// as they were); `GET /doctor` still answers on request.

import type { Finding } from '../discovery/doctor/types.js';
import { RunOnceQueueOne } from './run-once-queue-one.js';
import type { WorkspaceSnapshot } from './snapshot.js';

export interface DiagnosticTrackerOptions {
  /** The doctor's findings for a snapshot. */
  look(snapshot: WorkspaceSnapshot): Promise<readonly Finding[]>;
  report(state: 'new' | 'resolved', finding: Finding): void;
  onError(error: unknown): void;
  maxSkills?: number;
  /** Quiet time after the last rebuild before looking (default 250 ms). */
  delayMs?: number;
}

export const DEFAULT_MAX_TRACKED_SKILLS = 2000;
const DEFAULT_DELAY_MS = 250;

export class DiagnosticTracker {
  private known: Map<string, Finding> | undefined;
  /** A look that waited for one under way is dropped when a newer rebuild is being waited out (its timer starts one). */
  private readonly looks = new RunOnceQueueOne(() => (this.waiting === undefined ? this.drain() : Promise.resolve()));
  private next: WorkspaceSnapshot | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private waiting: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly maxSkills: number;
  private readonly delayMs: number;

  constructor(private readonly options: DiagnosticTrackerOptions) {
    this.maxSkills = options.maxSkills ?? DEFAULT_MAX_TRACKED_SKILLS;
    this.delayMs = options.delayMs ?? DEFAULT_DELAY_MS;
  }

  /** Looks again at `snapshot` once the files have been quiet for `delayMs` (and after any look in progress). */
  schedule(snapshot: WorkspaceSnapshot): void {
    if (this.closed) return;
    this.next = snapshot;
    clearTimeout(this.timer);
    this.waiting ??= new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    this.timer = setTimeout(() => this.start(), this.delayMs);
    this.timer.unref();
  }

  /** Resolves once no look is waiting, running or queued. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.waiting !== undefined) await this.waiting;
      else if (this.looks.current !== null) await this.looks.idle();
      else return;
    }
  }

  close(): void {
    this.closed = true;
    this.next = undefined;
    clearTimeout(this.timer);
    this.release();
  }

  private start(): void {
    this.release();
    // A look under way takes `next` when it loops; one that already left its loop is followed by one more.
    void this.looks.run();
  }

  private release(): void {
    const wake = this.wake;
    this.waiting = undefined;
    this.wake = undefined;
    wake?.();
  }

  private async drain(): Promise<void> {
    while (this.next !== undefined && !this.closed) {
      const snapshot = this.next;
      this.next = undefined;
      if (snapshot.skills.length > this.maxSkills) {
        this.known = undefined;
        continue;
      }
      let findings: readonly Finding[];
      try {
        findings = await this.options.look(snapshot);
      } catch (error) {
        this.options.onError(error);
        continue;
      }
      if (this.closed) return;
      const current = new Map<string, Finding>();
      for (const finding of findings) if (finding.severity !== 'info') current.set(keyOf(finding), finding);
      const before = this.known;
      this.known = current;
      if (before === undefined) continue;
      for (const [key, finding] of before) if (!current.has(key)) this.options.report('resolved', finding);
      for (const [key, finding] of current) if (!before.has(key)) this.options.report('new', finding);
    }
  }
}

function keyOf(finding: Finding): string {
  return `${finding.rule}\0${finding.path}\0${finding.line ?? ''}\0${finding.message}`;
}
