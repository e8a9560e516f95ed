// Runs one client command (docs/cli.md): parses its flags, finds the daemon (--url, SKILLSD_URL, the runtime
// file, the default port), and runs the command against it for `--cwd`, else the directory it runs in (docs/cli.md
// "Which workspace answers"); when no daemon answers, a read-only command is answered in-process for that directory
// and says so on stderr, the others exit 3. A daemon that is not the user's own (docs/cli.md "Trusting only your own
// daemon"), or that refuses the directory (`server.allowedWorkspaces`), counts as none, after one line saying what
// was found there. A command that reads the agent views waits while the daemon computes them (docs/cli.md
// "Commands").

import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { DaemonNotTrustedError, isDaemonUnreachable, SkillsdApiError } from '../client/errors.js';
import { type DaemonLocation, findDaemon, findWorkspaceDaemon } from '../client/find-daemon.js';
import { SkillsdClient } from '../client/skillsd-client.js';
import type { Profile } from '../discovery/types.js';
import { CliError } from './cli-error.js';
import { type ClientCommand, type CommandContext, EXIT, type OptionValues } from './commands/command.js';
import { currentDirectory } from './current-directory.js';
import { createOutput, cut, inline, type Output } from './output.js';
import { type ClientCommandName, PROFILES } from './parse-args.js';
import { wrapHelp } from './terminal-text.js';

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

/** How often `watch` and `wait` look for the runtime file of the daemon they lost while it starts again. */
const RELOCATE_POLL_MS = 200;

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
  '--cwd DIR          the workspace to answer for (sent as ?cwd=; default: the current directory)',
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
    // Wrapped to the terminal (or COLUMNS); a pipe without COLUMNS gets it whole (docs/cli.md "Output").
    const text = helpText(command);
    output.out(output.columns === undefined ? text : wrapHelp(text, output.columns));
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

  const here = explicitCwd ?? currentDirectory();
  const tokenFile = typeof values['token-file'] === 'string' ? { tokenFile: values['token-file'] } : {};
  const daemon = await findDaemon({
    env,
    home: homedir(),
    cwd: here,
    ...(typeof values.url === 'string' ? { url: values.url } : {}),
    ...tokenFile,
  }).catch((error: unknown) => {
    throw new CliError(`cannot read the token: ${(error as Error).message}`);
  });
  for (const stale of daemon.staleRuntimeFiles) {
    if (!stale.ended) output.err(`skillsd: ignoring the runtime file ${stale.file}: ${stale.reason}; removed\n`);
  }
  const workspace = name === 'stop' ? explicitCwd : (explicitCwd ?? impliedWorkspace(daemon, here));
  const client = new SkillsdClient({
    ...daemon,
    ...(workspace === undefined ? {} : { cwd: workspace }),
    ...viewsWait(workspace ?? daemon.runtime?.cwd),
  });
  // Ended once the command returns: a `watch` or `wait` waiting for its daemon to come back stops waiting.
  const relocation = new AbortController();
  // Only a daemon started in the workspace of the one found now is followed (docs/cli.md "Following the daemon");
  // one found without a runtime file is kept at its address, as is one given by `--url` or `SKILLSD_URL`.
  const followed = daemon.source === 'option' || daemon.source === 'env' ? undefined : daemon.runtime?.cwd;
  const context: CommandContext = {
    client,
    daemon,
    local: false,
    output,
    values,
    positionals,
    env,
    ...(followed === undefined
      ? {}
      : {
          relocate: () =>
            relocate(
              () => findWorkspaceDaemon({ env, home: homedir(), workspace: followed, ...tokenFile }),
              relocation.signal,
            ),
        }),
  };
  let none: NoDaemon | undefined;
  try {
    return await command.run(context);
  } catch (error) {
    none = noDaemon(error, daemon, here);
    if (none === undefined) return reportError(name, error, output);
  } finally {
    relocation.abort();
  }
  if (none.found !== undefined) output.err(`skillsd: ${none.found}\n`);
  if (!command.inProcess) {
    if (none.why !== undefined) output.err(`skillsd: ${none.why}\n`);
    return EXIT.noDaemon;
  }
  const note = `skillsd: ${none.why === undefined ? '' : `${none.why}; `}answered in-process for ${here}\n`;
  return runInProcess(name, command, context, note, here, profile as Profile | undefined);
}

