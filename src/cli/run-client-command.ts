// Runs one client command (docs/cli.md): parses its flags, finds the daemon (--url, SKILLSD_URL, the runtime
// file, the default port), and runs the command against it; when no daemon answers, a read-only command is answered
// in-process for `--cwd` (default: the current directory) and says so on stderr, the others exit 3. A daemon that is
// not the user's own (docs/cli.md "Trusting only your own daemon") counts as none, after one line saying what was
// found there. A command that reads the agent views waits while the daemon computes them (docs/cli.md "Commands").

import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { DaemonNotTrustedError, isDaemonUnreachable, SkillsdApiError } from '../client/errors.js';
import { type DaemonLocation, findDaemon } from '../client/find-daemon.js';
import { SkillsdClient } from '../client/skillsd-client.js';
import type { Profile } from '../discovery/types.js';
import { CliError } from './cli-error.js';
import { type ClientCommand, type CommandContext, EXIT, type OptionValues } from './commands/command.js';
import { currentDirectory } from './current-directory.js';
import { createOutput, cut, inline, type Output } from './output.js';
import { type ClientCommandName, PROFILES } from './parse-args.js';

// Each command's module is loaded only when it runs: a short-lived command pays for no other (docs/performance.md
// "Client commands").
const COMMANDS: Record<ClientCommandName, () => Promise<ClientCommand>> = {
  ls: async () => (await import('./commands/ls.js')).lsCommand,
  show: async () => (await import('./commands/show.js')).showCommand,
  cat: async () => (await import('./commands/cat.js')).catCommand,
  prompt: async () => (await import('./commands/prompt.js')).promptCommand,
  invoke: async () => (await import('./commands/invoke.js')).invokeCommand,
  search: async () => (await import('./commands/search.js')).searchCommand,
  watch: async () => (await import('./commands/watch.js')).watchCommand,
  wait: async () => (await import('./commands/wait.js')).waitCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  stop: async () => (await import('./commands/stop.js')).stopCommand,
  open: async () => (await import('./commands/open.js')).openCommand,
  agents: async () => (await import('./commands/agents.js')).agentsCommand,
  catalog: async () => (await import('./commands/catalog.js')).catalogCommand,
};

/** How long a command that reads the agent views waits for their first computation (503 `NotReady` meanwhile). */
const VIEWS_WAIT_MS = 10 * 60 * 1000;

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
  '--url URL          the daemon (else SKILLSD_URL, else the runtime file of your running daemon,',
  '                   else 127.0.0.1:7420, or the port SKILLSD_PORT names)',
  '--token-file FILE  bearer token (else SKILLSD_TOKEN_FILE, else the one the runtime file names)',
  '--config FILE, --profile P   settings for an in-process answer (no daemon running)',
];

export async function runClientCommand(
  name: ClientCommandName,
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  // Standard error is opened (a stream built) only when something is written to it: most commands never do.
  output: Output = createOutput(process.stdout, { write: (text) => process.stderr.write(text) }, env),
): Promise<number> {
  try {
    return await runCommand(name, argv, env, output);
  } catch (error) {
    // One error style for every client command: `skillsd: <command>: <what went wrong>` (docs/cli.md "Errors").
    if (error instanceof CliError) throw new CliError(`${name}: ${error.message}`, error.exitCode);
    throw error;
  }
}

