// Runs one client command (API.md §Command line): parses its flags, finds the daemon (--url, SKILLSD_URL, the runtime
// file, the default port), and runs the command against it; when no daemon answers, a read-only command is answered
// in-process for `--cwd` (default: the current directory) and says so on stderr, the others exit 3.

import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { isDaemonUnreachable, SkillsdApiError } from '../client/errors.js';
import { type DaemonLocation, findDaemon } from '../client/find-daemon.js';
import { SkillsdClient } from '../client/skillsd-client.js';
import type { Profile } from '../discovery/types.js';
import { CliError } from './cli-error.js';
import { agentsCommand } from './commands/agents.js';
import { catCommand } from './commands/cat.js';
import { catalogCommand } from './commands/catalog.js';
import { type ClientCommand, type CommandContext, EXIT, type OptionValues } from './commands/command.js';
import { doctorCommand } from './commands/doctor.js';
import { invokeCommand } from './commands/invoke.js';
import { lsCommand } from './commands/ls.js';
import { promptCommand } from './commands/prompt.js';
import { showCommand } from './commands/show.js';
import { statusCommand } from './commands/status.js';
import { stopCommand } from './commands/stop.js';
import { waitCommand } from './commands/wait.js';
import { watchCommand } from './commands/watch.js';
import { createOutput, type Output } from './output.js';
import { type ClientCommandName, PROFILES } from './parse-args.js';

const COMMANDS: Record<ClientCommandName, ClientCommand> = {
  ls: lsCommand,
  show: showCommand,
  cat: catCommand,
  prompt: promptCommand,
  invoke: invokeCommand,
  watch: watchCommand,
  wait: waitCommand,
  doctor: doctorCommand,
  status: statusCommand,
  stop: stopCommand,
  agents: agentsCommand,
  catalog: catalogCommand,
};

const COMMON_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  url: { type: 'string' },
  'token-file': { type: 'string' },
  cwd: { type: 'string' },
  json: { type: 'boolean' },
  config: { type: 'string' },
  profile: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const COMMON_HELP = [
  '--json             print the API JSON',
  '--cwd DIR          the workspace to answer for (sent as ?cwd=; in-process: default the current directory)',
  '--url URL          the daemon (else SKILLSD_URL, else the runtime file of a running daemon, else :7420)',
  '--token-file FILE  bearer token (else SKILLSD_TOKEN_FILE, else the one the runtime file names)',
  '--config FILE, --profile P   settings for an in-process answer (no daemon running)',
];

export async function runClientCommand(
  name: ClientCommandName,
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  output: Output = createOutput(process.stdout, process.stderr, env),
): Promise<number> {
  const command = COMMANDS[name];
  let values: OptionValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    }) as { values: OptionValues; positionals: string[] });
  } catch (error) {
    throw new CliError(`${name}: ${(error as Error).message}`);
  }
  if (values.help === true) {
    output.out(helpText(command));
    return EXIT.ok;
  }
  if (positionals.length < command.positionals.min || positionals.length > command.positionals.max) {
    throw new CliError(`usage: skillsd ${command.usage}`);
  }
  const profile = values.profile as string | undefined;
  if (profile !== undefined && !(PROFILES as readonly string[]).includes(profile)) {
    throw new CliError(`option --profile: unknown profile "${profile}" (expected ${PROFILES.join(', ')})`);
  }
  const explicitCwd = typeof values.cwd === 'string' ? resolve(values.cwd) : undefined;

  const daemon = await findDaemon({
    env,
    home: homedir(),
    cwd: process.cwd(),
    ...(typeof values.url === 'string' ? { url: values.url } : {}),
    ...(typeof values['token-file'] === 'string' ? { tokenFile: values['token-file'] } : {}),
  }).catch((error: unknown) => {
    throw new CliError(`cannot read the token: ${(error as Error).message}`);
  });
  const client = new SkillsdClient({ ...daemon, ...(explicitCwd === undefined ? {} : { cwd: explicitCwd }) });
  const context: CommandContext = { client, daemon, local: false, output, values, positionals, env };
  try {
    return await command.run(context);
  } catch (error) {
    if (!isDaemonUnreachable(error)) return reportError(name, error, output);
    if (!command.inProcess) {
      output.err(`skillsd: no daemon running (nothing answers at ${daemon.url})\n`);
      return EXIT.noDaemon;
    }
  }
  return runInProcess(name, command, context, daemon, explicitCwd ?? process.cwd(), profile as Profile | undefined);
}

async function runInProcess(
  name: string,
  command: ClientCommand,
  context: CommandContext,
  daemon: DaemonLocation,
  cwd: string,
  profile: Profile | undefined,
): Promise<number> {
  const { output } = context;
  const { startInProcess } = await import('./in-process.js');
  const config = typeof context.values.config === 'string' ? context.values.config : undefined;
  const local = await startInProcess({
    cwd,
    env: context.env,
    ...(config === undefined ? {} : { config }),
    ...(profile === undefined ? {} : { profile }),
  });
  output.err(`skillsd: no daemon running (nothing answers at ${daemon.url}); answered in-process for ${cwd}\n`);
  try {
    const client = new SkillsdClient({ url: local.url, fetch: local.fetch });
    return await command.run({ ...context, client, daemon: undefined, local: true });
  } catch (error) {
    return reportError(name, error, output);
  } finally {
    await local.close();
  }
}

/** An error answer: 400 is bad usage (exit 2), anything else a negative answer (exit 1). */
function reportError(name: string, error: unknown, output: Output): number {
  if (error instanceof SkillsdApiError) {
    output.err(`skillsd ${name}: ${error.message}\n`);
    return error.status === 400 ? EXIT.usage : EXIT.negative;
  }
  throw error;
}

function helpText(command: ClientCommand): string {
  const lines = [`Usage: skillsd ${command.usage}`, '', command.summary, '', 'Options:'];
  for (const line of command.optionHelp ?? []) lines.push(`  ${line}`);
  for (const line of COMMON_HELP) lines.push(`  ${line}`);
  lines.push('', 'Exit codes: 0 ok, 1 a negative answer, 2 bad usage, 3 no daemon, 124 timeout.');
  return `${lines.join('\n')}\n`;
}
