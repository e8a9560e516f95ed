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

/**
 * Each item's SHA-256 of its JSON, by the item itself: an update keeps the objects of everything it did not touch
 * (kept-views.ts, agent-run.ts), so a view's hash after an edit serialises and hashes only the items the edit made.
 * Items are never changed once in a view (a change makes a new object), so a kept digest stays that item's.
 */
const itemDigests = new WeakMap<object, string>();

/** An item's digest, in base64: a short string costs less memory than a Buffer of its own for each item. */
function itemDigest(item: object): string {
  let digest = itemDigests.get(item);
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(item)).digest('base64');
    itemDigests.set(item, digest);
  }
  return digest;
}

/**
 * The content hash of one view's answer: its stream's event ids derive from it (event-log.ts). A SHA-256 over the
 * agent, then each list's length and its items' digests in order (skills, collisions, warnings, diagnostics).
 */
export function viewHash(view: AgentView): string {
  const lists = [view.skills, view.collisions, view.warnings, view.diagnostics] as const;
  const parts: string[] = [`skillsd-view/2\n${view.agent.id}\n`];
  for (const list of lists) {
    parts.push(`${list.length}\n`);
    for (const item of list as readonly object[]) parts.push(itemDigest(item));
  }
  return createHash('sha256').update(parts.join(''), 'utf8').digest('hex');
}
