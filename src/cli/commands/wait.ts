// `skillsd wait [--since GEN] [--timeout S]`: returns as soon as the index is past GEN, printing the new generation.
//
// No change can slip by: the event stream's `hello` carries the generation at the very moment the subscription
// starts (the daemon reads it and subscribes in one step), so a change made before the stream connected shows in
// `hello.generation`, and one made after arrives as an `index` event. A script takes GEN from an earlier answer
// (`skillsd status --json`, `GET /skills`), does its work, then waits with `--since GEN`.
//
// What "past GEN" means depends on the daemon's generations (`generationMode` of `GET /health`): counter generations
// grow, so a greater one is past GEN; content generations (`--generation content`) are hashes that do not grow, so
// any other one is.
//
// With `--agent ID` the wait follows that agent's view (GET /events?agent=): its `index` events are that view's
// changes. The generation is the workspace's, one for every view, so a `hello` already past GEN returns at once even
// when the change was another view's: never late, sometimes early (docs/cli.md "`wait` never misses a change").

import type { SkillsdApiError } from '../../client/errors.js';
import { CliError } from '../cli-error.js';
import { formatJsonLine } from '../output.js';
import { type ClientCommand, EXIT, refusal } from './command.js';

export const waitCommand: ClientCommand = {
  usage: 'wait [--since GEN] [--agent ID] [--timeout S] [--json]',
  summary: 'Waits until the index moves past generation GEN (default: the current one) and prints the new one.',
  options: { since: { type: 'string' }, timeout: { type: 'string' }, agent: { type: 'string' } },
  optionHelp: [
    '--since GEN       return once the generation has moved past GEN (at once if it already has): greater than GEN,',
    '                  or, against a --generation content daemon, different from it',
    '--agent ID        wait for a change of that agent’s view (claude-code, codex, opencode, gemini-cli,',
    '                  copilot-cli, vscode, goose, musepi, omp or xcsh)',
    '--timeout S       give up after S seconds (exit 124)',
  ],
  positionals: { min: 0, max: 0 },
  inProcess: false,
  async run({ client, output, values, relocate }) {
    const since = generationOption(values.since, '--since');
    const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutS !== undefined && !(Number.isFinite(timeoutS) && timeoutS >= 0)) {
      throw new CliError('option --timeout: expected a number of seconds');
    }
    // Content generations are compared for identity only; a daemon that does not say is a counting one.
    const byContent = (await client.health()).generationMode === 'content';
    let threshold = since;
    // Counter generations only: the daemon's generation when it was found before GEN, and whether it restarted.
    let behind: number | undefined;
    let restarted = false;
    let highest: number | undefined;
    let refused: SkillsdApiError | undefined;
    const reached = await new Promise<number | undefined>((resolve) => {
      const timer =
        timeoutS === undefined ? undefined : setTimeout(() => finish(undefined), Math.round(timeoutS * 1000));
      const check = (event: string, generation: unknown) => {
        if (typeof generation !== 'number') return;
        threshold ??= generation;
        if (byContent) {
          if (generation !== threshold) finish(generation);
          return;
        }
        // A counter never goes down within one daemon: a `hello` below a generation seen earlier in this wait comes
        // from a daemon that restarted (and counts again from 1).
        if (event === 'hello' && highest !== undefined && generation < highest) restarted = true;
        highest = Math.max(highest ?? generation, generation);
        if (generation > threshold) finish(generation);
        // A daemon before GEN will not pass it in the sense the caller meant (docs/cli.md "Following the daemon").
        else if (event === 'hello' && generation < threshold) {
          behind = generation;
          finish(undefined);
        }
      };
      const subscription = client.subscribe({
        types: ['index'],
        ...(typeof values.agent === 'string' ? { agent: values.agent } : {}),
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
      const wanted = since === undefined ? `generation ${threshold}` : `--since ${threshold}`;
      output.err(
        restarted
          ? `skillsd: wait: the daemon restarted: it is at generation ${behind}, behind ${wanted}\n`
          : `skillsd: wait: ${wanted} is ahead of the daemon's generation ${behind}\n`,
      );
      return EXIT.negative;
    }
    if (reached === undefined) {
      const generation = threshold === undefined ? 'its current generation' : `generation ${threshold}`;
      const past = byContent ? `change from ${generation}` : `move past ${generation}`;
      const what = typeof values.agent === 'string' ? `the view of ${values.agent}` : 'the index';
      output.err(`skillsd: wait: timed out after ${timeoutS} s: ${what} did not ${past}\n`);
      return EXIT.timeout;
    }
    output.out(values.json === true ? formatJsonLine({ generation: reached }) : `${reached}\n`);
    return EXIT.ok;
  },
};

/** A generation: a counter, or a content generation of up to 16 digits (52 bits, docs/deploy.md). */
function generationOption(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new CliError(`option ${flag}: expected an integer`);
  }
  return Number(value);
}
