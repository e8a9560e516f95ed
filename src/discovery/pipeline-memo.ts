// A reload's shortcut through the pipeline of SKILLS.md §5. Every decision the pipeline makes (which candidate wins a
// name, which ones lose and why, the realpath dedup, the custom and managed steps, the order of §1, every collision
// and collision warning) depends on each candidate's name, filePath, realpath, source and place in discovery order, on
// the settings and on the directories planned; never on the description, `hide` or the rest of the frontmatter. (A
// description only matters inside a scan, where a missing one drops the skill with a warning, and for a managed
// winner, whose description is sanitised.) So when every directory scanned again gives the same candidates (names,
// paths, realpaths, warnings) as the previous discovery, the answer is the previous one with the re-read records in
// the places of the old ones: a one-file edit costs what that directory holds, not what all of them hold. Anything
// else (a skill added, removed or renamed, a link moved, a scan that failed or is new, other settings) runs the
// whole pipeline.

import { sameJson } from './same-json.js';
import { sanitizeManagedDescription } from './sanitize-description.js';
import type { ScanMemo, ScanRound } from './scan-memo.js';
import type { DiscoveryResult, Skill, SkillDiagnostic } from './types.js';

export interface PipelineMemo {
  /** The settings and planned directories `result` was computed for (`pipelineKey`). */
  key: string;
  result: DiscoveryResult;
  /** The position in `result.skills` of each winning scan record (for a managed winner: its record before sanitising). */
  winnerAt: Map<Skill, number>;
  /** The provider whose winners have their description sanitised (SKILLS.md §5 step 5), if the profile has one. */
  managedProvider: string | null;
}

/** What a discovery computes afresh whichever way it goes (cheap: no per-skill work). */
export interface FreshParts {
  diagnostics: SkillDiagnostic[];
  scannedDirs: string[];
  repoRoot: string | null;
  pluginInputs?: DiscoveryResult['pluginInputs'];
}

/**
 * The previous result with the records of `round`'s re-scanned directories in place, or undefined when the pipeline
 * must run (see the top of this file). On success the memo (and the scan memo's sort hint) describe the new result.
 */
export function updateFromRescans(
  scans: ScanMemo,
  memo: PipelineMemo,
  key: string,
  round: ScanRound,
  fresh: FreshParts,
): DiscoveryResult | undefined {
  if (memo.key !== key || round.failed || round.dropped) return undefined;
  const replaced: Array<{ at: number; before: Skill; after: Skill; managed: boolean }> = [];
  for (const { provider, before, after } of round.rescanned) {
    if (before === undefined || !sameCandidates(before, after)) return undefined;
    for (let i = 0; i < after.skills.length; i++) {
      const old = before.skills[i]!;
      const skill = after.skills[i]!;
      if (old === skill) continue;
      const at = memo.winnerAt.get(old);
      // A record that lost keeps losing (same name, path and realpath): only the collisions name it, by path.
      if (at !== undefined)
        replaced.push({ at, before: old, after: skill, managed: provider === memo.managedProvider });
    }
  }
  const previous = memo.result;
  let { skills } = previous;
  if (replaced.length > 0) {
    skills = [...skills];
    for (const { at, before, after, managed } of replaced) {
      const winner = managed ? { ...after, description: sanitizeManagedDescription(after.description) } : after;
      const old = skills[at]!;
      skills[at] = winner;
      memo.winnerAt.delete(before);
      memo.winnerAt.set(after, at);
      scans.skillOrder.delete(old);
      scans.skillOrder.set(winner, at);
    }
  }
  const result: DiscoveryResult = {
    skills,
    // Provider and custom warnings come from the scans (checked equal), collision warnings from names and paths.
    warnings: previous.warnings,
    collisions: previous.collisions,
    // The very previous list when equal: the snapshot then keeps its serialised tail.
    diagnostics: sameJson(previous.diagnostics, fresh.diagnostics) ? previous.diagnostics : fresh.diagnostics,
    scannedDirs: fresh.scannedDirs,
    repoRoot: fresh.repoRoot,
    // Same winners' paths and realpaths.
    ...(previous.skillRealPaths === undefined ? {} : { skillRealPaths: previous.skillRealPaths }),
    // The Agent Plugins skills are part of the key: the same ones, in the same roots.
    ...(previous.skillRoots === undefined ? {} : { skillRoots: previous.skillRoots }),
    ...(fresh.pluginInputs === undefined ? {} : { pluginInputs: fresh.pluginInputs }),
  };
  memo.result = result;
  return result;
}

/** Same candidates: the same files under the same names in the same order, each with the same realpath; same warnings. */
function sameCandidates(
  before: NonNullable<ScanRound['rescanned'][number]['before']>,
  after: ScanRound['rescanned'][number]['after'],
): boolean {
  if (before.skills.length !== after.skills.length || before.realpaths.size !== after.realpaths.size) return false;
  if (before.warnings.length !== after.warnings.length) return false;
  for (let i = 0; i < before.warnings.length; i++) if (before.warnings[i] !== after.warnings[i]) return false;
  for (let i = 0; i < after.skills.length; i++) {
    const old = before.skills[i]!;
    const skill = after.skills[i]!;
    if (old !== skill && (old.name !== skill.name || old.filePath !== skill.filePath)) return false;
  }
  for (const [path, real] of after.realpaths) if (before.realpaths.get(path) !== real) return false;
  return true;
}

/** The inputs of the pipeline other than the candidates: settings and the directories planned, in order. */
export function pipelineKey(parts: unknown): string {
  return JSON.stringify(parts);
}
