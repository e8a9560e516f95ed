// `provider=` of `GET /skills` (docs/api.md "GET /skills"), for every face that answers it: a provider id of the profile whose skills are listed, or
// a source id `<provider>:user|project` of one. Anything else is 400 `BadRequest` naming the allowed values, as an
// unknown `level=` is refused by its schema: an unknown value is never answered with a silent empty list.

import { isProfile } from '../discovery/agents/agents.js';
import type { ViewId } from '../discovery/agents/types.js';
import { SkillsdError } from '../discovery/errors.js';
import { planProviders } from '../discovery/pipeline/providers.js';
import { CUSTOM_PROVIDER } from '../discovery/pipeline/run-provider.js';
import type { Level, Profile } from '../discovery/types.js';
import { profileInfo, type WorkspaceContext } from '../discovery/workspace-context.js';
import { capEcho } from './echo.js';

const LEVELS: readonly Level[] = ['user', 'project'];
const providerIdsByProfile = new Map<Profile, readonly string[]>();

/** The provider ids a skill of `profile` can come from: its providers by priority (docs/discovery.md §4), then `custom`. */
export function profileProviderIds(profile: Profile): readonly string[] {
  let ids = providerIdsByProfile.get(profile);
  if (ids === undefined) {
    // Which rows a profile has does not depend on the workspace: any context of the profile names them (the
    // directories placed for this one are not used).
    const context: WorkspaceContext = {
      profile: profileInfo(profile),
      home: '/',
      cwd: '/',
      agentDir: '/',
      repoRoot: null,
      stop: '/',
      walk: [],
      env: {},
    };
    ids = [...planProviders(context).map((plan) => plan.id), CUSTOM_PROVIDER];
    providerIdsByProfile.set(profile, ids);
  }
  return ids;
}

/** Throws 400 `BadRequest` unless `provider` is a provider id of `profile` or one of its source ids. */
export function checkProviderFilter(provider: string, profile: Profile): void {
  const ids = profileProviderIds(profile);
  const colon = provider.indexOf(':');
  const id = colon === -1 ? provider : provider.slice(0, colon);
  const level = colon === -1 ? undefined : provider.slice(colon + 1);
  if (ids.includes(id) && (level === undefined || (LEVELS as readonly string[]).includes(level))) return;
  throw new SkillsdError(
    'BadRequest',
    `Unknown provider: ${capEcho(provider)}. Providers of profile ${profile}: ${ids.join(', ')}; ` +
      'or a source id <provider>:user or <provider>:project',
  );
}

/**
 * With `agent=<profile>`, `provider=` names a provider of that profile (the view's skills are its discovery's); with
 * another agent, `agentSkillsId` refuses it (agent-answers.ts).
 */
export function checkAgentProvider(id: ViewId, provider: string | undefined): void {
  if (provider !== undefined && isProfile(id)) checkProviderFilter(provider, id);
}
