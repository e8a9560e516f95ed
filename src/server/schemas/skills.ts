// `GET /skills`, `GET /skills/{name}`, `GET /collisions` (docs/api.md §Endpoints).

import { Type } from 'typebox';
import { CwdProperty } from './common.js';
import {
  CollisionSchema,
  ShadowedCandidateSchema,
  SkillDiagnosticSchema,
  SkillSchema,
  SkillWarningSchema,
} from './skill.js';

export const SkillsQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  hidden: Type.Optional(Type.Boolean({ description: '`false` leaves hidden skills out' })),
  provider: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Keep one provider (`claude`) or one source (`claude:project`) of the profile; another value is 400 `BadRequest`',
    }),
  ),
  level: Type.Optional(Type.Enum(['user', 'project'])),
  q: Type.Optional(Type.String({ description: 'Keep skills whose name or description contains this, any case' })),
  agent: Type.Optional(
    Type.String({
      description: 'The view of one agent (claude-code, codex, …, musepi, omp, xcsh) instead of the default',
    }),
  ),
});

export const SkillsResponse = Type.Object(
  {
    generation: Type.Integer({ description: 'Moves exactly when this answer (unfiltered) changes; filters keep it' }),
    profile: Type.Enum(['musepi', 'omp', 'xcsh']),
    cwd: Type.String(),
    skills: Type.Array(SkillSchema, {
      description: 'Loaded skills in discovery order (docs/discovery.md), filtered by the query',
    }),
    warnings: Type.Array(SkillWarningSchema),
    collisions: Type.Array(CollisionSchema, { description: 'The collisions of the names in `skills`' }),
    diagnostics: Type.Array(SkillDiagnosticSchema, { description: 'Daemon-only, in scan order; not filtered' }),
  },
  { title: 'SkillIndex' },
);

export const SkillNameParams = Type.Object({ name: Type.String({ description: 'Exact, case-sensitive skill name' }) });

export const SkillDetailResponse = Type.Object(
  {
    ...SkillSchema.properties,
    shadowed: Type.Array(ShadowedCandidateSchema, { description: 'The candidates of this name that lost' }),
  },
  { title: 'SkillDetail' },
);

export const CollisionsResponse = Type.Object(
  {
    generation: Type.Integer(),
    collisions: Type.Array(CollisionSchema),
  },
  { title: 'CollisionList' },
);
