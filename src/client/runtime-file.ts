// The runtime file: how a client on this machine finds a running daemon (its URL, pid and token file) without being
// told, including one started with `--port 0` (docs/cli.md "Finding the daemon"). `serve` writes one file per daemon
// into a private directory and removes it on exit.
//
// The directory is `$XDG_RUNTIME_DIR/skillsd/`, else `~/.skillsd/run/`: mode 0700, files 0600. Whoever could write
// there could point the client (and the token it sends) at a server of their own, so both sides check it
// (docs/cli.md "Trusting only your own daemon"):
// - the daemon writes only into a real directory of its own user, never through a link, and changes the mode of
//   nothing but that directory, through the descriptor it checked;
// - a reader uses a file only in such a directory, when the file is its own, and when the pid it names is alive,
//   runs as the reader, and started when the file says (so a pid reused by another process after a crash does not
//   count). Every other file is stale and removed.

import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { hasProcFs, pidState, processStart } from './process-identity.js';

export interface RuntimeInfo {
  pid: number;
  /** The URL clients use, e.g. `http://127.0.0.1:7420`. */
  url: string;
  port: number;
  host: string;
  /** The daemon's default workspace. */
  cwd: string;
  /** ISO 8601 time the daemon started listening. */
  startedAt: string;
  /** The bearer token file, when the daemon requires a token. */
  tokenFile?: string;
  version: string;
  /** The boot the daemon runs in (`/proc/sys/kernel/random/boot_id`), where the platform has `/proc`. */
  bootId?: string;
  /** The daemon process's start, in clock ticks since boot (`/proc/<pid>/stat` field 22), with `bootId`. */
  startTicks?: number;
}

export interface RuntimeLocation {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/** A runtime file that was not used, and why; it has been removed. */
export interface StaleRuntimeFile {
  file: string;
  reason: string;
  /** Its daemon simply ended (a crash, `kill -9`): nothing worth telling the user. */
  ended: boolean;
}

/** The runtime directory cannot hold a runtime file (a link, another user's, not a directory). */
export class RuntimeDirectoryError extends Error {
  constructor(directory: string, problem: string) {
    super(`runtime directory ${directory} ${problem}`);
    this.name = 'RuntimeDirectoryError';
  }
}

const FILE_NAME = /^daemon-(\d+)\.json$/;
/** A runtime file is a few hundred bytes; anything larger is not one of ours. */
const MAX_RUNTIME_FILE_BYTES = 64 * 1024;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** `$XDG_RUNTIME_DIR/skillsd` when that variable is an absolute path, else `~/.skillsd/run`. */
export function runtimeDirectory({ env, home }: RuntimeLocation): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg?.startsWith('/')) return join(xdg, 'skillsd');
  return join(home, '.skillsd', 'run');
}

export function runtimeFilePath(location: RuntimeLocation, pid: number): string {
  return join(runtimeDirectory(location), `daemon-${pid}.json`);
}

/**
 * Writes this daemon's file (atomically: a reader never sees half of it) and returns its path; throws
 * `RuntimeDirectoryError` when the directory is not a real directory of this user. Synchronous, so that the daemon
 * can write it between the socket listening and the listening log line: a script that waits for that line then finds
 * the file. The daemon's own start time is recorded where the platform tells it.
 */
