// `GET /skills/{name}`: one loaded skill and the candidates of its name that lost (docs/api.md §Endpoints).

import type { SkillsdError } from '../discovery/errors.js';
import { unknownSkillError } from '../discovery/unknown-skill.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';

/** The skill and its shadowed candidates, in the order of the answer's schema; `SkillNotFound` when not loaded. */
export function skillDetail(snapshot: WorkspaceSnapshot, name: string) {
  const skill = snapshot.skill(name);
  if (skill === undefined) throw unknownSkill(snapshot, name);
  return { ...skill, shadowed: snapshot.collision(skill.name)?.shadowed ?? [] };
}

/** The message of docs/discovery.md §6: the closest names and the count of skills. */
export function unknownSkill(snapshot: WorkspaceSnapshot, name: string): SkillsdError {
  return unknownSkillError(
    name,
    snapshot.skills.map((skill) => skill.name),
  );
}
