// `skillsd wait [--since GEN] [--timeout S]`: returns as soon as the index is past GEN, printing the new generation.
//
// No change can slip by: the event stream's `hello` carries the generation at the very moment the subscription
// starts (the daemon reads it and subscribes in one step), so a change made before the stream connected shows as
// `hello.generation > GEN`, and one made after arrives as an `index` event. A script takes GEN from an earlier answer
// (`skillsd status --json`, `GET /skills`), does its work, then waits with `--since GEN`.

import type { SkillsdApiError } from '../../client/errors.js';
import { CliError } from '../cli-error.js';
import { formatJsonLine } from '../output.js';
import { type ClientCommand, EXIT, refusal } from './command.js';

export const waitCommand: ClientCommand = {
  usage: 'wait [--since GEN] [--timeout S] [--json]',
  summary: 'Waits until the index moves past generation GEN (default: the current one) and prints the new one.',
  options: { since: { type: 'string' }, timeout: { type: 'string' } },
  optionHelp: [
    '--since GEN       return once the generation is greater than GEN (at once if it already is)',
    '--timeout S       give up after S seconds (exit 124)',
  ],
  positionals: { min: 0, max: 0 },
  inProcess: false,
  async run({ client, output, values, relocate }) {
    const since = integerOption(values.since, '--since');
    const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutS !== undefined && !(Number.isFinite(timeoutS) && timeoutS >= 0)) {
      throw new CliError('option --timeout: expected a number of seconds');
    }
    await client.health();
    let threshold = since;
    let behind: number | undefined;
    let refused: SkillsdApiError | undefined;
    const reached = await new Promise<number | undefined>((resolve) => {
      const timer =
        timeoutS === undefined ? undefined : setTimeout(() => finish(undefined), Math.round(timeoutS * 1000));
      const check = (event: string, generation: unknown) => {
        if (typeof generation !== 'number') return;
        threshold ??= generation;
        if (generation > threshold) finish(generation);
        // Generations only grow within one daemon: a daemon that says (on connecting) it is before GEN restarted,
        // and GEN will never be passed in the sense the caller meant (docs/cli.md "Following the daemon").
        else if (event === 'hello' && generation < threshold) {
          behind = generation;
          finish(undefined);
        }
      };
      const subscription = client.subscribe({
        types: ['index'],
        maxRetryMs: 500,
        ...(relocate === undefined ? {} : { relocate }),
        onEvent: (event) => check(event.event, (event.data as { generation?: unknown } | null)?.generation),
        onDisconnect: (error) => {
          if (!refusal(error)) return;
          refused = error;
          finish(undefined);
        },
      });
      function finish(generation: number | undefined) {
        clearTimeout(timer);
        subscription.close();
        resolve(generation);
      }
    });
    // Printed like every error answer of a client command (docs/cli.md "Errors").
    if (refused !== undefined) throw refused;
    if (behind !== undefined) {
      output.err(`skillsd: wait: the daemon is at generation ${behind}, behind --since ${threshold} (it restarted)\n`);
      return EXIT.negative;
    }
    if (reached === undefined) {
      const past = threshold === undefined ? 'its current generation' : `generation ${threshold}`;
      output.err(`skillsd: wait: timed out after ${timeoutS} s: the index did not move past ${past}\n`);
      return EXIT.timeout;
    }
    output.out(values.json === true ? formatJsonLine({ generation: reached }) : `${reached}\n`);
    return EXIT.ok;
  },
};

function integerOption(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw new CliError(`option ${flag}: expected an integer`);
  return Number(value);
}
