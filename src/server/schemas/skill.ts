// The data shapes of docs/api.md: `Skill`, `Collision`, warnings (see src/discovery/types.ts for the TypeScript side).
// Each `title` names a component of the OpenAPI document (src/server/openapi-named-schemas.ts).

import { Type } from 'typebox';

export const SkillSourceSchema = Type.Object(
  {
    id: Type.String({ description: '`<provider>:<level>`, e.g. `native:project`' }),
    provider: Type.String({ description: 'Provider id: native, claude, agents, codex, opencode, github, custom, …' }),
    providerName: Type.String({ description: 'Display name, e.g. `Claude Code`' }),
    level: Type.Enum(['user', 'project']),
    path: Type.String({ description: 'Absolute SKILL.md path' }),
    plugin: Type.Optional(
      Type.String({
        description:
          'Plugin providers only: the plugin the skill came with (`<plugin>@<marketplace>` for claude-plugins, the ' +
          'package for omp-plugins, the manifest name for agent-plugins)',
      }),
    ),
  },
  { title: 'SkillSource' },
);

export const SkillSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    filePath: Type.String({
      description:
        'SKILL.md path as discovered (symlinks not resolved): absolute, except under a relative custom directory, ' +
        'where it is relative to the workspace as the setting is; `source.path` is always absolute',
    }),
    baseDir: Type.String({ description: 'The directory holding that SKILL.md, written as `filePath` is' }),
    hide: Type.Boolean({ description: 'Left out of the system prompt (`hide` or `disable-model-invocation`)' }),
    source: SkillSourceSchema,
    frontmatter: Type.Object(
      {},
      { additionalProperties: true, description: 'Normalised frontmatter (kebab-case keys camel-cased)' },
    ),
  },
  { title: 'Skill' },
);

export const SkillWarningSchema = Type.Object(
  {
    skillPath: Type.String({ description: 'The file or directory concerned; empty for provider warnings' }),
    message: Type.String({ description: 'The reference warning text' }),
  },
  { title: 'Warning' },
);

export const SkillDiagnosticSchema = Type.Object(
  {
    skillPath: Type.String({ description: 'The SKILL.md concerned, as discovered' }),
    message: Type.String(),
  },
  {
    title: 'Diagnostic',
    description:
      'Beyond the reference: something to know about one SKILL.md that the reference skips or repairs silently ' +
      '(read cut at the size cap, invalid UTF-8, unreadable, YAML repaired, a non-YAML fence refused, a safety ' +
      'limit hit, an unusual name). Never changes `skills` or `warnings`.',
  },
);

export const CollisionCandidateSchema = Type.Object(
  { filePath: Type.String(), source: SkillSourceSchema },
  { title: 'CollisionCandidate' },
);

export const ShadowedCandidateSchema = Type.Object(
  {
    filePath: Type.String(),
    source: SkillSourceSchema,
    reason: Type.Enum(['precedence', 'custom-override', 'duplicate-file', 'custom-collision', 'disabled']),
  },
  { title: 'ShadowedCandidate' },
);

export const CollisionSchema = Type.Object(
  {
    name: Type.String(),
    winner: CollisionCandidateSchema,
    shadowed: Type.Array(ShadowedCandidateSchema),
  },
  { title: 'Collision' },
);
