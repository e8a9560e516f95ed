// `skillsd agents`: what every agent does with every SKILL.md of the workspace (GET /agents), as a table: one row per
// skill name and location, one column per agent, then the daemon's own profile.

import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { type Column, formatJson, layoutTable } from '../output.js';
import { wrapHelp } from '../terminal-text.js';
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
    const header: Column[] = [
      { header: 'NAME', fit: 'wrap' },
      { header: 'LOCATION', fit: 'cut' },
      // On a narrow terminal an agent goes by the first word of its id (`CLAUDE`), and the agents that do not fit
      // are left out from the right, named on stderr (docs/cli.md "Output").
      ...columns.map(
        (id): Column => ({ header: id.toUpperCase(), short: id.split('-')[0]?.toUpperCase(), fit: 'drop' }),
      ),
    ];
    const table = layoutTable(output, header, rows);
    output.out(table.text);
    if (table.left.length > 0) {
      const left = table.left.map((name) => name.toLowerCase()).join(', ');
      const note = `skillsd: agents: not shown at ${output.columns} columns: ${left} (a wider terminal or --json shows them)`;
      output.err(`${wrapHelp(note, output.columns ?? note.length)}\n`);
    }
    return EXIT.ok;
  },
};
