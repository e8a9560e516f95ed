// `skillsd watch`: one line per change of the index (GET /events), NDJSON with `--json`. A dropped connection is
// resumed with `Last-Event-ID`, so nothing is missed; when the daemon cannot replay the gap it says `reset`, printed
// like any other event. A lost daemon is looked up again (its runtime file) before each reconnection, so a daemon
// started with `--port 0` is followed to its new port; only a daemon started in the same workspace is, waited for
// while it starts, never another workspace's daemon (docs/cli.md "Following the daemon"). Runs until interrupted
// (exit 0). With `--agent ID`, the changes of that agent's view (GET /events?agent=); the daemon refuses an unknown id
// (400 `UnknownAgent`, exit 2) as it does for `ls --agent` and `catalog --agent`.

import type { SkillsdEvent } from '../../client/api-types.js';
import type { SkillsdApiError } from '../../client/errors.js';
import type { Output } from '../output.js';
import { formatJsonLine, inline, paint } from '../output.js';
import { type ClientCommand, EXIT, refusal } from './command.js';

export const watchCommand: ClientCommand = {
  usage: 'watch [--json] [--agent ID] [--types index,collision,...]',
  summary: 'Prints one line per change of the index until interrupted; resumes after a dropped connection.',
  options: { types: { type: 'string' }, agent: { type: 'string' } },
  optionHelp: [
    '--agent ID        the changes of that agent’s view (claude-code, codex, opencode, gemini-cli, copilot-cli,',
    '                  vscode, goose, musepi, omp or xcsh)',
    '--types LIST      only these event types (hello and reset always come)',
  ],
  positionals: { min: 0, max: 0 },
  inProcess: false,
  async run({ client, output, values, relocate }) {
    // No daemon: fails here, before anything is printed (exit 3).
    await client.health();
    const json = values.json === true;
    let lost = false;
    let url = client.url;
    let refused: SkillsdApiError | undefined;
    let stop = () => {};
    // Settles a wait for the daemon to come back (`relocate`) as soon as `watch` is stopped.
    let stopped = () => {};
    const stopping = new Promise<undefined>((resolve) => {
      stopped = () => resolve(undefined);
    });
    const subscription = client.subscribe({
      ...(typeof values.types === 'string' ? { types: values.types.split(',') } : {}),
      ...(typeof values.agent === 'string' ? { agent: values.agent } : {}),
      maxRetryMs: 1000,
      ...(relocate === undefined ? {} : { relocate: () => Promise.race([relocate(), stopping]) }),
      onRelocate(next) {
        url = next;
        output.err(`skillsd: watch: following the daemon now at ${next}\n`);
      },
      onEvent(event) {
        lost = false;
        if (json) output.out(formatJsonLine(event));
        else if (event.event === 'hello') output.err(`${describe(event, output)}\n`);
        else output.out(`${describe(event, output)}\n`);
      },
      onDisconnect(error) {
        if (refusal(error)) {
          refused = error;
          stop();
          return;
        }
        if (!lost) output.err(`skillsd: watch: connection to ${url} lost; reconnecting\n`);
        lost = true;
      },
    });
    await new Promise<void>((resolve) => {
      stop = () => {
        stopped();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        subscription.close();
        resolve();
      };
      if (refused !== undefined) return stop();
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await subscription.done;
    // Printed like every error answer of a client command (docs/cli.md "Errors").
    if (refused !== undefined) throw refused;
    return EXIT.ok;
  },
};

/**
 * One human line for an event. Every value from a skill (names, paths, messages) is made one line and escaped
 * (docs/cli.md "Output"): a name holding a line break must not print what looks like an event line of its own.
 */
export function describe(event: SkillsdEvent, output: Output): string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const finding = (data.finding ?? {}) as Record<string, unknown>;
  const of = (record: Record<string, unknown>, key: string) => shown(record[key]);
  const list = (value: unknown) => (Array.isArray(value) ? value.map(shown).join(', ') : '');
  switch (event.event) {
    case 'hello': {
      const view = data.agent === undefined ? '' : ` in ${of(data, 'agent')}'s view`;
      return `watching: generation ${of(data, 'generation')}, ${of(data, 'skills')} skills${view}`;
    }
    case 'index': {
      const parts = [`generation ${of(data, 'generation')}:`];
      if (list(data.added) !== '') parts.push(`${paint(output, 'green', 'added')} ${list(data.added)}`);
      if (list(data.removed) !== '') parts.push(`${paint(output, 'red', 'removed')} ${list(data.removed)}`);
      if (list(data.changed) !== '') parts.push(`${paint(output, 'yellow', 'changed')} ${list(data.changed)}`);
      // The default stream names the agent views in use that changed (docs/api.md §GET /events).
      if (list(data.views) !== '') parts.push(`agent views changed: ${list(data.views)}`);
      // No loaded skill differs: what moved the generation is a losing candidate (its collision line follows) or a
      // reference warning (docs/cli.md "Commands").
      if (parts.length === 1) parts.push('no skill added, removed or changed (a collision or a warning changed)');
      return parts.join(' ');
    }
    case 'collision':
      return `collision ${of(data, 'state')}: ${inline(JSON.stringify(data.name) ?? '')}${data.state === 'resolved' ? '' : describeCollision(data.collision)}`;
    case 'warning': {
      const where = of(data, 'skillPath') === '' ? '' : `${of(data, 'skillPath')}: `;
      return `${paint(output, 'yellow', 'warning')}: ${where}${of(data, 'message')}`;
    }
    case 'diagnostic':
      return (
        `diagnostic ${of(data, 'state')}: ${of(finding, 'severity')} ${of(finding, 'rule')} ${of(finding, 'path')}: ` +
        of(finding, 'message')
      );
    case 'settings':
      return `settings re-applied from ${of(data, 'source')} (generation ${of(data, 'generation')})`;
    case 'settings-error':
      return `${paint(output, 'red', 'settings refused')}: ${of(data, 'source')}: ${of(data, 'message')}`;
    case 'reset':
      return `reset: events were missed; the index is at generation ${of(data, 'generation')}`;
    default:
      return `${inline(event.event ?? '')}: ${inline(JSON.stringify(event.data) ?? '')}`;
  }
}

/** A value of an event as one line of text. */
function shown(value: unknown): string {
  return inline(typeof value === 'string' ? value : String(value));
}

interface CollisionCandidate {
  filePath?: string;
  /** The default view's source (`id`), or an agent view's (`agent`, `scope`). */
  source?: { id?: string; agent?: string; scope?: string };
}

/** `: <winner> (<source>) over <loser> (<source>), …`, or nothing for a resolved collision. */
function describeCollision(value: unknown): string {
  const collision = (value ?? undefined) as
    | { winner?: CollisionCandidate; shadowed?: CollisionCandidate[] }
    | undefined;
  if (collision?.winner === undefined) return '';
  const source = (candidate: CollisionCandidate) =>
    candidate.source?.id ?? `${shown(candidate.source?.agent)}:${shown(candidate.source?.scope)}`;
  const one = (candidate: CollisionCandidate) => `${shown(candidate.filePath)} (${shown(source(candidate))})`;
  const losers = (collision.shadowed ?? []).map(one).join(', ');
  return `: ${one(collision.winner)} wins${losers === '' ? '' : ` over ${losers}`}`;
}