async function runCommand(
  name: ClientCommandName,
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  output: Output,
): Promise<number> {
  const command = await COMMANDS[name]();
  // The command's own flags first: the order an unknown flag's message lists them in.
  const options = { ...command.options, ...COMMON_OPTIONS };
  let values: OptionValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true }) as {
      values: OptionValues;
      positionals: string[];
    });
  } catch (error) {
    throw new CliError(parseErrorMessage(error, options, argv));
  }
  if (values.help === true) {
    output.out(helpText(command));
    return EXIT.ok;
  }
  if (positionals.length < command.positionals.min) {
    throw new CliError(`missing argument (usage: skillsd ${command.usage})`);
  }
  if (positionals.length > command.positionals.max) {
    const extra = positionals[command.positionals.max];
    throw new CliError(`unexpected argument ${JSON.stringify(extra)} (usage: skillsd ${command.usage})`);
  }
  const profile = values.profile as string | undefined;
  if (profile !== undefined && !(PROFILES as readonly string[]).includes(profile)) {
    throw new CliError(`option --profile: unknown profile "${profile}" (expected ${PROFILES.join(', ')})`);
  }
  if (typeof values.url === 'string') checkUrl('option --url', values.url);
  if (typeof values.url !== 'string' && nonBlank(env.SKILLSD_URL)) checkUrl('SKILLSD_URL', env.SKILLSD_URL!);
  const explicitCwd =
    typeof values.cwd === 'string'
      ? isAbsolute(values.cwd)
        ? values.cwd
        : resolve(currentDirectory(), values.cwd)
      : undefined;

  const lookUp = () =>
    findDaemon({
      env,
      home: homedir(),
      cwd: explicitCwd ?? currentDirectory(),
      ...(typeof values.url === 'string' ? { url: values.url } : {}),
      ...(typeof values['token-file'] === 'string' ? { tokenFile: values['token-file'] } : {}),
    });
  const daemon = await lookUp().catch((error: unknown) => {
    throw new CliError(`cannot read the token: ${(error as Error).message}`);
  });
  for (const stale of daemon.staleRuntimeFiles) {
    if (!stale.ended) output.err(`skillsd: ignoring the runtime file ${stale.file}: ${stale.reason}; removed\n`);
  }
  const client = new SkillsdClient({
    ...daemon,
    ...(explicitCwd === undefined ? {} : { cwd: explicitCwd }),
    ...viewsWait(explicitCwd ?? daemon.runtime?.cwd),
  });
  const context: CommandContext = {
    client,
    daemon,
    local: false,
    output,
    values,
    positionals,
    env,
    ...(daemon.source === 'option' || daemon.source === 'env' ? {} : { relocate: () => relocate(lookUp) }),
  };
  let notTrusted = false;
  try {
    return await command.run(context);
  } catch (error) {
    if (!isDaemonUnreachable(error)) return reportError(name, error, output);
    if (error instanceof DaemonNotTrustedError) {
      output.err(`skillsd: ${error.reason}\n`);
      notTrusted = true;
    }
    if (!command.inProcess) {
      if (!notTrusted) output.err(`skillsd: no daemon running (nothing answers at ${daemon.url})\n`);
      return EXIT.noDaemon;
    }
  }
  const cwd = explicitCwd ?? currentDirectory();
  const note = notTrusted
    ? `skillsd: answered in-process for ${cwd}\n`
    : `skillsd: no daemon running (nothing answers at ${daemon.url}); answered in-process for ${cwd}\n`;
  return runInProcess(name, command, context, note, cwd, profile as Profile | undefined);
}

async function runInProcess(
  name: string,
  command: ClientCommand,
  context: CommandContext,
  note: string,
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
  output.err(note);
  try {
    // The app answers inside this process: no socket, so no listener to check.
    const client = new SkillsdClient({ url: local.url, fetch: local.fetch, checkListener: false, ...viewsWait(cwd) });
    return await command.run({ ...context, client, daemon: undefined, local: true });
  } catch (error) {
    return reportError(name, error, output);
  } finally {
    await local.close();
  }
}

/**
 * The client's wait for the agent views, and its progress: on a terminal, one line on standard error rewritten in
 * place every second and erased when the wait ends; nothing when standard error is not a terminal. `cwd` is the
 * workspace, when the command knows it without asking.
 */
