// `GET /agents` and `GET /catalog` (docs/api.md "Agent views"), and the `agent=` branch of `GET /skills`: served from
// the workspace's agent views, each answer serialised once per state, with ETag and 304 like `/skills`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isProfile, parseViewId } from '../../discovery/agents/agents.js';
import { type AgentSkillsFilter, agentCatalog, agentMatrix, agentSkills } from '../../discovery/agents/answers.js';
import { SkillsdError } from '../../discovery/errors.js';
import type { AgentAnswer } from '../../index/agent-views-state.js';
import { AgentCatalogResponse, AgentMatrixResponse, CatalogQuery } from '../schemas/agents.js';
import {
  ConditionalHeaders,
  CwdQuery,
  ETAG_HEADER,
  errorResponses,
  NotModified,
  withHeaders,
} from '../schemas/common.js';
import { matchesIfNoneMatch } from './conditional.js';

export const agentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/agents',
    {
      schema: {
        operationId: 'listAgentViews',
        summary: 'Every candidate SKILL.md × every agent: loaded, shadowed, invalid or unseen, and why',
        querystring: CwdQuery,
        headers: ConditionalHeaders,
        response: {
          200: withHeaders(AgentMatrixResponse, { ETag: ETAG_HEADER }),
          304: NotModified,
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const state = await agentState(app, request.query.cwd);
      const answer = state.answer('agents', () => ({ generation: state.generation, ...agentMatrix(state.views) }));
      sendAnswer(reply, answer, request.headers['if-none-match']);
    },
  );

  app.get(
    '/catalog',
    {
      schema: {
        operationId: 'getAgentCatalog',
        summary: 'One agent’s skill catalog and what its budget keeps, cuts or drops',
        querystring: CatalogQuery,
        headers: ConditionalHeaders,
        response: {
          200: withHeaders(AgentCatalogResponse, { ETag: ETAG_HEADER }),
          304: NotModified,
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { cwd, agent, contextWindow } = request.query;
      const id = parseViewId(agent);
      const state = await agentState(app, cwd);
      const answer = state.answer(`catalog ${id} ${contextWindow ?? ''}`, () =>
        agentCatalog(state.views, id, contextWindow),
      );
      sendAnswer(reply, answer, request.headers['if-none-match']);
    },
  );
};

async function agentState(app: FastifyInstance, cwd: string | undefined) {
  return (await app.agentViewsOf(cwd)).agents;
}

/** `GET /skills?agent=<id>`: the agent's loaded skills with the filters of `/skills` (docs/api.md "Agent views"). */
export async function sendAgentSkills(
  app: FastifyInstance,
  reply: FastifyReply,
  query: { cwd?: string; agent: string; provider?: string } & AgentSkillsFilter,
  ifNoneMatch: string | undefined,
): Promise<void> {
  const id = parseViewId(query.agent);
  if (query.provider !== undefined && !isProfile(id)) {
    throw new SkillsdError(
      'BadRequest',
      `provider= filters the profiles' views only; it cannot be combined with agent=${id}`,
    );
  }
  const { snapshot, agents: state } = await app.agentViewsOf(query.cwd);
  const filter: AgentSkillsFilter = {
    ...(query.provider === undefined ? {} : { provider: query.provider }),
    ...(query.hidden === undefined ? {} : { hidden: query.hidden }),
    ...(query.level === undefined ? {} : { level: query.level }),
    ...(query.q === undefined ? {} : { q: query.q }),
  };
  const answer = state.answer(`skills ${id} ${JSON.stringify(filter)}`, () => ({
    generation: state.generation,
    profile: snapshot.profile,
    cwd: snapshot.cwd,
    ...agentSkills(state.views, id, filter),
  }));
  sendAnswer(reply, answer, ifNoneMatch);
}

function sendAnswer(reply: FastifyReply, answer: AgentAnswer, ifNoneMatch: string | undefined): void {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache');
  if (matchesIfNoneMatch(ifNoneMatch, answer.etag)) reply.code(304).send();
  else reply.type('application/json; charset=utf-8').send(answer.body);
}
