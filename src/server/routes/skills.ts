// `GET /skills` and `GET /skills/{name}` (docs/api.md). The unfiltered list is served from the snapshot's
// pre-serialised body: a poll costs a lookup and, with `If-None-Match`, not even a body.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { agentSkillsId } from '../../answers/agent-answers.js';
import { checkAgentProvider, checkProviderFilter } from '../../answers/provider-filter.js';
import { skillDetail } from '../../answers/skill-detail.js';
import type { SkillsFilter, WorkspaceSnapshot } from '../../live-index/snapshot.js';
import { AgentSkillsResponse } from '../schemas/agents.js';
import {
  ConditionalHeaders,
  CwdQuery,
  ETAG_HEADER,
  errorResponses,
  NotModified,
  withHeaders,
} from '../schemas/common.js';
import { SkillDetailResponse, SkillNameParams, SkillsQuery, SkillsResponse } from '../schemas/skills.js';
import {
  encodedSkillsList,
  SKILLS_CACHE_CONTROL,
  SKILLS_CONTENT_TYPE,
  skillsListAnswer,
  skillsListEncoding,
} from '../skills-list-answer.js';
import { sendAgentSkills } from './agents.js';

export const skillsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/skills',
    {
      schema: {
        operationId: 'listSkills',
        summary: 'The loaded skills, warnings, collisions and diagnostics',
        description:
          'Filters keep the skills that pass them and the collisions of those skills’ names; they never change ' +
          '`generation`. An unknown `provider=` is 400 `BadRequest` naming the allowed values. `ETag` on every ' +
          'answer; `If-None-Match` with the current tag answers 304. From 1 KiB on, the answer is gzip or br for a ' +
          'client that accepts one. With `agent=`, the view of that agent (docs/api.md "Agent views"): `provider=` ' +
          'filters the profiles’ views only.',
        querystring: SkillsQuery,
        headers: ConditionalHeaders,
        response: {
          200: withHeaders(Type.Union([SkillsResponse, AgentSkillsResponse]), { ETag: ETAG_HEADER }),
          304: NotModified,
          ...errorResponses(),
        },
      },
    },
    (request, reply) => {
      const { cwd, agent, ...filter } = request.query;
      if (agent !== undefined) {
        // An unknown agent, or provider= with another agent, is refused as agentSkillsId refuses it.
        checkAgentProvider(
          agentSkillsId({ agent, ...(filter.provider === undefined ? {} : { provider: filter.provider }) }),
          filter.provider,
        );
        return sendAgentSkills(app, request, reply, { ...request.query, agent });
      }
      // The default workspace, indexed: answered in this turn of the event loop, with no promise (the polling path).
      const ready = app.readyDefaultView(cwd);
      if (ready !== undefined) return sendSkills(request, reply, ready.snapshot, filter);
      return app.workspaceView(cwd).then(({ snapshot }) => sendSkills(request, reply, snapshot, filter));
    },
  );

  app.get(
    '/skills/:name',
    {
      schema: {
        operationId: 'getSkill',
        summary: 'One loaded skill and the candidates of its name that lost',
        params: SkillNameParams,
        querystring: CwdQuery,
        response: { 200: SkillDetailResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { snapshot } = await app.workspaceView(request.query.cwd);
      return skillDetail(snapshot, request.params.name);
    },
  );
};

function sendSkills(
  request: FastifyRequest,
  reply: FastifyReply,
  snapshot: WorkspaceSnapshot,
  filter: SkillsFilter,
): Promise<void> | undefined {
  if (filter.provider !== undefined) checkProviderFilter(filter.provider, snapshot.profile);
  const answer = skillsListAnswer(snapshot, filter, request.headers['if-none-match']);
  reply.header('etag', answer.etag).header('cache-control', SKILLS_CACHE_CONTROL);
  // No payload at all: a serialised `null` would announce a Content-Length that a 304 never carries.
  if (answer.notModified) {
    reply.code(304).send();
    return;
  }
  reply.type(SKILLS_CONTENT_TYPE);
  const encoding = skillsListEncoding(answer, request.headers['accept-encoding']);
  // Pre-encoded JSON: Fastify writes a Buffer as it is (no serialiser), with its byte length as Content-Length.
  if (encoding === undefined) {
    reply.send(answer.body);
    return;
  }
  // Compressed once per answer (skills-list-answer.ts); the compression plugin leaves an encoded answer as it is.
  return encodedSkillsList(answer, encoding).then((encoded) => {
    reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(encoded);
  });
}
