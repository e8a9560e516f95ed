// A child process spoken to in JSON lines over stdio (Codex's app-server, Claude Code's stream-json mode, Copilot
// CLI's headless server): send a message, wait for the first line that matches, end the whole process group.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export class JsonLinesProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every parsed line received so far, in order. */
  readonly lines: unknown[] = [];
  stderr = '';
  /** Raw stdout lines that were not JSON (banners, logs), for the report. */
  readonly other: string[] = [];
  private partial = '';
  private waiters: Array<{ match: (line: unknown) => boolean; resolve: (line: unknown) => void }> = [];
  private exitError: Error | null = null;
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'pipe', detached: true });
    this.child.stdin.on('error', () => {});
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code) => {
        this.exitError = new Error(
          `the process ended (code ${code}) before answering; stderr: ${this.stderr.slice(-2000)}`,
        );
        resolve(code);
      });
      this.child.on('error', (error) => {
        this.exitError = error;
        resolve(null);
      });
    });
  }

  /** Writes one message as a JSON line (or a raw line when given a string). */
  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** The first line received (already or later) that `match` accepts; rejects at the time limit or on exit. */
  async next<T = unknown>(matchLine: (line: T) => boolean, timeoutMs: number): Promise<T> {
    // Lines are whatever the process printed: the caller's predicate is what narrows them to T.
    const match = matchLine as (line: unknown) => boolean;
    const seen = this.lines.find(match);
    if (seen !== undefined) return seen as T;
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (line: unknown) => {
          clearTimeout(timer);
          resolve(line as T);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching line within ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
      void this.exited.then(() => {
        if (!this.waiters.includes(waiter)) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(this.exitError ?? new Error('the process ended before answering'));
      });
    });
  }

  /** Kills the whole process group and waits for the exit. */
  async close(): Promise<void> {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
  }

  private receive(chunk: string): void {
    this.partial += chunk;
    let newline = this.partial.indexOf('\n');
    while (newline !== -1) {
      const text = this.partial.slice(0, newline).trim();
      this.partial = this.partial.slice(newline + 1);
      newline = this.partial.indexOf('\n');
      if (text === '') continue;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        this.other.push(text);
        continue;
      }
      this.lines.push(line);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(line)) {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          waiter.resolve(line);
        }
      }
    }
  }
}
