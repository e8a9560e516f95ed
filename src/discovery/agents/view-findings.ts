// The doctor's findings in each view (docs/agents.md "Diagnostics"): of the workspace's doctor findings
// (docs/api.md §GET /doctor), each view keeps those about a SKILL.md it reads — whatever status the file has there —
// with the path by which that view reaches the file, followed by its own `agent-rejected` findings.

import { basename } from 'node:path';
import type { Finding } from '../doctor/types.js';
import { realpath } from '../files/sliced-fs.js';
import { nextSlice, sliceSpent } from '../time-slices.js';
import type { AgentFinding, AgentView } from './types.js';
import { SKILL_FILE } from './walk-root.js';

/** Findings matched between two looks at the slice's clock. */
const SLICE_CHECK = 256;

export async function addDoctorFindings(
  views: readonly AgentView[],
  findings: readonly Finding[],
  /** Real paths kept between updates (real-paths.ts); absent: each path no view found is resolved here. */
  realOf: (path: string) => string | Promise<string> = (path) => realpath(path).catch(() => path),
  /** Every view of the computation `views` belong to: what they found names real paths too (default: `views`). */
  finders: Iterable<AgentView> = views,
): Promise<void> {
  // An update whose changed views all took their findings as they were has nothing to match.
  if (views.length === 0) return;
  // Near misses (a `skill.md`, an empty folder) are about files no view reads: only SKILL.md findings are matched.
  const about = findings.filter((finding) => basename(finding.path) === SKILL_FILE);
  // The views found each file by some path and know its real path: only a path no view found is resolved on disk.
  const reals = new Map<string, string>();
  for (const view of finders) for (const [real, found] of view.found) reals.set(found.lexicalPath, real);
  await Promise.all(
    [...new Set(about.map((finding) => finding.path))]
      .filter((path) => !reals.has(path))
      .map(async (path) => {
        reals.set(path, await realOf(path));
      }),
  );
  let step = 0;
  for (const view of views) {
    const own: AgentFinding[] = [];
    for (const finding of about) {
      // Ten views of 10,000 files held the event loop for about 30 ms: the loop gets its turn between slices.
      if (++step % SLICE_CHECK === 0 && sliceSpent()) await nextSlice();
      const record = view.records.get(reals.get(finding.path) ?? finding.path);
      if (record === undefined) continue;
      // The same object when the view reaches the file by the doctor's path (most files): nothing copied.
      own.push(record.filePath === finding.path ? finding : { ...finding, path: record.filePath });
    }
    view.diagnostics = [...own, ...view.diagnostics];
    doctorCounts.set(view, own.length);
  }
}

/** Per view, how many of its diagnostics (the first ones) are the doctor's. */
const doctorCounts = new WeakMap<AgentView, number>();

/**
 * Gives `view` the doctor's findings `from` carries (the same files, the same findings about them: the caller knows),
 * before its own; false when `from` did not get its findings here.
 */
export function reuseDoctorFindings(view: AgentView, from: AgentView): boolean {
  const count = doctorCounts.get(from);
  if (count === undefined) return false;
  view.diagnostics = [...from.diagnostics.slice(0, count), ...view.diagnostics];
  doctorCounts.set(view, count);
  return true;
}

/** A view's own diagnostics: those after the doctor's findings it was given. */
export function ownDiagnostics(view: AgentView): AgentFinding[] {
  return view.diagnostics.slice(doctorCounts.get(view) ?? 0);
}
