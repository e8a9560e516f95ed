// Every child process a benchmark starts is registered here, so an error or Ctrl-C anywhere still stops them all
// (each one by its own pid, never by name).

import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs` if it is still running; resolves when it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((child) => stopChild(child, 2000)));
}

export function liveCount(): number {
  return live.size;
}
