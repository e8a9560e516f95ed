// The `instructions` of an MCP session (docs/mcp.md "What the server declares"): a host puts them in the model's
// context before the model asks anything, so they are bounded. The skills block of `GET /prompt` is sent when it fits
// INSTRUCTIONS_BUDGET; a larger catalog is left to the tools and resources that page and rank it, and the
// instructions only say how to reach it.

/**
 * Characters (`instructions.length`, UTF-16 code units) the instructions may take: 8,000, about 2,000 tokens, the
 * budget Claude Code and Codex give their own skill listings when they do not know the context window
 * (docs/agents.md, Claude Code "contextWindow=0" and "Codex's budget").
 */
export const INSTRUCTIONS_BUDGET = 8_000;

/** The prompt block when it fits the budget, else the short text naming how many skills there are and how to find them. */
export function sessionInstructions(block: string, skillCount: number): string {
  return block.length <= INSTRUCTIONS_BUDGET ? block : catalogPointer(skillCount);
}

/** What a session is told when its catalog is too large to list: a fixed text but for the count. */
export function catalogPointer(skillCount: number): string {
  return [
    '# Skills',
    `${skillCount.toLocaleString('en-US')} skills are available here: too many to list.`,
    'Skills are specialized knowledge. If one matches your task, you MUST load it before proceeding:',
    '- `search_skills` finds the skills for a task: give it what the task is about, in words ' +
      '(`extract tables from pdf`); the best matches come first.',
    '- `load_skill` loads one by name: its instructions, and the `skill://<name>` URI its files are read under.',
    '- The `skill://` resources list every skill (`resources/list`), each as `skill://<name>/SKILL.md`.',
  ].join('\n');
}
