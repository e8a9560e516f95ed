// `GET /prompt`: the system-prompt skills block (docs/discovery.md §8).

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

// Both forms are served as `text/markdown` (docs/api.md §GET /prompt): the block, XML or not, is pasted into a markdown
// system prompt, and the document says what the daemon sends.
export const PromptOk = {
  description: 'The skills block (empty when no skill is listed); the `format=xml` form too is sent as markdown',
  content: { 'text/markdown': { schema: Type.String() } },
};