export function writeRuntimeFile(location: RuntimeLocation, info: RuntimeInfo): string {
  const dir = runtimeDirectory(location);
  const dirFd = openOwnDirectory(dir);
  try {
    // On Linux every name below goes through the checked descriptor (`/proc/self/fd/N/…`): a directory renamed and
    // replaced by a link after the check is not written into.
    const base = descriptorPath(dirFd) ?? dir;
    const name = `daemon-${info.pid}.json`;
    const start = info.startTicks === undefined ? processStart(info.pid) : undefined;
    const record = start === undefined ? info : { ...info, ...start };
    const partial = join(base, `${name}.${process.hrtime.bigint()}.tmp`);
    const fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${JSON.stringify(record, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, join(base, name));
    return join(dir, name);
  } finally {
    closeSync(dirFd);
  }
}

/** Removes the file (a missing one is fine); synchronous, so that it also works from an `exit` handler. */
export function removeRuntimeFile(file: string): void {
  rmSync(file, { force: true });
}

/** Whether a process with this pid exists and runs as this user. */
export function isOwnProcess(pid: number): boolean {
  return pidState(pid).state === 'own';
}

/**
 * Whether the daemon a runtime file describes still runs: its pid alive and this user's, started when the file says.
 * Undefined when it does; else why not.
 */
export function runtimeProcessProblem(info: RuntimeInfo): { reason: string; ended: boolean } | undefined {
  const pid = pidState(info.pid);
  if (pid.state === 'none') return { reason: `pid ${info.pid} is not running`, ended: true };
  if (pid.state === 'other-user') {
    const owner = pid.uid === undefined ? 'another user' : `uid ${pid.uid}`;
    return { reason: `pid ${info.pid} belongs to ${owner}, not to you`, ended: false };
  }
  if (!hasProcFs()) return undefined;
  if (info.bootId === undefined || info.startTicks === undefined) {
    return { reason: `it records no start time for pid ${info.pid}`, ended: false };
  }
  const now = processStart(info.pid);
  if (now === undefined) return { reason: `pid ${info.pid} is not running`, ended: true };
  if (now.bootId !== info.bootId || now.startTicks !== info.startTicks) {
    return {
      reason: `pid ${info.pid} is another process than the daemon that wrote it (it started at another time)`,
      ended: true,
    };
  }
  return undefined;
}

/**
 * Every usable runtime file (most recently started first) and the stale ones removed on the way. Read with blocking
 * calls: a private directory of a few small files, where every asynchronous step would cost a short-lived command a
 * trip through the thread pool (docs/performance.md "Client commands").
 */
export async function scanRuntimeFiles(
  location: RuntimeLocation,
): Promise<{ live: RuntimeInfo[]; stale: StaleRuntimeFile[] }> {
  const dir = runtimeDirectory(location);
  const live: RuntimeInfo[] = [];
  const stale: StaleRuntimeFile[] = [];
  if (!isPrivateDirectory(dir)) return { live, stale };
  const names = listNames(dir);
  for (const name of names) {
    if (!FILE_NAME.test(name)) continue;
    const file = join(dir, name);
    const read = readOwnFile(file);
    const info = typeof read === 'string' ? parseRuntimeInfo(read) : undefined;
    const problem =
      typeof read !== 'string'
        ? { reason: read.problem, ended: false }
        : info === undefined
          ? { reason: 'it is not a runtime file', ended: false }
          : runtimeProcessProblem(info);
    if (problem === undefined && info !== undefined) {
      live.push(info);
      continue;
    }
    // The directory is this user's and private: whatever is in it is ours to remove.
    rmSync(file, { force: true });
    if (problem !== undefined) stale.push({ file, ...problem });
  }
  live.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : b.pid - a.pid));
  return { live, stale };
}

/** Every usable runtime file, most recently started first (stale ones are removed). */
export async function readRuntimeFiles(location: RuntimeLocation): Promise<RuntimeInfo[]> {
  return (await scanRuntimeFiles(location)).live;
}

/**
 * The daemon a client in `cwd` most likely means: the one whose workspace is `cwd` or its nearest ancestor, else the
 * most recently started.
 */
export function pickRuntime(candidates: readonly RuntimeInfo[], cwd: string): RuntimeInfo | undefined {
  let best: RuntimeInfo | undefined;
  for (const info of candidates) {
    const contains = cwd === info.cwd || cwd.startsWith(info.cwd.endsWith('/') ? info.cwd : `${info.cwd}/`);
    if (contains && (best === undefined || info.cwd.length > best.cwd.length)) best = info;
  }
  return best ?? candidates[0];
}

/**
 * The daemon started in `workspace` (its runtime file's `cwd`), the most recently started when several were:
 * the one a client that followed a daemon of that workspace may follow again after losing it (docs/cli.md
 * "Following the daemon"). Undefined when none runs; never a daemon of another workspace.
 */