/** The daemon found does not answer for the directory: what was found there, and why it counts as none. */
interface NoDaemon {
  /** A line of its own: what listens there instead of a daemon of this user. */
  found?: string;
  /** Why no daemon answers, for the line that says what the command does instead. */
  why?: string;
}

/**
 * Whether `error` means that no daemon of this user answers for `dir` (docs/cli.md "Commands"): nothing answers, a
 * listener of another user (docs/cli.md "Trusting only your own daemon"), or a daemon that refuses the directory
 * (docs/cli.md "Which workspace answers"); undefined for every other error.
 */
function noDaemon(error: unknown, daemon: DaemonLocation, dir: string): NoDaemon | undefined {
  const refused = refusedWorkspace(error);
  if (refused !== undefined) {
    const started = daemon.runtime === undefined ? '' : ` (started in ${inline(daemon.runtime.cwd)})`;
    return { why: `the daemon at ${daemon.url}${started} does not serve ${inline(dir)}: ${refused}` };
  }
  if (error instanceof DaemonNotTrustedError) return { found: error.reason };
  if (isDaemonUnreachable(error)) return { why: `no daemon running (nothing answers at ${daemon.url})` };
  return undefined;
}

/**
 * The workspace a command without `--cwd` asks for (docs/cli.md "Which workspace answers"): the directory it runs
 * in, sent to a daemon that reads the file system the client runs on, where that path names the same directory: one
 * found through its runtime file or at the default address, or given by a loopback URL. Nothing is sent to a daemon
 * started in that very directory (its default workspace is the same one), nor to one given by another address (in a
 * container, on another machine: docs/deploy.md), which answers for its own workspace.
 */
function impliedWorkspace(daemon: DaemonLocation, here: string): string | undefined {
  if (here === daemon.runtime?.cwd) return undefined;
  if (daemon.source === 'runtime-file' || daemon.source === 'default') return here;
  const host = new URL(daemon.url).hostname;
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return loopback ? here : undefined;
}

/**
 * Why the daemon refused the workspace asked for, or undefined for any other error: 403 `ForbiddenWorkspace` (a
 * directory of another user, a path through another user's link) or the 400 `BadRequest` it answers for a directory
 * a non-empty `server.allowedWorkspaces` does not name (docs/index-and-events.md "Workspaces"), which has no code of
 * its own and is told by its message.
 */
function refusedWorkspace(error: unknown): string | undefined {
  if (!(error instanceof SkillsdApiError)) return undefined;
  const because = error.message.replace(/^cwd is not an allowed workspace/, '');
  if (because === error.message) return undefined;
  if (error.code === 'ForbiddenWorkspace') return inline(because.replace(/^: /, ''));
  if (error.code === 'BadRequest' && because.startsWith(' (server.allowedWorkspaces)')) {
    return 'its server.allowedWorkspaces does not name it';
  }
  return undefined;
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
 * The daemon to reconnect to, for `watch` and `wait` after a lost connection (docs/cli.md "Following the daemon"):
 * the one `find` finds, a daemon of the same workspace and user, found through its runtime file on whatever port it
 * came back on. While none runs, it waits for one to start (its runtime file appears once it listens), until
 * `signal` ends the wait (then undefined): reconnecting to the old address meanwhile could reach another
 * workspace's daemon started on that port.
 */
async function relocate(
  find: () => Promise<DaemonLocation | undefined>,
  signal: AbortSignal,
): Promise<DaemonLocation | undefined> {
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    await delay(RELOCATE_POLL_MS, signal);
    if (signal.aborted) return undefined;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
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
