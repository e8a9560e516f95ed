// The content hash of one view's answer: its stream's event ids derive from it (event-log.ts). Computed for every
// view that changed, on every update: the skills of a view are thousands of records, most of them the very objects
// the last computation had (kept and patched runs, docs/agents.md "Live"), so each record's JSON is made once and the
// list's is joined from them: the same bytes as `JSON.stringify` of the whole list, hence the same hash.

import { createHash } from 'node:crypto';
import type { AgentSkill, AgentView } from '../discovery/agents/types.js';

export function viewHash(view: AgentView): string {
  const hash = createHash('sha256');
  hash.update(view.agent.id);
  hash.update(skillsJson(view.skills));
  hash.update(JSON.stringify(view.collisions));
  hash.update(JSON.stringify(view.warnings));
  hash.update(JSON.stringify(view.diagnostics));
  return hash.digest('hex');
}

/**
 * Each record's JSON, with the `candidates` it was made with: the one field a view assigns to a record it already
 * holds (OpenCode's `afterLoad`, run again on a patched run), always as a new list.
 */
const recordJson = new WeakMap<AgentSkill, { json: string; candidates: readonly string[] | undefined }>();

/** `JSON.stringify(skills)`, from each record's kept JSON. */
export function skillsJson(skills: readonly AgentSkill[]): string {
  const parts = new Array<string>(skills.length);
  for (let i = 0; i < skills.length; i++) {
    const skill = skills[i] as AgentSkill;
    let known = recordJson.get(skill);
    if (known === undefined || known.candidates !== skill.candidates) {
      known = { json: JSON.stringify(skill), candidates: skill.candidates };
      recordJson.set(skill, known);
    }
    parts[i] = known.json;
  }
  return `[${parts.join(',')}]`;
}
