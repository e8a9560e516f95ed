// The runtime file: how a client on this machine finds a running daemon (its URL, pid and token file) without being
// told, including one started with `--port 0` (API.md §Command line). `serve` writes one file per daemon into a
// private directory and removes it on exit; a daemon killed hard leaves its file behind, which readers recognise by
// its dead pid and ignore.
//
// The directory is `$XDG_RUNTIME_DIR/skillsd/`, else `~/.skillsd/run/`: mode 0700, files 0600. A reader refuses a
// directory or file that another user owns or that others may write: whoever can write there could point the client
// (and the token it sends) at a server of their own.

import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

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
}

export interface RuntimeLocation {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

const FILE_NAME = /^daemon-(\d+)\.json$/;
/** A runtime file is a few hundred bytes; anything larger is not one of ours. */
const MAX_RUNTIME_FILE_BYTES = 64 * 1024;

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
 * Writes this daemon's file (atomically: a reader never sees half of it) and returns its path. Synchronous, so that
 * the daemon can write it between the socket listening and the listening log line: a script that waits for that line
 * then finds the file.
 */
export function writeRuntimeFile(location: RuntimeLocation, info: RuntimeInfo): string {
  const dir = runtimeDirectory(location);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode passes through the umask, and an existing directory keeps its own: make it private either way.
  chmodSync(dir, 0o700);
  const file = runtimeFilePath(location, info.pid);
  const partial = `${file}.${process.hrtime.bigint()}.tmp`;
  writeFileSync(partial, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(partial, file);
  return file;
}

/** Removes the file (a missing one is fine); synchronous, so that it also works from an `exit` handler. */
export function removeRuntimeFile(file: string): void {
  rmSync(file, { force: true });
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Every live daemon's runtime file, most recently started first. Files of dead processes, files that do not parse,
 * and anything in a directory or file not private to this user are skipped.
 */
export async function readRuntimeFiles(location: RuntimeLocation): Promise<RuntimeInfo[]> {
  const dir = runtimeDirectory(location);
  if (!(await isPrivate(dir, 'directory'))) return [];
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: RuntimeInfo[] = [];
  for (const name of names) {
    if (!FILE_NAME.test(name)) continue;
    const file = join(dir, name);
    if (!(await isPrivate(file, 'file'))) continue;
    const info = parseRuntimeInfo(await readFile(file, 'utf8').catch(() => ''));
    if (info !== undefined && isProcessAlive(info.pid)) found.push(info);
  }
  return found.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : b.pid - a.pid));
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
  return {
    pid: info.pid as number,
    url: info.url,
    port: typeof info.port === 'number' ? info.port : Number(new URL(info.url).port),
    host: typeof info.host === 'string' ? info.host : new URL(info.url).hostname,
    cwd: info.cwd,
    startedAt: typeof info.startedAt === 'string' ? info.startedAt : '',
    ...(typeof info.tokenFile === 'string' ? { tokenFile: info.tokenFile } : {}),
    version: typeof info.version === 'string' ? info.version : 'unknown',
  };
}

/** Owned by this user, not a link, and neither group nor others may write it (a directory: may not use it). */
async function isPrivate(path: string, kind: 'file' | 'directory'): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return false;
  if (kind === 'file' ? !info.isFile() : !info.isDirectory()) return false;
  if (typeof process.getuid === 'function' && info.uid !== process.getuid()) return false;
  return (info.mode & (kind === 'file' ? 0o022 : 0o077)) === 0;
}
