// Runs the built CLI (`node dist/cli.js …`) as users do. Every child is killed when the test file ends, even when a
// test fails halfway, so no daemon outlives the suite.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WAIT_MS } from './deadlines.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Variables that would leak the developer's own setup into a test daemon. Without XDG_RUNTIME_DIR a daemon's runtime
 * file goes under the test's own HOME, where no other daemon or client of the machine sees it.
 */
const SCRUBBED = /^(SKILLSD_|PI_CODING_AGENT_DIR$|CLAUDE_CONFIG_DIR$|NODE_OPTIONS$|XDG_RUNTIME_DIR$|NO_COLOR$)/;

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface SpawnOptions {
  home: string;
  env?: Record<string, string>;
  /** The child's working directory (default: the repository). */
  cwd?: string;
  /** Run as this user and group (the daemon as an unprivileged user, where permissions really deny). */
  uid?: number;
  gid?: number;
  /** A command the daemon runs under, e.g. `['unshare', '-U', '-r', 'sh', '-c', 'limit; exec "$@"', 'sh']`. */
  wrapper?: string[];
  /** The script `node` runs (default: `CLI`, the program; the package's bin is `dist/skillsd.cjs`). */
  script?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export class DaemonProcess {
  readonly child: ChildProcess;
  readonly logs: LogLine[] = [];
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly watchers: Array<() => void> = [];

  constructor(args: string[], options: SpawnOptions) {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !SCRUBBED.test(key)) env[key] = value;
    }
    Object.assign(env, { HOME: options.home }, options.env);
    const [command, ...prefix] = [...(options.wrapper ?? []), process.execPath, options.script ?? CLI, ...args];
    this.child = spawn(command!, prefix, {
      cwd: options.cwd ?? REPO,
      env,
      stdio: 'pipe',
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    live.add(this.child);
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        live.delete(this.child);
        resolve({ code, signal });
        this.notify();
      });
    });
    let partial = '';
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        try {
          this.logs.push(JSON.parse(line) as LogLine);
        } catch {
          // Not a log line (e.g. --help output): kept in `stdout` only.
        }
      }
      this.notify();
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.notify();
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first log line matching `predicate`; rejects at the deadline or when the process exits. */
  waitForLog(predicate: (line: LogLine) => boolean, deadlineMs = WAIT_MS): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(`no matching log line within ${deadlineMs} ms; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`),
        );
      }, deadlineMs);
      const check = () => {
        const found = this.logs.find(predicate);
        if (found !== undefined) {
          finish();
          resolve(found);
        } else if (!this.running) {
          finish();
          reject(new Error(`the daemon exited; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`));
        }
      };
      const finish = () => {
        clearTimeout(timer);
        const index = this.watchers.indexOf(check);
        if (index >= 0) this.watchers.splice(index, 1);
      };
      this.watchers.push(check);
      check();
    });
  }

  /** Resolves once stderr matches `pattern`; rejects at the deadline or when the process exits without it. */
  waitForStderr(pattern: RegExp, deadlineMs = WAIT_MS): Promise<void> {
    return this.waitForText('stderr', pattern, deadlineMs);
  }

  /** Resolves once stdout (the whole text, log lines or not) matches `pattern`; rejects as `waitForStderr`. */
  waitForStdout(pattern: RegExp, deadlineMs = WAIT_MS): Promise<void> {
    return this.waitForText('stdout', pattern, deadlineMs);
  }

  private waitForText(stream: 'stdout' | 'stderr', pattern: RegExp, deadlineMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${stream} did not match ${pattern} within ${deadlineMs} ms; ${stream}:\n${this[stream]}`));
      }, deadlineMs);
      const check = () => {
        if (pattern.test(this[stream])) {
          finish();
          resolve();
        } else if (!this.running) {
          finish();
          reject(new Error(`the process exited; ${stream}:\n${this[stream]}`));
        }
      };
      const finish = () => {
        clearTimeout(timer);
        const index = this.watchers.indexOf(check);
        if (index >= 0) this.watchers.splice(index, 1);
      };
      this.watchers.push(check);
      check();
    });
  }

  /** Waits for the process to end (with a deadline), returning its exit. */
  async waitForExit(deadlineMs = WAIT_MS): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still running after ${deadlineMs} ms`)), deadlineMs);
    });
    try {
      return await Promise.race([this.exited, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILLs the process if it still runs; safe to call more than once. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

export interface RunningDaemon {
  process: DaemonProcess;
  /** `http://127.0.0.1:<port>` (or the bound address) from the listening log line. */
  url: string;
  port: number;
}

const LISTENING = /skillsd listening on (http:\/\/\S+)/;
/**
 * Loading the daemon's modules costs ~0.6 s of CPU: with the whole suite sharing two busy cores, a start can take
 * several seconds. Only a failing start waits this long (an early exit rejects at once).
 */
const STARTUP_DEADLINE_MS = 30_000;

/** Spawns `skillsd <args>` and waits for its listening line. The caller must `kill()` it (use `t.after`). */
export async function startDaemon(args: string[], options: SpawnOptions): Promise<RunningDaemon> {
  const daemon = new DaemonProcess(args, options);
  try {
    const line = await daemon.waitForLog((log) => LISTENING.test(log.msg), STARTUP_DEADLINE_MS);
    const url = LISTENING.exec(line.msg)?.[1] ?? '';
    return { process: daemon, url, port: Number(new URL(url).port) };
  } catch (error) {
    await daemon.kill();
    throw error;
  }
}

/** Runs `skillsd <args>` to completion (for commands that exit by themselves). */
export async function runCli(
  args: string[],
  options: SpawnOptions,
): Promise<Exit & { stdout: string; stderr: string }> {
  const daemon = new DaemonProcess(args, options);
  try {
    const exit = await daemon.waitForExit();
    return { ...exit, stdout: daemon.stdout, stderr: daemon.stderr };
  } finally {
    await daemon.kill();
  }
}
