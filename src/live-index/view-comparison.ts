// Whether two computations of the per-agent views answer alike, the events of a view's change, and the content hash
// a view's event ids derive from (docs/agents.md "Live"): an update compares each view it made with the one before,
// and logs events for those that changed (docs/api.md §GET /events `agent=`): `index` with the names added, removed
// and changed in that view, then one `collision` per collision that appeared, changed or went away.

import { createHash } from 'node:crypto';
import type { AgentViews } from '../discovery/agents/compute-views.js';
import type { AgentCollision, AgentFinding, AgentSkill, AgentView } from '../discovery/agents/types.js';
import { sameJson } from '../discovery/same-json.js';
import { nextSlice, sliceSpent } from '../discovery/time-slices.js';
import type { SkillWarning } from '../discovery/types.js';
import { diffCollisions } from './diff-snapshots.js';
import type { PendingEvent } from './event-log.js';
import { endsChunk, endsPathChunk, hashList, RunHasher } from './run-hasher.js';

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

export function viewChangeEvents(before: AgentView, after: AgentView, generation: number): PendingEvent[] {
  // A view may load one name more than once (an agent that keeps every file): a name's records are compared together.
  const old = byName(before.skills);
  const now = byName(after.skills);
  const added: string[] = [];
  const changed: string[] = [];
  for (const [name, skills] of now) {
    const was = old.get(name);
    if (was === undefined) added.push(name);
    else if (!sameRecords(was, skills)) changed.push(name);
  }
  const removed = [...old.keys()].filter((name) => !now.has(name));
  const pending: PendingEvent[] = [{ type: 'index', data: { generation, added, removed, changed } }];
  for (const change of diffCollisions(before.collisions, after.collisions)) {
    pending.push({ type: 'collision', data: change });
  }
  return pending;
}

/** A view's skills by name, in the view's order (a Map keeps the order of first appearance). */
function byName(skills: readonly AgentSkill[]): Map<string, AgentSkill[]> {
  const out = new Map<string, AgentSkill[]>();
  for (const skill of skills) {
    const list = out.get(skill.name);
    if (list === undefined) out.set(skill.name, [skill]);
    else list.push(skill);
  }
  return out;
}

function sameRecords(a: readonly AgentSkill[], b: readonly AgentSkill[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((skill, i) => skill === b[i] || sameJson(skill, b[i]));
}

const VIEW_DOMAIN = Buffer.from('skillsd-view/1\n', 'utf8');

/**
 * The content hash of one view's answer, from which its stream's event ids derive (event-log.ts): a SHA-256 over the
 * view's id and, for its skills, collisions, warnings and diagnostics in turn, the list's number of items, its number
 * of runs and each run's digest, the runs cut by content as the `/skills` answer's (run-hasher.ts). Equal answers
 * give equal hashes in any daemon. Kept by a followed view's stream from one state to the next, it hashes again only
 * the runs holding records an update made anew (an update keeps every record it did not touch).
 */
export class ViewHasher {
  private readonly skills = new RunHasher<AgentSkill>((skill) => endsChunk(skill.name));
  private readonly collisions = new RunHasher<AgentCollision>((collision) => endsChunk(collision.name));
  private readonly warnings = new RunHasher<SkillWarning>((warning) =>
    endsPathChunk(warning.skillPath, warning.message),
  );
  private readonly diagnostics = new RunHasher<AgentFinding>((finding) => endsPathChunk(finding.path, finding.message));

  /** Items whose run the last `hash` hashed again, over the four lists (tests). */
  get rehashed(): number {
    return this.skills.rehashed + this.collisions.rehashed + this.warnings.rehashed + this.diagnostics.rehashed;
  }

  hash(view: AgentView): string {
    const hash = createHash('sha256');
    hash.update(VIEW_DOMAIN);
    hash.update(`${JSON.stringify(view.agent.id)}\n`);
    for (const list of [
      this.skills.update(view.skills).list,
      this.collisions.update(view.collisions).list,
      this.warnings.update(view.warnings).list,
      this.diagnostics.update(view.diagnostics).list,
    ]) {
      hashList(hash, list);
    }
    return hash.digest('hex');
  }
}

/** The content hash of one view's answer, made from nothing kept (`ViewHasher`). */
export function viewHash(view: AgentView): string {
  return new ViewHasher().hash(view);
}
