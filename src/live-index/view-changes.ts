// The events of one agent view's change (docs/api.md §GET /events `agent=`): `index` with the names added, removed and
// changed in that view, then one `collision` per collision that appeared, changed or went away.

import type { AgentSkill, AgentView } from '../discovery/agents/types.js';
import { sameJson } from '../discovery/same-json.js';
import { diffCollisions } from './diff-snapshots.js';
import type { PendingEvent } from './event-log.js';

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
