// The answers built from the views (docs/api.md "Agent views"): one agent's skills, its catalog, the matrix, and
// the per-agent lines of the doctor.

import { compareSkills } from '../pipeline/sort-skills.js';
import { agentSpec, isProfile, VIEW_IDS } from './agents.js';
import type { AgentMatrix, AgentViews, MatrixCell, MatrixRow } from './compute-views.js';
import { profileCatalog } from './profiles.js';
import type { AgentInfo, AgentSkill, AgentView, CatalogAnswer, ViewId } from './types.js';

export interface AgentSkillsFilter {
  /** Profiles only: one provider (`claude`) or one source (`claude:project`), as on the default view. */
  provider?: string;
  hidden?: boolean;
  level?: 'user' | 'project';
  q?: string;
}

export function publicInfo(info: AgentInfo): Omit<AgentInfo, 'confidence'> & { confidence: AgentInfo['confidence'] } {
  return { id: info.id, name: info.name, describes: info.describes, confidence: info.confidence };
}

function servedSkill(skill: AgentSkill) {
  return {
    name: skill.name,
    description: skill.description,
    filePath: skill.filePath,
    baseDir: skill.baseDir,
    hide: skill.hide,
    source: skill.source,
    ...(skill.kind === undefined ? {} : { kind: skill.kind }),
    ...(skill.candidates === undefined ? {} : { candidates: skill.candidates }),
  };
}

/**
 * One agent's loaded skills under the filters of `/skills`, and the collisions whose name is that of a kept skill:
 * the rule of the default view (docs/api.md "GET /skills"). Warnings and diagnostics stay whole.
 */
export function agentSkills(views: AgentViews, id: ViewId, filter: AgentSkillsFilter = {}) {
  const view = views.views.get(id) as AgentView;
  const q = filter.q?.toLowerCase();
  const kept = view.skills
    .filter((skill) => filter.hidden !== false || !skill.hide)
    .filter((skill) => filter.level === undefined || skill.source.scope === filter.level)
    .filter((skill) => filter.provider === undefined || providerMatches(skill, filter.provider))
    .filter(
      (skill) => q === undefined || skill.name.toLowerCase().includes(q) || skill.description.toLowerCase().includes(q),
    );
  const unfiltered = kept.length === view.skills.length;
  const keptNames = unfiltered ? undefined : new Set(kept.map((skill) => skill.name));
  return {
    agent: publicInfo(view.agent),
    skills: kept.sort(compareSkills).map(servedSkill),
    warnings: view.warnings,
    collisions:
      keptNames === undefined ? view.collisions : view.collisions.filter((collision) => keptNames.has(collision.name)),
    diagnostics: view.diagnostics,
  };
}

/**
 * One agent's catalog. `model` is echoed as the model assumed: the one asked for, else the agent's default, else
 * null where the agent's catalog does not depend on a model (docs/api.md "Agent views").
 */
export function agentCatalog(views: AgentViews, id: ViewId, contextWindow: number | undefined, model?: string) {
  const view = views.views.get(id) as AgentView;
  if (isProfile(id)) return { agent: publicInfo(view.agent), model: model ?? null, ...profileCatalog(id, view) };
  const spec = agentSpec(id);
  const assumed = model ?? spec.defaultModel;
  const answer: CatalogAnswer = spec.catalog(view.skills, contextWindow, view.rootOrder, assumed);
  return { agent: publicInfo(view.agent), model: assumed ?? null, ...answer };
}

export function agentMatrix(views: AgentViews, matrix: AgentMatrix) {
  return {
    agents: VIEW_IDS.map((id) => publicInfo((views.views.get(id) as AgentView).agent)),
    skills: matrix.rows,
  };
}

const PREFERENCE = ['loaded', 'shadowed', 'invalid', 'unseen'] as const;

/**
 * Per agent, the best status a candidate of `name` has there; undefined when no candidate has that name. The files
 * the agent itself calls `name` answer for it first, as its own view does (`GET /skills?agent=`): Claude Code names a
 * skill by its folder, so `pdf-2/SKILL.md` declaring `name: pdf` is its `pdf-2`, not its `pdf`. Only when the agent
 * calls no file `name` does the best of any file of that name answer, saying under which name it loads.
 */
export function doctorAgents(matrix: AgentMatrix, name: string): Record<ViewId, MatrixCell> | undefined {
  const rows = matrix.rows.filter((row) => matrix.rowNames.get(row)?.has(name) === true);
  if (rows.length === 0) return undefined;
  const out = {} as Record<ViewId, MatrixCell>;
  for (const id of VIEW_IDS) {
    const own = rows.filter((row) => matrix.viewNames.get(row)?.get(id) === name);
    let best: MatrixRow | undefined;
    for (const row of own.length > 0 ? own : rows) {
      const status = row.views[id].status;
      if (best === undefined || PREFERENCE.indexOf(status) < PREFERENCE.indexOf(best.views[id].status)) best = row;
    }
    const cell = (best as MatrixRow).views[id];
    const called = matrix.viewNames.get(best as MatrixRow)?.get(id);
    out[id] =
      cell.status === 'loaded' && cell.reason === undefined && called !== undefined && called !== name
        ? { ...cell, reason: `loaded as ${called}` }
        : cell;
  }
  return out;
}

function providerMatches(skill: AgentSkill, provider: string): boolean {
  const source = skill.source as AgentSkill['source'] & { provider?: string; id?: string };
  return source.provider === provider || source.id === provider;
}
