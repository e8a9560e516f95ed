// Reading the resident memory of an idle server the way a user would see it: VmRSS from /proc, split into private
// memory and mapped files, a moment after its first answer, and again after it has been left alone long enough for
// V8's memory reducer to give back what the start grew (some 10-20 s later here, not on a schedule the server
// controls; the daemon gives it back itself once its watcher is armed, docs/memory.md "After the start").

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ServerProcess, spawnServer, waitForStatus } from './server-process.js';

export const MINIMAL_FASTIFY = fileURLToPath(new URL('../servers/minimal-fastify.mjs', import.meta.url));

/** How long after its first answer a server is read, so that the answer's own garbage is not counted. */
export const FIRST_READING_MS = 1000;

/**
 * A process's resident memory from `/proc/<pid>/status`, in bytes. `total` is VmRSS, what `ps` and `top` show; it is
 * the sum of the process's private memory (`anon`, RssAnon: its heaps, stacks and buffers) and of the pages of files
 * it maps (`file`, RssFile and RssShmem: mostly the `node` binary, whose touched pages every node process shares and
 * the kernel can drop and read again). Each is NaN when its line is missing (a kernel thread, a zombie).
 */
export interface Resident {
  total: number;
  anon: number;
  file: number;
}

function statusKiB(status: string, field: string): number {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return line === null ? Number.NaN : Number(line[1]) * 1024;
}

export function residentOfStatus(status: string): Resident {
  return {
    total: statusKiB(status, 'VmRSS'),
    anon: statusKiB(status, 'RssAnon'),
    file: statusKiB(status, 'RssFile') + statusKiB(status, 'RssShmem'),
  };
}

export function residentOf(pid: number): Resident {
  return residentOfStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

export interface IdleReadings {
  /** `FIRST_READING_MS` after the first 200 from `path`. */
  afterFirstAnswer: Resident;
  /** `settleMs` after that. */
  settled: Resident;
}

/** Waits for the first 200 from `path`, then reads the server's resident memory twice, as IdleReadings says. */
export async function readIdle(server: ServerProcess, path: string, settleMs: number): Promise<IdleReadings> {
  await waitForStatus(server, path, 200, 60_000);
  await new Promise((resolve) => setTimeout(resolve, FIRST_READING_MS));
  const afterFirstAnswer = residentOf(server.child.pid ?? 0);
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return { afterFirstAnswer, settled: residentOf(server.child.pid ?? 0) };
}

/** The minimal Fastify app (servers/minimal-fastify.mjs) on a free loopback port. */
export function spawnMinimalFastify(): Promise<ServerProcess> {
  return spawnServer({
    args: (port) => [MINIMAL_FASTIFY, String(port)],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
