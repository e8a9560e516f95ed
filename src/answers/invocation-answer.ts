// `POST /invocations`: what the user typed, as the `/skill:<name>` message of docs/discovery.md §7.

import { invokeSkill } from '../discovery/skill-invocation.js';
import type { SkillLocations } from '../discovery/skill-locations.js';
import type { Settings, Skill } from '../discovery/types.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';

export function invocationAnswer(
  text: string,
  snapshot: WorkspaceSnapshot,
  settingsInForce: Settings,
  locations: SkillLocations,
) {
  // The skill list and the profile are the snapshot's; the command switch is the settings in force.
  const settings = { ...settingsInForce, profile: snapshot.profile };
  return invokeSkill(text, snapshot.skills as Skill[], settings, {
    knownRealPath: (filePath) => snapshot.knownRealPath(filePath),
    locations,
  });
}
