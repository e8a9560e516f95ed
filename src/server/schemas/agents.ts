// `GET /skills?agent=`, `GET /agents`, `GET /catalog` (docs/api.md "Agent views"): the shapes of the per-agent views.

import { Type } from 'typebox';
import { VIEW_IDS } from '../../discovery/agents/agents.js';
import { CwdProperty } from './common.js';
import { SkillWarningSchema } from './skill.js';

const ScopeSchema = Type.Enum(['user', 'project', 'admin', 'plugin']);

export const AgentInfoSchema = Type.Object(
  {
    id: Type.String({ description: `One of ${VIEW_IDS.join(', ')}` }),
    name: Type.String(),
    describes: Type.String({ description: 'The agent version and sources the rules describe' }),
    confidence: Type.Enum(['verified', 'source', 'docs', 'inferred'], {
      description:
        'verified: the agent at that release agrees on every conformance scenario; else the weakest basis of its rules',
    }),
  },
  { title: 'AgentInfo' },
);

export const AgentSkillSourceSchema = Type.Object(
  {
    agent: Type.String(),
    scope: ScopeSchema,
    root: Type.String({ description: 'The root it was found under (canonical for Codex and Goose)' }),
  },
  { title: 'AgentSkillSource' },
);

export const AgentSkillSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    filePath: Type.String(),
    baseDir: Type.String(),
    hide: Type.Boolean(),
    source: AgentSkillSourceSchema,
    kind: Type.Optional(
      Type.Literal('command', {
        description: 'A Claude Code command (`.claude/commands/*.md`): listed with the skills, not a SKILL.md',
      }),
    ),
    candidates: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Where the agent picks at random (OpenCode): every file that could be the one it loads',
      }),
    ),
  },
  { title: 'AgentSkill' },
);

const AgentCandidateSchema = Type.Object({ filePath: Type.String(), source: AgentSkillSourceSchema });

export const AgentCollisionSchema = Type.Object(
  {
    name: Type.String(),
    winner: AgentCandidateSchema,
    shadowed: Type.Array(
      Type.Object({
        filePath: Type.String(),
        source: AgentSkillSourceSchema,
        reason: Type.Enum(['precedence', 'duplicate-file']),
      }),
    ),
  },
  { title: 'AgentCollision' },
);

export const AgentFindingSchema = Type.Object(
  {
    rule: Type.String({
      description:
        "A rule of the doctor's `Finding` for a file this agent reads, or `agent-rejected`: the agent reads the file and rejects it",
    }),
    severity: Type.Enum(['error', 'warning', 'info']),
    path: Type.String({ description: 'The SKILL.md concerned, as this agent reaches it' }),
    line: Type.Optional(Type.Integer({ description: '1-based line in `path`' })),
    message: Type.String(),
    hint: Type.Optional(Type.String({ description: 'What to do about it' })),
  },
  { title: 'AgentFinding' },
);

export const AgentSkillsResponse = Type.Object(
  {
    generation: Type.Integer(),
    profile: Type.Enum(['musepi', 'omp', 'xcsh']),
    cwd: Type.String(),
    agent: AgentInfoSchema,
    skills: Type.Array(AgentSkillSchema, { description: 'The agent’s loaded skills, by name then path' }),
    warnings: Type.Array(SkillWarningSchema, { description: 'In the agent’s discovery order' }),
    collisions: Type.Array(AgentCollisionSchema),
    diagnostics: Type.Array(AgentFindingSchema),
  },
  { title: 'AgentSkillIndex' },
);

export const AgentCellSchema = Type.Object(
  {
    status: Type.Enum(['loaded', 'shadowed', 'invalid', 'unseen']),
    filePath: Type.Optional(Type.String({ description: 'How this agent reaches the file; absent when unseen' })),
    reason: Type.Optional(Type.String({ description: 'One sentence; absent for a plain `loaded`' })),
  },
  { title: 'AgentCell' },
);

export const AgentMatrixResponse = Type.Object(
  {
    generation: Type.Integer(),
    agents: Type.Array(AgentInfoSchema),
    skills: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          filePath: Type.String({ description: 'Where the file was first found (lexical): identifies the row' }),
          views: Type.Record(Type.String(), AgentCellSchema, { description: 'One cell per agent id' }),
        },
        { title: 'AgentMatrixRow' },
      ),
    ),
  },
  { title: 'AgentMatrix' },
);

export const CatalogQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  agent: Type.String({ description: 'The agent id' }),
  contextWindow: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Tokens; 0: unknown; absent: the agent’s default window' }),
  ),
  model: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The model the agent runs, where its catalog depends on it; absent: its default without a login',
    }),
  ),
});

export const AgentCatalogResponse = Type.Object(
  {
    agent: AgentInfoSchema,
    model: Type.Union([Type.String(), Type.Null()], {
      description: 'The model assumed: the one asked for, else the agent’s default; null where no model matters',
    }),
    contextWindow: Type.Union([Type.Integer(), Type.Null()], { description: 'The window used; null without a budget' }),
    unit: Type.Enum(['tokens', 'chars']),
    limit: Type.Union([Type.Integer(), Type.Null()]),
    used: Type.Integer(),
    entries: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          status: Type.Enum(['full', 'truncated', 'name-only', 'dropped']),
          chars: Type.Integer({ description: 'Description characters shown' }),
        },
        { title: 'AgentCatalogEntry' },
      ),
    ),
    text: Type.String({ description: 'The catalog as the agent puts it in its prompt' }),
    warnings: Type.Array(Type.String()),
  },
  { title: 'AgentCatalog' },
);
