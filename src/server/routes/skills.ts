// `GET /skills` and `GET /skills/{name}` (docs/api.md). The unfiltered list is served from the snapshot's
// pre-serialised body: a poll costs a lookup and, with `If-None-Match`, not even a body.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
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
import { SKILLS_CACHE_CONTROL, SKILLS_CONTENT_TYPE, skillsListAnswer } from '../skills-list-answer.js';
import { sendAgentSkills } from './agents.js';

export const skillsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/skills',
    {
      schema: {
        operationId: 'listSkills',
        summary: 'The loaded skills, warnings, collisions and diagnostics',
        description:
          'Filters apply to `skills` only and never change `generation`. `ETag` on every answer; `If-None-Match` ' +
          'with the current tag answers 304. With `agent=`, the view of that agent (docs/api.md "Agent views"): ' +
          '`provider=` cannot be combined with it.',
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
        return sendAgentSkills(app, reply, { ...request.query, agent }, request.headers['if-none-match']);
      }
      // The default workspace, indexed: answered in this turn of the event loop, with no promise (the polling path).
      const ready = app.readyDefaultView(cwd);
      if (ready !== undefined) {
        sendSkills(reply, ready.snapshot, filter, request.headers['if-none-match']);
        return;
      }
      return app
        .workspaceView(cwd)
        .then(({ snapshot }) => sendSkills(reply, snapshot, filter, request.headers['if-none-match']));
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
  reply: FastifyReply,
  snapshot: WorkspaceSnapshot,
  filter: SkillsFilter,
  ifNoneMatch: string | undefined,
): void {
  const answer = skillsListAnswer(snapshot, filter, ifNoneMatch);
  reply.header('etag', answer.etag).header('cache-control', SKILLS_CACHE_CONTROL);
  // No payload at all: a serialised `null` would announce a Content-Length that a 304 never carries.
  if (answer.notModified) reply.code(304).send();
  // Pre-encoded JSON: Fastify writes a Buffer as it is (no serialiser), with its byte length as Content-Length.
  else reply.type(SKILLS_CONTENT_TYPE).send(answer.body);
}
