// `skillsd agents`: what every agent does with every SKILL.md of the workspace (GET /agents), as a table: one row per
// skill name and location, one column per agent, then the daemon's own profile.

import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { formatJson, formatTable } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';
import { displayPath } from './display-path.js';

const AGENT_COLUMNS = ['claude-code', 'codex', 'opencode', 'gemini-cli', 'copilot-cli', 'vscode', 'goose'];

export const agentsCommand: ClientCommand = {
  usage: 'agents [--json]',
  summary:
    'Every SKILL.md some agent would read, and what Claude Code, Codex, OpenCode, Gemini CLI, Copilot CLI, VS Code, ' +
    'Goose and the daemon’s profile do with it: loaded, shadowed, invalid or — (never read).',
  options: {},
  positionals: { min: 0, max: 0 },
  inProcess: true,
  async run({ client, output, values }) {
    const matrix = await client.agents();
    if (values.json === true) {
      output.out(formatJson(matrix));
      return EXIT.ok;
    }
    if (matrix.skills.length === 0) {
      output.err('no skills\n');
      return EXIT.ok;
    }
    // A filter that matches no skill: the daemon's profile and workspace without the list itself.
    const { profile, cwd } = await client.skills({ q: '\u0000' });
    const columns = [...AGENT_COLUMNS, profile];
    const home = homedir();
    const rows = matrix.skills.map((row) => [
      row.name,
      displayPath(dirname(row.filePath), cwd, home),
      ...columns.map((id) => {
        const status = row.views[id]?.status ?? 'unseen';
        return status === 'unseen' ? '—' : status;
      }),
    ]);
    output.out(formatTable(output, ['NAME', 'LOCATION', ...columns.map((id) => id.toUpperCase())], rows));
    return EXIT.ok;
  },
};
