// `GET /prompt`: the system-prompt skills block of docs/discovery.md §8.

import type { SkillLocations } from '../discovery/skill-locations.js';
import { renderSkillsPrompt } from '../discovery/skills-prompt.js';
import type { Skill } from '../discovery/types.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';

export interface PromptQuery {
  /** Comma-separated tool names (default `read`). */
  tools?: string;
  format?: 'markdown' | 'xml';
}

export function promptBlock(snapshot: WorkspaceSnapshot, query: PromptQuery, locations: SkillLocations): string {
  const { tools = 'read', format = 'markdown' } = query;
  return renderSkillsPrompt(snapshot.skills as Skill[], {
    tools: tools
      .split(',')
      .map((tool) => tool.trim())
      .filter((tool) => tool !== ''),
    profile: snapshot.profile,
    format,
    locations,
  });
}
