// `skillsd serve [--host H] [--port N] [--cwd DIR] [--config FILE] [--profile P] [--token-file FILE] [--log-level L]
// [--log-format json|pretty]`
// (docs/api.md §Starting it). Every flag has an environment variable `SKILLSD_<FLAG>`; a flag wins over its variable.
// Pure: argv and env come in as arguments, so tests need no process.

import { readFileSync } from 'node:fs';
import type { Profile } from '../discovery/types.js';
import { CliError } from './cli-error.js';

export const PROFILES: readonly Profile[] = ['musepi', 'omp', 'xcsh'];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** `json` lines for log collectors (the default), `pretty` for people reading a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** What the command line set; `undefined` means "not given", so the config file or the default applies. */
export interface ServeOptions {
  host?: string;
  port?: number;
  cwd?: string;
  config?: string;
  profile?: Profile;
  tokenFile?: string;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
  /** `--allow-host` (repeatable) or SKILLSD_ALLOW_HOST (comma-separated): added to `server.allowedHosts`. */
  allowHosts?: string[];
  watchMode?: 'events' | 'poll';
  /** Milliseconds. */
  pollInterval?: number;
  generation?: 'counter' | 'content';
}

/** The client commands (docs/cli.md): each parses its own arguments (src/cli/commands/). */
export const CLIENT_COMMANDS = [
  'ls',
  'show',
  'cat',
  'prompt',
  'invoke',
  'search',
  'watch',
  'wait',
  'doctor',
  'status',
  'stop',
  'open',
  'agents',
  'catalog',
] as const;
export type ClientCommandName = (typeof CLIENT_COMMANDS)[number];

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'serve'; options: ServeOptions }
  | { kind: 'mcp'; options: ServeOptions }
  | { kind: 'client'; command: ClientCommandName; args: string[] };

/** `skillsd mcp` speaks on stdio: the flags of a listening socket mean nothing there. */
const SOCKET_FLAGS: readonly FlagName[] = ['host', 'port', 'tokenFile', 'allowHosts'];

/** Written to fit 80 columns, the width help is printed at when it goes to no terminal (docs/cli.md "Output"). */
export const USAGE = `Usage: skillsd serve [options]
       skillsd mcp [--cwd DIR] [--config FILE] [--profile NAME]
                   [--log-level LEVEL] [--log-format FORMAT]
       skillsd <command> [options]     (skillsd <command> --help for each)

Serves the skills of AI coding agents over HTTP and Server-Sent Events
(serve), or as an MCP server on stdin/stdout for hosts that launch their
servers (mcp; logs go to stderr).

Commands (clients of a running daemon; ls, show, cat, prompt, invoke, search,
doctor, agents and catalog compute the answer in-process when none runs):
  ls        the loaded skills          show NAME  one skill and what it shadowed
  cat NAME  a file of a skill          prompt     the system-prompt block
  invoke    expand "/skill:name args"  watch      a line per change of the index
  wait      until the index changes    doctor     why the index is what it is
  status    the running daemon         stop       stop the running daemon
  search    skills ranked by TEXT
  open      the daemon's page in a browser (or its URL)
  agents    what each agent loads      catalog    one agent's catalog and budget

Options (each also read from the environment variable shown; a flag wins):
  --host HOST        address to bind (SKILLSD_HOST, default 127.0.0.1; other
                     than loopback needs a token)
  --port PORT        port, 0 for a free one (SKILLSD_PORT, default 7420)
  --cwd DIR          default workspace (SKILLSD_CWD, default the current
                     directory)
  --config FILE      JSON or YAML settings, watched and re-applied live
                     (SKILLSD_CONFIG)
  --profile NAME     musepi, omp or xcsh (SKILLSD_PROFILE, default musepi)
  --token-file FILE  bearer token file, created with a new token when missing
                     (SKILLSD_TOKEN_FILE)
  --allow-host NAME  also answer requests with this Host name, repeatable
                     (SKILLSD_ALLOW_HOST, comma-separated; adds to
                     server.allowedHosts)
  --log-level LEVEL  ${LOG_LEVELS.join(', ')}
                     (SKILLSD_LOG_LEVEL, default info)
  --log-format FMT   json (lines for log collectors) or pretty (for people)
                     (SKILLSD_LOG_FORMAT, default json)
  --watch-mode MODE  events, or poll where file events do not arrive
                     (SKILLSD_WATCH_MODE, default events)
  --poll-interval MS poll period of --watch-mode poll (SKILLSD_POLL_INTERVAL,
                     default 1000)
  --generation KIND  counter, or content for replicas that must agree
                     (SKILLSD_GENERATION, default counter)
  -h, --help         print this help
  -v, --version      print the version
`;

type FlagName = keyof ServeOptions;

const FLAGS: Record<string, FlagName> = {
  '--host': 'host',
  '--port': 'port',
  '--cwd': 'cwd',
  '--config': 'config',
  '--profile': 'profile',
  '--token-file': 'tokenFile',
  '--log-level': 'logLevel',
  '--log-format': 'logFormat',
  '--allow-host': 'allowHosts',
  '--watch-mode': 'watchMode',
  '--poll-interval': 'pollInterval',
  '--generation': 'generation',
};

