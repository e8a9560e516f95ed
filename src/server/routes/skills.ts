// `GET /skills` and `GET /skills/{name}` (API.md). The unfiltered list is served from the snapshot's
// pre-serialised body: a poll costs a lookup and, with `If-None-Match`, not even a body.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SkillsdError } from '../../discovery/errors.js';
import type { WorkspaceSnapshot } from '../../index/snapshot.js';
import { CwdQuery, errorResponses } from '../schemas/common.js';
import { SkillDetailResponse, SkillNameParams, SkillsQuery, SkillsResponse } from '../schemas/skills.js';
import { matchesIfNoneMatch } from './conditional.js';

export const skillsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/skills',
    {
      schema: {
        summary: 'The loaded skills, warnings, collisions and diagnostics',
        description:
          'Filters apply to `skills` only and never change `generation`. `ETag` on every answer; `If-None-Match` ' +
          'with the current tag answers 304.',
        querystring: SkillsQuery,
        response: { 200: SkillsResponse, 304: { description: 'Not modified', type: 'null' }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { cwd, ...filter } = request.query;
      const { snapshot } = await app.workspaceView(cwd);
      const answer = snapshot.answer(filter);
      reply.header('etag', answer.etag).header('cache-control', 'no-cache');
      // No payload at all: a serialised `null` would announce a Content-Length that a 304 never carries.
      if (matchesIfNoneMatch(request.headers['if-none-match'], answer.etag))
        return reply.code(304).send(undefined as never);
      // Pre-encoded JSON: Fastify writes a Buffer as it is (no serialiser), with its byte length as Content-Length.
      return reply.type('application/json; charset=utf-8').send(answer.body as never);
    },
  );

  app.get(
    '/skills/:name',
    {
      schema: {
        summary: 'One loaded skill and the candidates of its name that lost',
        params: SkillNameParams,
        querystring: CwdQuery,
        response: { 200: SkillDetailResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { snapshot } = await app.workspaceView(request.query.cwd);
      const skill = snapshot.skill(request.params.name);
      if (skill === undefined) throw unknownSkill(snapshot, request.params.name);
      return { ...skill, shadowed: snapshot.collision(skill.name)?.shadowed ?? [] };
    },
  );
};

/** The reference message of SKILLS.md §6.2. */
export function unknownSkill(snapshot: WorkspaceSnapshot, name: string): SkillsdError {
  const names = snapshot.skills.map((skill) => skill.name);
  return new SkillsdError(
    'SkillNotFound',
    `Unknown skill: ${name}\nAvailable: ${names.length > 0 ? names.join(', ') : 'none'}`,
  );
}
