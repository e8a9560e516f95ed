// Which daemon a client talks to (docs/cli.md "Finding the daemon"): an explicit URL, else `SKILLSD_URL`, else the
// runtime file of a running daemon of this user (see runtime-file.ts), else `http://127.0.0.1:7420` (the port from
// `SKILLSD_PORT` when set, as `serve` reads it). The token comes from an explicit token file, else
// `SKILLSD_TOKEN_FILE`, else the token file the runtime file names. Whoever listens at the URL is checked by the
// client before each request (listener-owner.ts), not here.

import { readFileSync } from 'node:fs';
import {
  pickRuntime,
  type RuntimeInfo,
  type RuntimeLocation,
  runtimeOfWorkspace,
  type StaleRuntimeFile,
  scanRuntimeFiles,
} from './runtime-file.js';

export const DEFAULT_URL = 'http://127.0.0.1:7420';

export interface FindDaemonOptions extends RuntimeLocation {
  /** An explicit URL (`--url`). */
  url?: string;
  /** An explicit token file (`--token-file`). */
  tokenFile?: string;
  /** Where the client runs: a daemon started in it or an ancestor is preferred. */
  cwd: string;
}

export interface DaemonLocation {
  url: string;
  token?: string;
  /** Where the URL came from. */
  source: 'option' | 'env' | 'runtime-file' | 'default';
  /** The runtime file of the daemon at that URL, when one is known (its pid, start time, workspace). */
  runtime?: RuntimeInfo;
  /** Runtime files found stale (a dead or reused pid, another user's process or file) and removed. */
  staleRuntimeFiles: StaleRuntimeFile[];
}

/** `http://127.0.0.1:<SKILLSD_PORT>` when that names a port, else `DEFAULT_URL`. */
export function defaultUrl(env: Readonly<Record<string, string | undefined>>): string {
  const port = env.SKILLSD_PORT;
  if (port !== undefined && /^\d{1,5}$/.test(port) && Number(port) > 0 && Number(port) < 65536) {
    return `http://127.0.0.1:${Number(port)}`;
  }
  return DEFAULT_URL;
}

export async function findDaemon(options: FindDaemonOptions): Promise<DaemonLocation> {
  const { live: runtimes, stale } = await scanRuntimeFiles(options);
  const envUrl = options.env.SKILLSD_URL;
  let url: string;
  let source: DaemonLocation['source'];
  let runtime: RuntimeInfo | undefined;
  if (options.url !== undefined && options.url !== '') {
    url = options.url;
    source = 'option';
  } else if (envUrl !== undefined && envUrl !== '') {
    url = envUrl;
    source = 'env';
  } else {
    runtime = pickRuntime(runtimes, options.cwd);
    url = runtime?.url ?? defaultUrl(options.env);
    source = runtime === undefined ? 'default' : 'runtime-file';
  }
  url = url.replace(/\/+$/, '');
  runtime ??= runtimes.find((info) => sameOrigin(info.url, url));

  const token = await tokenFor(options, runtime);
  return {
    url,
    source,
    ...(token === undefined ? {} : { token }),
    ...(runtime === undefined ? {} : { runtime }),
    staleRuntimeFiles: stale,
  };
}

/**
 * The running daemon of this user that was started in `workspace` (its runtime file's `cwd`), or undefined while
 * none runs: never another workspace's daemon, whatever else runs. What a client that lost the daemon it followed
 * looks for (docs/cli.md "Following the daemon"): a daemon restarted with `--port 0` is found on its new port as
 * soon as it listens. Only runtime files count; `url` and `SKILLSD_URL` are not read.
 */
export async function findWorkspaceDaemon(
  options: Omit<FindDaemonOptions, 'url' | 'cwd'> & { workspace: string },
): Promise<DaemonLocation | undefined> {
  const { live, stale } = await scanRuntimeFiles(options);
  const runtime = runtimeOfWorkspace(live, options.workspace);
  if (runtime === undefined) return undefined;
  const token = await tokenFor(options, runtime);
  return {
    url: runtime.url.replace(/\/+$/, ''),
    source: 'runtime-file',
    ...(token === undefined ? {} : { token }),
    runtime,
    staleRuntimeFiles: stale,
  };
}

/** The token: an explicit token file, else `SKILLSD_TOKEN_FILE`, else the one the daemon's runtime file names. */
async function tokenFor(
  options: Pick<FindDaemonOptions, 'tokenFile' | 'env'>,
  runtime: RuntimeInfo | undefined,
): Promise<string | undefined> {
  const tokenFile = options.tokenFile ?? nonEmpty(options.env.SKILLSD_TOKEN_FILE);
  if (tokenFile !== undefined) return readToken(tokenFile);
  if (runtime?.tokenFile !== undefined) return readToken(runtime.tokenFile).catch(() => undefined);
  return undefined;
}

/** The token in `file` (trimmed). Rejects when it cannot be read. */
export async function readToken(file: string): Promise<string> {
  // A blocking read of a few bytes, as the runtime files are read (runtime-file.ts).
  const text = readFileSync(file, 'utf8');
  const token = text.trim();
  if (token === '') throw new Error(`token file ${file} is empty`);
  return token;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const loopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
    return x.port === y.port && (x.hostname === y.hostname || (loopback(x.hostname) && loopback(y.hostname)));
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
