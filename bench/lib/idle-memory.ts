// Reading the resident memory of an idle server the way a user would see it: VmRSS from /proc, a moment after its
// first answer, and again after it has been left alone long enough for V8's memory reducer to give back what the
// start grew (some 10-20 s later here, not on a schedule the server controls).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ServerProcess, spawnServer, waitForStatus } from './server-process.js';

export const MINIMAL_FASTIFY = fileURLToPath(new URL('../servers/minimal-fastify.mjs', import.meta.url));

/** How long after its first answer a server is read, so that the answer's own garbage is not counted. */
export const FIRST_READING_MS = 1000;

/** The VmRSS line of a `/proc/<pid>/status` text, in bytes; NaN when there is none. */
export function vmRssOfStatus(status: string): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return line === null ? Number.NaN : Number(line[1]) * 1024;
}

export function vmRssBytes(pid: number): number {
  return vmRssOfStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

export interface IdleReadings {
  /** VmRSS `FIRST_READING_MS` after the first 200 from `path`. */
  afterFirstAnswer: number;
  /** VmRSS `settleMs` after that. */
  settled: number;
}

/** Waits for the first 200 from `path`, then reads the server's VmRSS twice, as IdleReadings says. */
export async function readIdle(server: ServerProcess, path: string, settleMs: number): Promise<IdleReadings> {
  await waitForStatus(server, path, 200, 60_000);
  await new Promise((resolve) => setTimeout(resolve, FIRST_READING_MS));
  const afterFirstAnswer = vmRssBytes(server.child.pid ?? 0);
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return { afterFirstAnswer, settled: vmRssBytes(server.child.pid ?? 0) };
}

/** The minimal Fastify app (servers/minimal-fastify.mjs) on a free loopback port. */
export function spawnMinimalFastify(): Promise<ServerProcess> {
  return spawnServer({
    args: (port) => [MINIMAL_FASTIFY, String(port)],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
