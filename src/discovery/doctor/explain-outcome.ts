// What happened to one candidate in the pipeline of docs/discovery.md §5, in words: loaded, shadowed by which candidate, or
// filtered by which toggle, glob or list. The winners and losers are the discovery's own (its collisions); this file
// only names the cause.

import { dirname } from 'node:path';
import { MANAGED_NAME } from '../frontmatter/sanitize-description.js';
import { indexOfName } from '../pipeline/pipeline-memo.js';
import { fallbackGate, isSourceEnabled } from '../pipeline/providers.js';
import { compileGlobs, createSkillFilters } from '../pipeline/skill-filters.js';
import type { Collision, CollisionReason, Settings, Skill, SkillSource } from '../types.js';
import type { CandidateOutcome, Finding } from './types.js';

export interface Outcome {
  outcome: CandidateOutcome;
  reason: string;
  /** The outcome as a finding (info), for the workspace report; none for a loaded skill. */
  finding?: Finding;
}

export interface PipelineView {
  settings: Settings;
  /**
   * The loaded skills, sorted by name as discovery answers them (docs/discovery.md §1): looked up by binary search, so
   * that explaining one directory again after an edit does not index every loaded skill by name.
   */
  winners: readonly Skill[];
  /** Every loser of every collision, keyed by `<source id>\0<filePath>`. */
  losses: ReadonlyMap<string, { reason: CollisionReason; winner: Collision['winner'] }>;
}

export function pipelineView(
  settings: Settings,
  skills: readonly Skill[],
  collisions: readonly Collision[],
): PipelineView {
  const losses = new Map<string, { reason: CollisionReason; winner: Collision['winner'] }>();
  for (const collision of collisions) {
    for (const lost of collision.shadowed) {
      losses.set(candidateKey(lost.source.id, lost.filePath), { reason: lost.reason, winner: collision.winner });
    }
  }
  return { settings, winners: skills, losses };
}

/**
 * Why the winner came first (docs/discovery.md §4, §5): another provider of higher priority, or within one provider
 * its order of levels (Claude Code reads its user-level skills before its project-level ones; MusePi the other way
 * round), or an earlier directory of the same level (the nearer project directory).
 */
function precedenceCause(winner: SkillSource, loser: SkillSource): string {
  if (winner.provider !== loser.provider) {
    return `${winner.providerName} comes before ${loser.providerName} in priority order`;
  }
  if (winner.level !== loser.level) {
    return `${winner.providerName} reads its ${winner.level}-level skills before its ${loser.level}-level ones`;
  }
  // One directory's skills of a name are ordered by path (docs/discovery.md §1): `pdf-2/SKILL.md` comes before
  // `pdf/SKILL.md`.
  if (dirname(dirname(winner.path)) === dirname(dirname(loser.path))) {
    return `both are in the same ${winner.providerName} directory, where the path that sorts first wins`;
  }
  return `${winner.providerName} found it first, in an earlier ${winner.level}-level directory`;
}

export function candidateKey(sourceId: string, filePath: string): string {
  return `${sourceId}\0${filePath}`;
}

export function explainOutcome(skill: Skill, view: PipelineView, managed: boolean): Outcome {
  const { settings } = view;
  const path = skill.filePath;
  if (settings.disabledProviders.includes(skill.source.provider)) {
    return filtered(path, 'provider-disabled', `provider ${skill.source.provider} is listed in disabledProviders`);
  }
  const at = indexOfName(view.winners, skill.name);
  const winner = at >= 0 ? view.winners[at] : undefined;
  if (winner !== undefined && winner.filePath === path && winner.source.id === skill.source.id) {
    return { outcome: 'loaded', reason: 'loaded: the first enabled candidate of this name in priority order' };
  }
  const loss = view.losses.get(candidateKey(skill.source.id, path));
  const by = loss === undefined ? '' : `${loss.winner.filePath} (${loss.winner.source.id})`;
  switch (loss?.reason) {
    case 'precedence':
      return shadowed(path, 'shadowed', `shadowed by ${by}: ${precedenceCause(loss.winner.source, skill.source)}`);
    case 'custom-override':
      return shadowed(path, 'custom-override', `replaced by ${by} from a custom directory`);
    case 'duplicate-file':
      return shadowed(path, 'duplicate-file', `the same file (by realpath) as ${by}, which is loaded: dropped`);
    case 'custom-collision':
      return shadowed(path, 'custom-collision', `an earlier custom directory already loaded ${by} under this name`);
    default:
      break;
  }
  const cause = filterCause(skill, settings, managed);
  if (cause !== undefined) return filtered(path, cause.rule, cause.reason);
  return {
    outcome: 'skipped',
    reason: 'not loaded',
    finding: { rule: 'not-loaded', severity: 'info', path, message: 'not loaded' },
  };
}

/** Which setting removed the candidate (docs/discovery.md §5 steps 1, 2, 4, 5). */
function filterCause(skill: Skill, settings: Settings, managed: boolean): { rule: string; reason: string } | undefined {
  const { name } = skill;
  const filters = createSkillFilters(settings);
  if (filters.isDisabled(name)) {
    return { rule: 'disabled-extension', reason: `"skill:${name}" is listed in disabledExtensions` };
  }
  const { provider, level } = skill.source;
  if (!isSourceEnabled(settings.profile, provider, level, settings.skills)) {
    return {
      rule: 'source-disabled',
      reason: `${skill.source.id} is switched off: ${toggleText(settings, provider, level)}`,
    };
  }
  const ignoredBy = settings.skills.ignoredSkills.find((glob) => compileGlobs([glob])(name));
  if (ignoredBy !== undefined)
    return { rule: 'ignored-skill', reason: `matches ignoredSkills ${JSON.stringify(ignoredBy)}` };
  if (!filters.isIncluded(name)) {
    return {
      rule: 'not-included',
      reason: `matches none of includeSkills ${JSON.stringify(settings.skills.includeSkills)}`,
    };
  }
  if (managed && !MANAGED_NAME.test(name)) {
    return { rule: 'managed-name-refused', reason: `managed skill names must match ${MANAGED_NAME.source}` };
  }
  return undefined;
}

function toggleText(settings: Settings, provider: string, level: string): string {
  const project = level === 'project';
  const toggle =
    provider === 'native'
      ? project
        ? 'enablePiProject'
        : 'enablePiUser'
      : provider === 'claude'
        ? project
          ? 'enableClaudeProject'
          : 'enableClaudeUser'
        : provider === 'agents' && settings.profile !== 'xcsh'
          ? project
            ? 'enableAgentsProject'
            : 'enableAgentsUser'
          : provider === 'codex' && !project
            ? 'enableCodexUser'
            : undefined;
  if (toggle !== undefined) return `skills.${toggle} is false`;
  return fallbackGate(settings.skills)
    ? 'its toggle is off'
    : 'enableCodexUser, enableClaudeUser, enableClaudeProject, enablePiUser and enablePiProject are all false';
}

function filtered(path: string, rule: string, reason: string): Outcome {
  return { outcome: 'filtered', reason, finding: { rule, severity: 'info', path, message: `filtered: ${reason}` } };
}

function shadowed(path: string, rule: string, reason: string): Outcome {
  return { outcome: 'shadowed', reason, finding: { rule, severity: 'info', path, message: reason } };
}
