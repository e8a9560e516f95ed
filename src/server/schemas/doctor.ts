// `GET /doctor` and `GET /doctor/{name}` (docs/api.md §GET /doctor).

import { Type } from 'typebox';
import { AgentCellSchema } from './agents.js';
import { CwdProperty } from './common.js';
import { CollisionSchema, SkillSchema, SkillSourceSchema, SkillWarningSchema } from './skill.js';

export const FindingSchema = Type.Object(
  {
    rule: Type.String({ description: 'Stable rule id, e.g. `wrong-case-skill-md`, `spec-name-folder`' }),
    severity: Type.Enum(['error', 'warning', 'info']),
    path: Type.String({ description: 'The file or directory concerned' }),
    line: Type.Optional(Type.Integer({ description: '1-based line in `path`' })),
    message: Type.String(),
    hint: Type.Optional(Type.String({ description: 'What to do about it' })),
  },
  {
    title: 'Finding',
    description:
      '`error`: something that looks like a skill did not load; `warning`: it loaded but probably not as meant, or ' +
      'against the Agent Skills specification (advice: never changes what loads); `info`: a toggle, a filter or a ' +
      'candidate that lost',
  },
);

export const DoctorQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  severity: Type.Optional(
    Type.Enum(['error', 'warning', 'info'], {
      description: 'Keep findings of this severity or worse (error > warning > info); absent: all',
    }),
  ),
});

export const RuleCountSchema = Type.Object(
  {
    rule: Type.String(),
    severity: Type.Enum(['error', 'warning', 'info']),
    count: Type.Integer({ minimum: 1 }),
  },
  { title: 'RuleCount' },
);

export const DoctorResponse = Type.Object(
  {
    generation: Type.Integer(),
    cwd: Type.String(),
    profile: Type.Enum(['musepi', 'omp', 'xcsh']),
    directories: Type.Array(
      Type.Object({
        path: Type.String(),
        provider: Type.String(),
        level: Type.Enum(['user', 'project']),
        exists: Type.Boolean(),
        readable: Type.Boolean(),
        skills: Type.Integer({ description: 'Skills its scan found, before precedence and filters' }),
      }),
      { description: 'Every skills directory discovery looks at, in pipeline order, present or not' },
    ),
    summary: Type.Array(RuleCountSchema, {
      description:
        'How many of `findings` each rule has: errors, then warnings, then info, then the most frequent, then by rule',
    }),
    findings: Type.Array(FindingSchema, {
      description: 'Errors, then warnings, then info, each in the order found; of `severity` or worse when asked',
    }),
    warnings: Type.Array(SkillWarningSchema),
    collisions: Type.Array(CollisionSchema),
    watch: Type.Object(
      { mode: Type.Enum(['events', 'polling', 'off']) },
      { additionalProperties: true, description: 'How the workspace watcher sees changes' },
    ),
  },
  { title: 'DoctorReport' },
);

export const DoctorNameParams = Type.Object({ name: Type.String({ description: 'Exact, case-sensitive skill name' }) });

export const SkillDoctorResponse = Type.Object(
  {
    name: Type.String(),
    winner: Type.Union([SkillSchema, Type.Null()], { description: 'The loaded skill of that name, or null' }),
    candidates: Type.Array(
      Type.Object({
        name: Type.String(),
        filePath: Type.String(),
        source: SkillSourceSchema,
        outcome: Type.Enum(['loaded', 'shadowed', 'filtered', 'skipped']),
        reason: Type.String({ description: 'Why, in words: which candidate won, which toggle or glob, which rule' }),
        findings: Type.Array(FindingSchema),
      }),
      { description: 'Every candidate of that name, in pipeline order' },
    ),
    findings: Type.Array(FindingSchema, {
      description: 'Near misses whose folder has that name; errors first, of `severity` or worse when asked',
    }),
    agents: Type.Record(Type.String(), AgentCellSchema, {
      description:
        'Per agent id, what that agent does with the candidates of this name: loaded, else shadowed, invalid, unseen; ' +
        'empty when no agent has a candidate of that name (docs/api.md "Agent views")',
    }),
  },
  { title: 'NameDiagnosis' },
);
