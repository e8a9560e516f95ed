// The catalog of an agent without a budget: every entry in full, `used` counts the text's characters.

import { scalarLength } from './frontmatter-rules.js';
import type { AgentSkill, CatalogAnswer } from './types.js';

export function fullCatalog(skills: AgentSkill[], text: string, warnings: string[] = []): CatalogAnswer {
  return {
    contextWindow: null,
    unit: 'chars',
    limit: null,
    used: scalarLength(text),
    entries: skills.map((skill) => ({
      name: skill.name,
      status: skill.cutAtLoad === true ? 'truncated' : 'full',
      chars: scalarLength(skill.description),
    })),
    text,
    warnings,
  };
}