const ENV_VARS: Record<FlagName, string> = {
  host: 'SKILLSD_HOST',
  port: 'SKILLSD_PORT',
  cwd: 'SKILLSD_CWD',
  config: 'SKILLSD_CONFIG',
  profile: 'SKILLSD_PROFILE',
  tokenFile: 'SKILLSD_TOKEN_FILE',
  logLevel: 'SKILLSD_LOG_LEVEL',
  logFormat: 'SKILLSD_LOG_FORMAT',
  allowHosts: 'SKILLSD_ALLOW_HOST',
  watchMode: 'SKILLSD_WATCH_MODE',
  pollInterval: 'SKILLSD_POLL_INTERVAL',
  generation: 'SKILLSD_GENERATION',
};

const PORT = /^\d{1,5}$/;

/** Throws `CliError` (exit 2) with a one-line message naming the flag or variable and the problem. */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Command {
  const first = argv[0];
  if ((CLIENT_COMMANDS as readonly string[]).includes(first ?? '')) {
    return { kind: 'client', command: first as ClientCommandName, args: argv.slice(1) };
  }
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
  if (argv.some((arg) => arg === '--version' || arg === '-v')) return { kind: 'version' };

  const positional: string[] = [];
  const fromFlags: Record<string, string> = {};
  const allowHosts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const flag = equals < 0 ? arg : arg.slice(0, equals);
    const name = FLAGS[flag];
    if (name === undefined) throw new CliError(`unknown option ${flag}`);
    let value: string | undefined;
    if (equals >= 0) value = arg.slice(equals + 1);
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i++;
      }
    }
    if (value === undefined) throw new CliError(`option ${flag} needs a value`);
    if (name === 'allowHosts') allowHosts.push(value);
    else fromFlags[name] = value;
  }

  const [command, ...extra] = positional;
  if (command === 'help') return { kind: 'help' };
  if (command === 'version') return { kind: 'version' };
  if (command === undefined) throw new CliError('missing command: use "skillsd serve"');
  if (command !== 'serve' && command !== 'mcp') {
    throw new CliError(`unknown command "${command}" (expected serve, mcp, ${CLIENT_COMMANDS.join(', ')})`);
  }
  if (extra.length > 0) throw new CliError(`unexpected argument "${extra[0]}"`);

  const options: ServeOptions = {};
  if (allowHosts.length > 0) options.allowHosts = allowHosts.map((host) => nonEmpty(host, 'option --allow-host'));
  else if (env.SKILLSD_ALLOW_HOST) {
    options.allowHosts = env.SKILLSD_ALLOW_HOST.split(',')
      .map((host) => host.trim())
      .filter((host) => host !== '');
  }
  for (const name of Object.values(FLAGS)) {
    if (name === 'allowHosts') continue;
    const flagValue = fromFlags[name];
    const envValue = env[ENV_VARS[name]];
    // An empty variable counts as unset, as shells leave `SKILLSD_PORT=` behind easily.
    if (flagValue !== undefined) setOption(options, name, flagValue, `option --${kebab(name)}`);
    else if (envValue !== undefined && envValue !== '') setOption(options, name, envValue, ENV_VARS[name]);
  }
  if (command === 'mcp') {
    const socketFlag = Object.keys(FLAGS).find(
      (flag) =>
        SOCKET_FLAGS.includes(FLAGS[flag] as FlagName) &&
        argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`)),
    );
    if (socketFlag !== undefined) throw new CliError(`option ${socketFlag} does not apply to "skillsd mcp" (stdio)`);
    return { kind: 'mcp', options };
  }
  return { kind: 'serve', options };
}

function nonEmpty(value: string, origin: string): string {
  if (value === '') throw new CliError(`${origin} needs a non-empty value`);
  return value;
}

function setOption(options: ServeOptions, name: FlagName, value: string, origin: string): void {
  if (value === '') throw new CliError(`${origin} needs a non-empty value`);
  switch (name) {
    case 'port': {
      const port = Number(value);
      if (!PORT.test(value) || port > 65535) {
        throw new CliError(`${origin}: "${value}" is not a port (an integer from 0 to 65535)`);
      }
      options.port = port;
      return;
    }
    case 'profile':
      if (!(PROFILES as readonly string[]).includes(value)) {
        throw new CliError(`${origin}: unknown profile "${value}" (expected ${PROFILES.join(', ')})`);
      }
      options.profile = value as Profile;
      return;
    case 'logLevel':
      if (!(LOG_LEVELS as readonly string[]).includes(value)) {
        throw new CliError(`${origin}: unknown log level "${value}" (expected ${LOG_LEVELS.join(', ')})`);
      }
      options.logLevel = value as LogLevel;
      return;
    case 'logFormat':
      if (!(LOG_FORMATS as readonly string[]).includes(value)) {
        throw new CliError(`${origin}: unknown log format "${value}" (expected ${LOG_FORMATS.join(', ')})`);
      }
      options.logFormat = value as LogFormat;
      return;
    case 'watchMode':
      if (value !== 'events' && value !== 'poll') {
        throw new CliError(`${origin}: unknown watch mode "${value}" (expected events, poll)`);
      }
      options.watchMode = value;
      return;
    case 'pollInterval': {
      const ms = Number(value);
      if (!/^\d{1,7}$/.test(value) || ms < 50 || ms > 3_600_000) {
        throw new CliError(`${origin}: "${value}" is not a poll interval (milliseconds from 50 to 3600000)`);
      }
      options.pollInterval = ms;
      return;
    }
    case 'generation':
      if (value !== 'counter' && value !== 'content') {
        throw new CliError(`${origin}: unknown generation "${value}" (expected counter, content)`);
      }
      options.generation = value;
      return;
    case 'allowHosts':
      return;
    default:
      options[name] = value;
  }
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The package version; `src/cli/` and `dist/cli/` both sit two levels below package.json. */
export function readVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
