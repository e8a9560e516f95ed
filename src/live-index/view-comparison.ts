// Whether two computations of the per-agent views answer alike, and the content hash a view's event ids derive from
// (docs/agents.md "Live"): an update compares each view it made with the one before, and logs events for those that
// changed.

import { createHash } from 'node:crypto';
import type { AgentViews } from '../discovery/agents/compute-views.js';
import type { AgentView } from '../discovery/agents/types.js';
import { sameJson } from '../discovery/same-json.js';
import { nextSlice, sliceSpent } from '../discovery/time-slices.js';

/** The directories and files two computations of the views depend on are the same. */
export async function sameWatch(a: AgentViews['watch'], b: AgentViews['watch']): Promise<boolean> {
  return (await sameList(a.dirs, b.dirs)) && (await sameList(a.files, b.files));
}

/**
 * Two computations of one view give the same answers, the matrix's cells included: its records (each file's status
 * there) and the files it found. Compared in slices: a recomputation makes every record anew.
 */
export async function sameView(a: AgentView, b: AgentView): Promise<boolean> {
  // A view an update kept (kept-views.ts).
  if (a === b) return true;
  return (
    (await sameMap(a.records, b.records)) &&
    (await sameMap(a.found, b.found)) &&
    (await sameList(a.skills, b.skills)) &&
    (await sameList(a.collisions, b.collisions)) &&
    (await sameList(a.warnings, b.warnings)) &&
    (await sameList(a.diagnostics, b.diagnostics)) &&
    (await sameList(a.rootOrder, b.rootOrder))
  );
}

/** Entries compared between two looks at the slice's clock (sameMap, sameList). */
const SLICE_CHECK = 64;

async function sameMap<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>): Promise<boolean> {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  let step = 0;
  for (const [key, value] of a) {
    // An entry costs less than reading the clock: the slice is looked at every SLICE_CHECK entries.
    if (++step % SLICE_CHECK === 0 && sliceSpent()) await nextSlice();
    const other = b.get(key);
    if (other === undefined || !sameJson(value, other)) return false;
  }
  return true;
}

async function sameList(a: readonly unknown[], b: readonly unknown[]): Promise<boolean> {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if ((i + 1) % SLICE_CHECK === 0 && sliceSpent()) await nextSlice();
    if (!sameJson(a[i], b[i])) return false;
  }
  return true;
}

/** The content hash of one view's answer: its stream's event ids derive from it (event-log.ts). */
export function viewHash(view: AgentView): string {
  const hash = createHash('sha256');
  hash.update(view.agent.id);
  hash.update(JSON.stringify(view.skills));
  hash.update(JSON.stringify(view.collisions));
  hash.update(JSON.stringify(view.warnings));
  hash.update(JSON.stringify(view.diagnostics));
  return hash.digest('hex');
}
