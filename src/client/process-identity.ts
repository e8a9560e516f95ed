// Which process a pid names, as far as the platform tells (docs/cli.md "Trusting only your own daemon").
//
// A pid is only a number: once its process ends, any other process (another user's, after enough forks or a
// reboot) may get it. A runtime file therefore records its daemon's start time, which the kernel gives every process
// (`/proc/<pid>/stat`, field 22, in clock ticks since boot) together with the boot's id
// (`/proc/sys/kernel/random/boot_id`): the same pid, boot and start time is the same process.

import { readFileSync } from 'node:fs';

export interface ProcessStart {
  /** The boot the process runs in. */
  bootId: string;
  /** When it started, in clock ticks since that boot. */
  startTicks: number;
}

/** Field 22 of `/proc/<pid>/stat`, counted from 1: fields 3 onwards follow the `)` that ends the command name. */
const START_FIELD_AFTER_NAME = 22 - 3;

/** The start of process `pid`, or undefined where the platform does not say (no `/proc`) or no such process runs. */
export function processStart(pid: number): ProcessStart | undefined {
  const stat = readSmall(`/proc/${pid}/stat`);
  const bootId = currentBootId();
  if (stat === undefined || bootId === undefined) return undefined;
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses: the last `)` ends it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // A process that has exited but that its parent has not reaped yet (state Z, or X while it goes) runs no more:
  // `skillsd stop` waits for the daemon's exit, not for whoever started it to collect the exit status.
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  const startTicks = Number(fields[START_FIELD_AFTER_NAME]);
  if (!Number.isSafeInteger(startTicks) || startTicks < 0) return undefined;
  return { bootId, startTicks };
}

/** The real and effective uids of process `pid` (`/proc/<pid>/status`), or undefined where the platform does not say. */
export function processUids(pid: number): { real: number; effective: number } | undefined {
  const status = readSmall(`/proc/${pid}/status`);
  const line = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status ?? '');
  if (line === null) return undefined;
  return { real: Number(line[1]), effective: Number(line[2]) };
}

/** Whether this platform describes processes in `/proc` (Linux): otherwise only `kill(pid, 0)` can be asked. */
export function hasProcFs(): boolean {
  // Asked once per process: the answer cannot change while it runs.
  procFs ??= processStart(process.pid) !== undefined;
  return procFs;
}

let procFs: boolean | undefined;
/** The boot id, read once: this process runs within one boot. */
let bootIdRead: string | undefined;

function currentBootId(): string | undefined {
  if (bootIdRead === undefined) {
    const bootId = readSmall('/proc/sys/kernel/random/boot_id')?.trim();
    if (bootId === undefined || bootId === '') return undefined;
    bootIdRead = bootId;
  }
  return bootIdRead;
}

export type PidState = 'none' | 'other-user' | 'own';

/**
 * Whether `pid` runs, and as whom. With `/proc`, its real and effective uids must both be this process's; without,
 * `kill(pid, 0)` answers, where EPERM means another user's process (and root, for whom it always succeeds, cannot
 * tell).
 */
export function pidState(pid: number): { state: PidState; uid?: number } {
  if (!Number.isSafeInteger(pid) || pid <= 0) return { state: 'none' };
  try {
    process.kill(pid, 0);
  } catch (error) {
    return { state: (error as NodeJS.ErrnoException).code === 'EPERM' ? 'other-user' : 'none' };
  }
  const uids = processUids(pid);
  if (uids === undefined) return hasProcFs() ? { state: 'none' } : { state: 'own' };
  const own = typeof process.geteuid === 'function' ? process.geteuid() : uids.effective;
  if (uids.real !== own) return { state: 'other-user', uid: uids.real };
  if (uids.effective !== own) return { state: 'other-user', uid: uids.effective };
  return { state: 'own' };
}

function readSmall(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}
