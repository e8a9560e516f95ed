// What the per-agent views of one workspace keep from one update to the next (docs/agents.md "Live"): the agents'
// file texts and root walks, the other profiles' scans, the doctor's looks, real paths and the matrix's rows, and
// how each is forgotten where a build reported a change. Dropped views start again from a new set.

import { basename, dirname, join } from 'node:path';
import { AgentFileTexts } from '../discovery/agents/file-texts.js';
import { MatrixRowMemo } from '../discovery/agents/matrix-rows.js';
import { RealPathMemo } from '../discovery/agents/real-paths.js';
import { RootWalkMemo } from '../discovery/agents/walk-memo.js';
import { DoctorMemo } from '../discovery/doctor/doctor-memo.js';
import { realpath } from '../discovery/files/sliced-fs.js';
import type { KeptForViews } from './views-input.js';

export class ViewsMemos implements KeptForViews {
  readonly texts = new AgentFileTexts();
  /** The agents' root walks kept between updates: a change re-walks only the roots it can touch. */
  readonly walks = new RootWalkMemo();
  /** Per other profile, its discovery's file cache and directory scans (views-input.ts). */
  readonly profiles: KeptForViews['profiles'] = new Map();
  /** What the doctor looked at (directories, scans, each SKILL.md's findings), kept until a change is reported. */
  readonly doctor = new DoctorMemo();
  /** Real paths of the files the profiles' views and the doctor's findings name. */
  readonly realPaths = new RealPathMemo();
  /** The rows of the last matrix of `GET /agents` made: the next one makes only the rows whose inputs changed. */
  readonly matrixRows = new MatrixRowMemo();
  /**
   * The wall-clock time the oldest text, walk or scan kept was read at or after: the start of the last computation
   * made with nothing kept (the first, or one after a full invalidation).
   */
  readSince = 0;
  /** Nothing is kept from an earlier computation: the next one reads everything (see readSince). */
  private nothingKept = true;

  /** A computation of the views begins. */
  begin(): void {
    if (!this.nothingKept) return;
    this.readSince = Date.now();
    this.nothingKept = false;
  }

  /**
   * Forgets the texts the reported `paths` may have changed, and the agents' root walks unless only texts changed.
   * Resolves to the paths with their real paths: texts are kept by real path, so a change reported through a link is
   * also forgotten where it really is (a path gone has no real path: its parent's, with its name, is where it was).
   */
  async forgetTexts(full: boolean, paths: ReadonlySet<string>): Promise<Set<string>> {
    const reals = await Promise.all(
      [...paths].map((path) =>
        realpath(path).catch(() =>
          realpath(dirname(path)).then(
            (dir) => join(dir, basename(path)),
            () => path,
          ),
        ),
      ),
    );
    // Each path once: a path already forgotten would be looked under as a directory.
    const reported = new Set([...paths, ...reals]);
    this.texts.invalidate(full, reported);
    if (full) {
      this.walks.clear();
      this.nothingKept = true;
    } else await this.walks.invalidate(reported);
    return reported;
  }

  /** Forgets the rest of what the reported paths may have changed: the other profiles' scans, the doctor's looks. */
  async forgetRest(full: boolean, paths: ReadonlySet<string>, reported: ReadonlySet<string>): Promise<void> {
    for (const memo of this.profiles.values()) if (full || !memo.scans.invalidate(paths)) memo.scans.clear();
    this.realPaths.invalidate(full, reported);
    this.matrixRows.invalidate(full, reported);
    await this.doctor.invalidate(full, [...reported]);
  }
}
