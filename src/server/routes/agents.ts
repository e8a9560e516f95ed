// `GET /agents` and `GET /catalog` (docs/api.md "Agent views"), and the `agent=` branch of `GET /skills`: served from
// the workspace's agent views, each answer serialised once per state, with ETag and 304 like `/skills`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type AgentSkillsQuery,
  agentCatalogAnswer,
  agentMatrixAnswer,
  agentSkillsAnswer,
  agentSkillsId,
} from '../../answers/agent-answers.js';
import { parseViewId } from '../../discovery/agents/agents.js';
import type { AgentAnswer } from '../../live-index/agent-views-state.js';
import { bodyEncoding, encodedBody } from '../encoded-body.js';
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
      const answer = await agentMatrixAnswer(state);
      return sendAnswer(request, reply, answer);
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
      const { cwd, agent, contextWindow, model } = request.query;
      const id = parseViewId(agent);
      const state = await agentState(app, cwd);
      const answer = agentCatalogAnswer(state, id, contextWindow, model);
      return sendAnswer(request, reply, answer);
    },
  );
};

/** The views for the matrix and the catalogs, which read no diagnostics: not waiting for the doctor's findings. */
async function agentState(app: FastifyInstance, cwd: string | undefined) {
  return (await app.agentViewsOf(cwd, false)).agents;
}

/** `GET /skills?agent=<id>`: the agent's loaded skills with the filters of `/skills` (docs/api.md "Agent views"). */
export async function sendAgentSkills(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  query: { cwd?: string } & AgentSkillsQuery,
): Promise<void> {
  const id = agentSkillsId(query);
  const { snapshot, agents: state } = await app.agentViewsOf(query.cwd);
  const answer = agentSkillsAnswer(snapshot, state, id, query);
  await sendAnswer(request, reply, answer);
}

/**
 * A kept answer, 304 when the client's copy is current; compressed once per state and encoding for a client that
 * accepts it (encoded-body.ts), which the compression plugin then leaves as it is.
 */
async function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: AgentAnswer): Promise<FastifyReply> {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache');
  if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = bodyEncoding(answer.bytes, request.headers['accept-encoding']);
  if (encoding === undefined) return reply.send(answer.body);
  const encoded = await encodedBody(answer, answer.body, encoding);
  return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(encoded);
}