function viewsWait(cwd: string | undefined) {
  const where = cwd === undefined ? '' : ` of ${inline(cwd)}`;
  return {
    viewsWaitMs: VIEWS_WAIT_MS,
    onViewsWait(elapsedMs: number | undefined) {
      // Standard error is opened only once a wait begins: most commands never wait.
      if (process.stderr.isTTY !== true) return;
      const line =
        elapsedMs === undefined ? '' : `skillsd: computing the agent views${where}… ${Math.floor(elapsedMs / 1000)} s`;
      // One row, or rewriting it in place would leave the wrapped part behind.
      process.stderr.write(`\r\u001b[K${cut(line, (process.stderr.columns || 80) - 1)}`);
    },
  };
}

/**
 * The daemon a runtime file names now, for `watch` and `wait` after a lost connection (docs/cli.md "Following the
 * daemon"): a daemon started with `--port 0` comes back on another port. Only a runtime file is followed; without
 * one the address in use is kept.
 */
async function relocate(lookUp: () => Promise<DaemonLocation>): Promise<DaemonLocation | undefined> {
  const found = await lookUp();
  return found.source === 'runtime-file' ? found : undefined;
}

/**
 * An error answer, as one line: 400 is bad usage (exit 2), anything else a negative answer (exit 1). A multi-line
 * message (`Unknown skill: x` and its `Available:` line) is joined with `; `.
 */
function reportError(name: string, error: unknown, output: Output): number {
  if (error instanceof SkillsdApiError) {
    output.err(`skillsd: ${name}: ${error.message.replace(/\n/g, '; ')}\n`);
    return error.status === 400 ? EXIT.usage : EXIT.negative;
  }
  if (error instanceof CliError) {
    output.err(`skillsd: ${name}: ${error.message}\n`);
    return error.exitCode;
  }
  throw error;
}

/**
 * The daemon's address must be a whole URL: `localhost:7420`, as curl takes it, parses as a URL of the scheme
 * `localhost:` and would be reported as no daemon at all.
 */
function checkUrl(what: string, value: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'http:' || protocol === 'https:') return;
  const hint = /^[^:/]+:\d+(\/.*)?$/.test(value) ? ` (http://${value}?)` : '';
  throw new CliError(`${what}: expected an http:// or https:// URL, got ${JSON.stringify(value)}${hint}`);
}

function nonBlank(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}

/**
 * node:util parseArgs reports an unknown flag with advice about positional arguments that fits no command here:
 * the flag at fault and the flags the command takes instead (docs/cli.md "Errors").
 */
function parseErrorMessage(
  error: unknown,
  options: NonNullable<ParseArgsConfig['options']>,
  argv: readonly string[],
): string {
  const { code, message } = error as { code?: string; message: string };
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
    const known = Object.entries(options).map(([long, option]) =>
      long.length === 1 ? `-${long}` : option.short === undefined ? `--${long}` : `--${long}/-${option.short}`,
    );
    return `unknown option ${flag} (expected ${known.join(', ')})`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined) {
    if (/argument missing/.test(message)) return `option ${flag} needs a value`;
    // `--since -1`: parseArgs takes a value starting with a dash for another flag, and only `--since=-1` passes it.
    if (/argument is ambiguous/.test(message)) {
      const value = argv[argv.indexOf(flag) + 1] ?? '-VALUE';
      const written = flag.startsWith('--') ? `${flag}=${value}` : `${flag}${value}`;
      return `option ${flag} needs a value; one starting with "-" is written ${written}`;
    }
    return `option ${flag} takes no value`;
  }
  return message;
}

function helpText(command: ClientCommand): string {
  const lines = [`Usage: skillsd ${command.usage}`, '', command.summary, '', 'Options:'];
  for (const line of command.optionHelp ?? []) lines.push(`  ${line}`);
  for (const line of COMMON_HELP) lines.push(`  ${line}`);
  lines.push('', 'Exit codes: 0 ok, 1 a negative answer, 2 bad usage, 3 no daemon, 124 timeout.');
  return `${lines.join('\n')}\n`;
}