export function runtimeOfWorkspace(candidates: readonly RuntimeInfo[], workspace: string): RuntimeInfo | undefined {
  return candidates.find((info) => info.cwd === workspace);
}

/**
 * Creates the directory when missing and opens it, but only a real directory (not a link) owned by this user; a
 * directory group or others may use is made private through the descriptor just checked, never by path.
 */
function openOwnDirectory(dir: string): number {
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const seen = lstatSync(dir);
  if (seen.isSymbolicLink()) throw new RuntimeDirectoryError(dir, 'is a symbolic link');
  if (!seen.isDirectory()) throw new RuntimeDirectoryError(dir, 'is not a directory');
  const problem = ownerProblem(seen);
  if (problem !== undefined) throw new RuntimeDirectoryError(dir, problem);
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new RuntimeDirectoryError(dir, 'is a symbolic link');
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    if (opened.dev !== seen.dev || opened.ino !== seen.ino || !opened.isDirectory()) {
      throw new RuntimeDirectoryError(dir, 'was replaced while it was being checked');
    }
    // mkdir's mode passes through the umask, and an existing directory keeps its own: made private either way.
    if ((opened.mode & 0o777) !== 0o700) fchmodSync(fd, 0o700);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** `/proc/self/fd/N` when this platform resolves names through it (Linux), else undefined. */
function descriptorPath(fd: number): string | undefined {
  const path = `/proc/self/fd/${fd}`;
  try {
    return lstatSync(path).isSymbolicLink() ? path : undefined;
  } catch {
    return undefined;
  }
}

function ownerProblem(info: Stats): string | undefined {
  if (typeof process.geteuid !== 'function') return undefined;
  const own = process.geteuid();
  return info.uid === own ? undefined : `belongs to uid ${info.uid}, not to this user`;
}

/**
 * The text of a runtime file opened without following a link, or what is wrong with it: not a regular file, another
 * user's, writable by group or others, too large.
 */
function readOwnFile(file: string): string | { problem: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code})` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { problem: 'it is not a regular file' };
    const owner = ownerProblem(info);
    if (owner !== undefined) return { problem: `it ${owner.replace('this user', 'you')}` };
    if ((info.mode & 0o022) !== 0) return { problem: 'others may write it' };
    if (info.size > MAX_RUNTIME_FILE_BYTES) return { problem: 'it is too large to be a runtime file' };
    const buffer = Buffer.alloc(MAX_RUNTIME_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_RUNTIME_FILE_BYTES) return { problem: 'it is too large to be a runtime file' };
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

function parseRuntimeInfo(text: string): RuntimeInfo | undefined {
  if (text === '' || text.length > MAX_RUNTIME_FILE_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const info = value as Record<string, unknown>;
  if (!Number.isSafeInteger(info.pid) || typeof info.url !== 'string' || typeof info.cwd !== 'string') return undefined;
  if (!/^https?:\/\//.test(info.url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(info.url);
  } catch {
    return undefined;
  }
  return {
    pid: info.pid as number,
    url: info.url,
    port: typeof info.port === 'number' ? info.port : Number(parsed.port),
    host: typeof info.host === 'string' ? info.host : parsed.hostname,
    cwd: info.cwd,
    startedAt: typeof info.startedAt === 'string' ? info.startedAt : '',
    ...(typeof info.tokenFile === 'string' ? { tokenFile: info.tokenFile } : {}),
    version: typeof info.version === 'string' ? info.version : 'unknown',
    ...(typeof info.bootId === 'string' ? { bootId: info.bootId } : {}),
    ...(Number.isSafeInteger(info.startTicks) ? { startTicks: info.startTicks as number } : {}),
  };
}

/** Owned by this user, not a link, and neither group nor others may use it. */
function isPrivateDirectory(path: string): boolean {
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch {
    return false;
  }
  if (!info.isDirectory()) return false;
  if (ownerProblem(info) !== undefined) return false;
  return (info.mode & 0o077) === 0;
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
