// `skillsd prompt`: the system-prompt skills block (GET /prompt), exactly as the daemon renders it.

import { CliError } from '../cli-error.js';
import { formatJsonLine, printable } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';

export const promptCommand: ClientCommand = {
  usage: 'prompt [--format markdown|xml] [--tools read,bash] [--paths local|url]',
  summary: 'The skills block of the system prompt (empty when no skill is listed).',
  options: { format: { type: 'string' }, tools: { type: 'string' }, paths: { type: 'string' } },
  optionHelp: [
    '--format xml      the Agent Skills <available_skills> form',
    '--tools LIST      the tool set (the block is empty without read; default read)',
    '--paths url       skill locations as URLs of the daemon',
  ],
  positionals: { min: 0, max: 0 },
  inProcess: true,
  async run({ client, output, values }) {
    const format = values.format as string | undefined;
    if (format !== undefined && format !== 'markdown' && format !== 'xml') {
      throw new CliError('option --format: expected markdown or xml');
    }
    const paths = values.paths as string | undefined;
    if (paths !== undefined && paths !== 'local' && paths !== 'url')
      throw new CliError('option --paths: expected local or url');
    const tools = typeof values.tools === 'string' ? values.tools.split(',') : undefined;
    const text = await client.prompt({
      ...(format === undefined ? {} : { format }),
      ...(tools === undefined ? {} : { tools }),
      ...(paths === undefined ? {} : { paths }),
    });
    // An empty block is the right answer, but an empty output alone does not say why (docs/cli.md "Commands").
    if (text === '') output.err(`skillsd: prompt: the block is empty: ${emptyBecause(tools)}\n`);
    if (values.json === true) output.out(formatJsonLine({ prompt: text }));
    // The block the API answers (control characters from skills escaped, as everywhere); a terminal gets a final
    // newline so that the shell prompt starts a new line.
    else output.out(printable(output.isTTY && text !== '' && !text.endsWith('\n') ? `${text}\n` : text));
    return EXIT.ok;
  },
};

/** Why the daemon answered no block: the agents list skills only for a model that has the read tool. */
function emptyBecause(tools: readonly string[] | undefined): string {
  if (tools !== undefined && !tools.map((tool) => tool.trim()).includes('read')) {
    return `--tools ${tools.join(',')} has no read tool, and skills are listed only for a model that can read them`;
  }
  return 'no loaded skill is listed in the prompt (none is loaded, or all are hidden)';
}
