// `GET /agents`, `GET /catalog` and `GET /skills?agent=` (docs/api.md "Agent views"): each answer serialised once per
// state of the agent views, whoever asks.

import { isProfile, parseViewId } from '../discovery/agents/agents.js';
import { type AgentSkillsFilter, agentCatalog, agentMatrix, agentSkills } from '../discovery/agents/answers.js';
import type { ViewId } from '../discovery/agents/types.js';
import { SkillsdError } from '../discovery/errors.js';
import { holdBackground } from '../discovery/time-slices.js';
import type { AgentAnswer, AgentViewsState } from '../live-index/agent-views-state.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';

export interface AgentSkillsQuery extends AgentSkillsFilter {
  agent: string;
  provider?: string;
}

/**
 * The JSON of each matrix row, kept with the row: a matrix made after an edit takes most rows of the one before
 * (matrix-rows.ts), and its answer writes only the new ones.
 */
const ROW_TEXTS = new WeakMap<object, string>();

export async function agentMatrixAnswer(state: AgentViewsState): Promise<AgentAnswer> {
  // A request waits for the matrix and its JSON, as for the first views: the search index built ahead gives way
  // (time-slices.ts holdBackground).
  const release = holdBackground();
  try {
    const matrix = await state.views.matrix();
    return await state.answerInSlices(
      'agents',
      () => ({ generation: state.generation, ...agentMatrix(state.views, matrix) }),
      ROW_TEXTS,
    );
  } finally {
    release();
  }
}

export function agentCatalogAnswer(
  state: AgentViewsState,
  id: ViewId,
  contextWindow: number | undefined,
  model?: string,
) {
  return state.catalogAnswer(`${id} ${contextWindow ?? ''} ${model ?? ''}`, () =>
    agentCatalog(state.views, id, contextWindow, model),
  );
}

/** The agent id, checked before any workspace is opened: an unknown id is refused as it is. */
export function agentSkillsId(query: AgentSkillsQuery): ViewId {
  const id = parseViewId(query.agent);
  if (query.provider !== undefined && !isProfile(id)) {
    throw new SkillsdError(
      'BadRequest',
      `provider= filters the profiles' views only; it cannot be combined with agent=${id}`,
    );
  }
  return id;
}

/** The agent's loaded skills with the filters of `/skills`. */
export function agentSkillsAnswer(
  snapshot: WorkspaceSnapshot,
  state: AgentViewsState,
  id: ViewId,
  query: AgentSkillsQuery,
): AgentAnswer {
  const filter = canonicalFilter(query);
  return state.answer(`skills ${id} ${JSON.stringify(filter)}`, () => ({
    generation: state.generation,
    profile: snapshot.profile,
    cwd: snapshot.cwd,
    ...agentSkills(state.views, id, filter),
  }));
}

/**
 * The filter as `agentSkills` applies it, each way of writing the same filter written one way, so that they share
 * one kept answer (SECURITY.md "The views"): `q=` is compared lowercased (`PDF` and `pdf` are one query; ` pdf `, which
 * needs the spaces, is another), an empty `q=` keeps every skill as no `q=` does, and `hidden=true` is the default.
 */
function canonicalFilter(query: AgentSkillsQuery): AgentSkillsFilter {
  const q = query.q?.toLowerCase();
  return {
    ...(query.provider === undefined ? {} : { provider: query.provider }),
    ...(query.hidden === false ? { hidden: false } : {}),
    ...(query.level === undefined ? {} : { level: query.level }),
    ...(q === undefined || q === '' ? {} : { q }),
  };
}
