// Runs one measurement in a fresh Node process, so its RSS, heap and module caches start from nothing.
// The child prints its result as one JSON line prefixed with RESULT_PREFIX on stdout.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopChild, track } from './processes.js';

export const RESULT_PREFIX = 'BENCH_RESULT ';
const TSX = ['--import', 'tsx'];

export interface ChildOptions {
  /** Extra node flags (e.g. `--expose-gc`). */
  nodeFlags?: string[];
  /** Kill the child and fail after this long. */
  timeoutMs: number;
}

/** Runs `script` (a TypeScript file under bench/) with `input` as its JSON argument; resolves with its result. */
export async function runChild<T>(script: URL, input: unknown, options: ChildOptions): Promise<T> {
  const child = track(
    spawn(process.execPath, [...TSX, ...(options.nodeFlags ?? []), fileURLToPath(script), JSON.stringify(input)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => void stopChild(child, 1000), options.timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (code !== 0 || line === undefined) {
    throw new Error(
      `${fileURLToPath(script)} exited with ${code}: ${stderr.trim().slice(-2000) || stdout.slice(-2000)}`,
    );
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}

/** In the child: the JSON argument. */
export function childInput<T>(): T {
  const raw = process.argv[2];
  if (raw === undefined) throw new Error('missing JSON argument');
  return JSON.parse(raw) as T;
}

/** In the child: hands the result back and lets the process end. */
export function childResult(result: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}
