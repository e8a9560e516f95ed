// The bearer token file of API.md §Security defaults. A token readable by other local users is no secret, so such a
// file is refused; a missing file gets a fresh token (32 random bytes, base64url) in a 0600 file inside a 0700
// directory, and only its path is logged.

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliError } from './cli-error.js';

export interface TokenFileLogger {
  info(fields: Record<string, unknown>, message: string): void;
}

/** A token is one word of printable ASCII: anything else cannot travel in `Authorization: Bearer <token>`. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/;

/** Reads the token in `path`, creating the file when it does not exist. Throws `CliError` (exit 2) naming the file. */
export async function loadTokenFile(path: string, logger: TokenFileLogger): Promise<string> {
  const file = resolve(path);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new CliError(`token file ${file}: ${describeFsError(error)}`);
  });
  if (info === undefined) return createTokenFile(file, logger);
  if (!info.isFile()) throw new CliError(`token file ${file}: not a regular file`);
  assertPrivateMode(info.mode, `token file ${file}`, file);
  const token = (await readFile(file, 'utf8')).trim();
  if (token === '') throw new CliError(`token file ${file} is empty`);
  if (!TOKEN_TEXT.test(token)) {
    throw new CliError(`token file ${file} must hold one token of printable ASCII characters without spaces`);
  }
  return token;
}

/**
 * Refuses a config file that holds `server.token` when other users can read it: such a file is a token file too.
 * Throws `CliError` (exit 2).
 */
export async function assertPrivateConfigFile(path: string): Promise<void> {
  const file = resolve(path);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`config file ${file}: ${describeFsError(error)}`);
  });
  assertPrivateMode(info.mode, `config file ${file} holds server.token but`, file);
}

/** Any group or other bit (read, write or execute) refuses the file: the owner alone may touch a secret. */
function assertPrivateMode(mode: number, subject: string, file: string): void {
  if ((mode & 0o077) === 0) return;
  const octal = (mode & 0o777).toString(8).padStart(4, '0');
  throw new CliError(`${subject} is accessible by group or others (mode ${octal}): run chmod 600 ${file}`);
}

async function createTokenFile(file: string, logger: TokenFileLogger): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  try {
    const directory = dirname(file);
    const created = await mkdir(directory, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask; set it explicitly on the directory this call created.
    if (created !== undefined) await chmod(directory, 0o700);
    // `wx`: never overwrite a file that appeared since the stat (another process racing to create it).
    await writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600);
  } catch (error) {
    throw new CliError(`token file ${file}: cannot create it: ${describeFsError(error as NodeJS.ErrnoException)}`);
  }
  logger.info({ tokenFile: file }, `generated a new bearer token in ${file}`);
  return token;
}

function describeFsError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOTDIR':
      return 'a parent path is not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'EEXIST':
      return 'already exists';
    default:
      return error.message;
  }
}
