// `skillsd catalog --agent ID [--context-window N] [--model M]`: the catalog that agent would put in its prompt (GET /catalog) on
// stdout, and on stderr one line of what its budget did.

import type { AgentCatalogAnswer } from '../../client/api-types.js';
import { CliError } from '../cli-error.js';
import { formatJson } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';

export const catalogCommand: ClientCommand = {
  usage: 'catalog --agent ID [--context-window N] [--model M] [--json]',
  summary: 'The skill catalog an agent would put in its prompt, and what its budget keeps, cuts or drops.',
  options: { agent: { type: 'string' }, 'context-window': { type: 'string' }, model: { type: 'string' } },
  optionHelp: [
    '--agent ID          claude-code, codex, opencode, gemini-cli, copilot-cli, vscode, goose, musepi, omp or xcsh',
    '--context-window N  the model’s context window in tokens (0: unknown; default: the agent’s own)',
    '--model M           the model the agent runs, where its catalog depends on it (default: the agent’s own)',
  ],
  positionals: { min: 0, max: 0 },
  inProcess: true,
  async run({ client, output, values }) {
    if (typeof values.agent !== 'string') throw new CliError('catalog: --agent ID is required');
    const raw = values['context-window'];
    let window: number | undefined;
    if (typeof raw === 'string') {
      if (!/^\d+$/.test(raw)) throw new CliError('option --context-window: expected an integer ≥ 0');
      window = Number(raw);
    }
    const model = typeof values.model === 'string' ? values.model : undefined;
    const answer = await client.catalog(values.agent, window, model);
    if (values.json === true) {
      output.out(formatJson(answer));
      return EXIT.ok;
    }
    if (answer.text !== '') output.out(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
    output.err(`${summaryLine(answer)}\n`);
    for (const warning of answer.warnings) output.err(`${warning}\n`);
    return EXIT.ok;
  },
};

/** `codex: 18/20 tokens, 2 name-only, 1 dropped`. */
export function summaryLine(answer: AgentCatalogAnswer): string {
  const size =
    answer.limit === null
      ? `${answer.used} ${answer.unit} (no budget)`
      : `${answer.used}/${answer.limit} ${answer.unit}`;
  const counts = (['truncated', 'name-only', 'dropped'] as const)
    .map((status) => [status, answer.entries.filter((entry) => entry.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return [`${answer.agent.id}: ${size}`, ...counts].join(', ');
}
