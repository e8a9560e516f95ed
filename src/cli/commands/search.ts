// `skillsd search TEXT`: skills ranked by how well they match TEXT (GET /search), as a table or the API's JSON.

import { CliError } from '../cli-error.js';
import { formatJson, formatTable } from '../output.js';
import { type ClientCommand, EXIT } from './command.js';

/** The bounds of `limit` (docs/api.md §GET /search). */
const MAX_LIMIT = 100;

export const searchCommand: ClientCommand = {
  usage: 'search TEXT [--limit N] [--json]',
  summary:
    'Skills ranked by how well their name, description and body match TEXT (the last word also as a prefix, words of five letters or more ' +
    'with one typo; English function words are left out); the words of TEXT may also be given unquoted. Exit 1 when nothing matches.',
  options: { limit: { type: 'string' } },
  optionHelp: ['--limit N          at most N results (1 to 100, default 10)'],
  positionals: { min: 1, max: 64 },
  inProcess: true,
  async run({ client, output, values, positionals }) {
    const text = positionals.join(' ');
    if (text.trim() === '') throw new CliError('TEXT is empty: say what to search for');
    const limit = limitOf(values.limit);
    const answer = await client.search(text, limit === undefined ? {} : { limit });
    if (values.json === true) output.out(formatJson(answer));
    else if (answer.results.length > 0) {
      const rows = answer.results.map((result) => [
        result.name,
        result.score.toFixed(2),
        result.hide ? 'yes' : 'no',
        result.description,
      ]);
      output.out(formatTable(output, ['NAME', 'SCORE', 'HIDDEN', 'DESCRIPTION'], rows));
    }
    if (answer.results.length === 0) {
      // A negative answer, in the one line every client command uses (docs/cli.md "Errors").
      if (values.json !== true) output.err(`skillsd: search: no skill matches ${JSON.stringify(text)}\n`);
      return EXIT.negative;
    }
    return EXIT.ok;
  },
};

function limitOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const limit = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new CliError(`option --limit: expected an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(value)}`);
  }
  return limit;
}
