// `GET /prompt`: the system-prompt skills block (SKILLS.md §8).

import { Type } from 'typebox';
import { CwdProperty, PathsProperty } from './common.js';

export const PromptQuery = Type.Object({
  cwd: Type.Optional(CwdProperty),
  tools: Type.Optional(
    Type.String({
      pattern: '^[^,]*(,[^,]*)*$',
      default: 'read',
      description: 'Comma-separated tool names; the block is empty without `read`',
    }),
  ),
  paths: Type.Optional(PathsProperty),
  format: Type.Optional(
    Type.Enum(['markdown', 'xml'], { description: '`xml`: the Agent Skills `<available_skills>` form' }),
  ),
});

export const PromptOk = {
  description: 'The skills block (empty when no skill is listed)',
  content: { 'text/markdown': { schema: Type.String() }, 'application/xml': { schema: Type.String() } },
};
