// Which daemon a client talks to (API.md §Command line): an explicit URL, else `SKILLSD_URL`, else the runtime file
// of a running daemon (see runtime-file.ts), else `http://127.0.0.1:7420`. The token comes from an explicit token
// file, else `SKILLSD_TOKEN_FILE`, else the token file the runtime file names.

import { readFile } from 'node:fs/promises';
import { pickRuntime, type RuntimeInfo, type RuntimeLocation, readRuntimeFiles } from './runtime-file.js';

export const DEFAULT_URL = 'http://127.0.0.1:7420';

export interface FindDaemonOptions extends RuntimeLocation {
  /** An explicit URL (`--url`). */
  url?: string;
  /** An explicit token file (`--token-file`). */
  tokenFile?: string;
  /** Where the client runs: a daemon serving it or an ancestor is preferred. */
  cwd: string;
}

export interface DaemonLocation {
  url: string;
  token?: string;
  /** Where the URL came from. */
  source: 'option' | 'env' | 'runtime-file' | 'default';
  /** The runtime file of the daemon at that URL, when one is known (its pid, start time, workspace). */
  runtime?: RuntimeInfo;
}

export async function findDaemon(options: FindDaemonOptions): Promise<DaemonLocation> {
  const runtimes = await readRuntimeFiles(options);
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
    url = runtime?.url ?? DEFAULT_URL;
    source = runtime === undefined ? 'default' : 'runtime-file';
  }
  url = url.replace(/\/+$/, '');
  runtime ??= runtimes.find((info) => sameOrigin(info.url, url));

  const tokenFile = options.tokenFile ?? nonEmpty(options.env.SKILLSD_TOKEN_FILE);
  let token: string | undefined;
  if (tokenFile !== undefined) token = await readToken(tokenFile);
  else if (runtime?.tokenFile !== undefined) token = await readToken(runtime.tokenFile).catch(() => undefined);
  return { url, source, ...(token === undefined ? {} : { token }), ...(runtime === undefined ? {} : { runtime }) };
}

/** The token in `file` (trimmed). Throws when it cannot be read. */
export async function readToken(file: string): Promise<string> {
  const text = await readFile(file, 'utf8');
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
