// Runs one agent command: a clean environment, a working directory, optional stdin, and a hard time limit. The
// harness itself runs inside a fresh network namespace (docs/conformance.md "Offline"), so every child is offline.

import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the time limit or the caller's signal ended the process. */
  killed: boolean;
}

export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed (absent: stdin is closed at once). */
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Runs `command args` to its end; the whole process group is killed at the time limit. */
export function runProcess(command: string, args: string[], options: ProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'pipe', detached: true });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const kill = () => {
      killed = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(kill, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      // The group may hold helpers the agent left behind (a language server, a watcher): end them too.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // none left
        }
      }
      resolve({ code, signal, stdout, stderr, killed });
    });
  });
}
