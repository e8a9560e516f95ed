// Starting the daemon (and the bare comparison servers) as child processes on loopback, and waiting until they answer.
// Stdout goes to a log file, not a pipe: the benchmark process then spends no CPU parsing the daemon's per-request
// log lines while it is also the load generator.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild, track } from './processes.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** SKILLSD_BENCH_CLI: another build's cli.js (a copy of dist/ kept from before a change), to compare two builds. */
export const DAEMON_CLI = process.env.SKILLSD_BENCH_CLI ?? join(REPO_ROOT, 'dist', 'cli.js');
/**
 * What a user runs: the package's bin beside that cli.js (package.json `bin`), which answers `--version` itself and
 * hands every other command line to cli.js; in a build from before the bin existed, cli.js itself.
 */
export const CLIENT_BIN = existsSync(join(dirname(DAEMON_CLI), 'skillsd.cjs'))
  ? join(dirname(DAEMON_CLI), 'skillsd.cjs')
  : DAEMON_CLI;
export const BARE_SERVER = fileURLToPath(new URL('../servers/bare-http.mjs', import.meta.url));

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  /** Date.now() just before spawn (to compare with the `time` of the server's log lines). */
  spawnedAtEpoch: number;
  logFile: string;
  stop(): Promise<void>;
  /**
   * Starts the server again on another free port, the fields above then naming the new process: `waitForStatus`
   * calls it when the port was taken between its release by `freePort` and the server's bind.
   */
  respawn(): Promise<void>;
}

export interface SpawnOptions {
  /** The server's arguments for a port. */
  args: (port: number) => string[];
  env?: NodeJS.ProcessEnv;
}

/** A port that was free a moment ago (bound and released on 127.0.0.1). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Spawns `node <args>` on a free port, with stdout and stderr to a log file in a fresh temp directory. */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  const logDir = await mkdtemp(join(tmpdir(), 'skillsd-bench-log-'));
  const logFile = join(logDir, 'server.log');
  const start = async () => {
    const port = await freePort();
    const log = await open(logFile, 'w');
    const spawnedAtEpoch = Date.now();
    const spawnedAt = performance.now();
    const child = track(
      spawn(process.execPath, options.args(port), {
        env: options.env ?? process.env,
        stdio: ['ignore', log.fd, log.fd],
      }),
    );
    await log.close();
    return { url: `http://127.0.0.1:${port}`, port, child, spawnedAt, spawnedAtEpoch };
  };
  const server: ServerProcess = {
    ...(await start()),
    logFile,
    stop: async () => {
      await stopChild(server.child);
      await rm(logDir, { recursive: true, force: true });
    },
    respawn: async () => {
      await stopChild(server.child);
      Object.assign(server, await start());
    },
  };
  return server;
}

/** The daemon serving `workspace` with HOME = `home`, on a free loopback port. */
export function spawnDaemon(home: string, workspace: string, extraArgs: string[] = []): Promise<ServerProcess> {
  return spawnServer({
    args: (port) => [
      DAEMON_CLI,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--cwd',
      workspace,
      ...extraArgs,
    ],
    env: daemonEnv(home),
  });
}

/** The bare `node:http` comparison server; `config` is a JSON file of routes (none: a static body everywhere). */
export function spawnBareServer(config?: string): Promise<ServerProcess> {
  return spawnServer({ args: (port) => [BARE_SERVER, String(port), ...(config === undefined ? [] : [config])] });
}

/** The environment of the benchmark minus everything that would change what the daemon discovers or binds. */
function daemonEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('SKILLSD_') || key === 'CLAUDE_CONFIG_DIR' || key === 'PI_CODING_AGENT_DIR') continue;
    env[key] = value;
  }
  env.HOME = home;
  env.NODE_ENV = 'production';
  return env;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One GET on a fresh connection (no agent, so connection errors surface at once). */
export function httpGet(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: GET ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Polls `url` until it answers `status`, every `intervalMs`; resolves with performance.now() of the first such answer.
 * Fails when the process exits or after `timeoutMs`; a process that exits because another took its port in the
 * moment after `freePort` released it is started again on another.
 */
export async function waitForStatus(
  server: ServerProcess,
  path: string,
  status: number,
  timeoutMs: number,
  intervalMs = 2,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      const log = await logTail(server);
      // Node's own error (the comparison servers) or the daemon's message for it (src/cli/listen-daemon.ts).
      if (log.includes('EADDRINUSE') || log.includes(`port ${server.port} is already in use`)) {
        await server.respawn();
        continue;
      }
      throw new Error(`server exited (${server.child.exitCode ?? server.child.signalCode}): ${log}`);
    }
    try {
      const answer = await httpGet(`${server.url}${path}`, {}, 5_000);
      if (answer.status === status) return performance.now();
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline)
      throw new Error(`no ${status} from ${path} after ${timeoutMs} ms: ${await logTail(server)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export async function logTail(server: ServerProcess, chars = 2000): Promise<string> {
  try {
    return (await readFile(server.logFile, 'utf8')).slice(-chars);
  } catch {
    return '(no log)';
  }
}

/**
 * The first log line whose `msg` contains the listening URL, as the CLI contract promises (docs/api.md §Starting it), with
 * its pino `time` (epoch ms).
 */
export async function listeningLine(server: ServerProcess): Promise<{ line: string; time: number } | undefined> {
  const text = await readFile(server.logFile, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const parsed = JSON.parse(line) as { msg?: unknown; time?: unknown };
      if (typeof parsed.msg === 'string' && parsed.msg.includes(server.url)) {
        return { line, time: typeof parsed.time === 'number' ? parsed.time : Number.NaN };
      }
    } catch {
      // Not a JSON line (a stack trace, a warning).
    }
  }
  return undefined;
}
