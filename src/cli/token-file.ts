// The bearer token file of docs/api.md §Security defaults. A token readable by other local users is no secret, and one
// they can replace is theirs: a file owned by another user, accessible by group or others, or in a directory others
// may write, is refused, as is a token too short to resist guessing. Reads are bounded (read-bounded-file.ts), and
// messages name the real file when the path is a link. A missing file gets a fresh token (32 random bytes,
// base64url) in a 0600 file inside a 0700 directory, and only its path is logged.

import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliError } from './cli-error.js';
import { BoundedReadError, nameWithRealPath, readBoundedFile } from './read-bounded-file.js';

export interface TokenFileLogger {
  info(fields: Record<string, unknown>, message: string): void;
}

/** A token is one word of printable ASCII: anything else cannot travel in `Authorization: Bearer <token>`. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/;
/** The shortest token accepted: 32 characters (the generated ones have 43). */
export const MIN_TOKEN_CHARS = 32;
/** A token file holds one token and a newline; anything larger is not one. */
const MAX_TOKEN_FILE_BYTES = 4096;

/** Reads the token in `path`, creating the file when it does not exist. Throws `CliError` (exit 2) naming the file. */
export async function loadTokenFile(
  path: string,
  logger: TokenFileLogger,
  uid: number | undefined = process.getuid?.(),
): Promise<string> {
  const file = resolve(path);
  let read: Awaited<ReturnType<typeof readBoundedFile>>;
  try {
    read = await readBoundedFile(file, MAX_TOKEN_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    if (error.code === 'ENOENT' && (await exists(file)) === false) return createTokenFile(file, logger);
    const problem = error.code === 'EISDIR' ? 'not a regular file' : error.problem;
    throw new CliError(`token file ${await nameWithRealPath(file)}: ${problem}`);
  }
  const named = await nameWithRealPath(file);
  const real = await realpath(file).catch(() => file);
  assertOwner(read.stat.uid, uid, `token file ${named}`);
  assertPrivateMode(read.stat.mode, `token file ${named}`, real);
  await assertPrivateDirectory(dirname(real), `token file ${named}`);
  const token = read.bytes.toString('utf8').trim();
  if (token === '') throw new CliError(`token file ${named} is empty`);
  if (!TOKEN_TEXT.test(token)) {
    throw new CliError(`token file ${named} must hold one token of printable ASCII characters without spaces`);
  }
  assertTokenLength(token, `token file ${named}`);
  return token;
}

/** A short token can be guessed; throws `CliError` (exit 2) naming where it came from. */
export function assertTokenLength(token: string, subject: string): void {
  if (token.length >= MIN_TOKEN_CHARS) return;
  throw new CliError(
    `${subject} holds a token of ${token.length} characters: use at least ${MIN_TOKEN_CHARS} (or delete the token file and let skillsd generate one)`,
  );
}

/**
 * Refuses a config file that holds `server.token` when other users can read it: such a file is a token file too.
 * Throws `CliError` (exit 2).
 */
export async function assertPrivateConfigFile(
  path: string,
  uid: number | undefined = process.getuid?.(),
): Promise<void> {
  const file = resolve(path);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`config file ${file}: ${describeFsError(error)}`);
  });
  const named = await nameWithRealPath(file);
  const real = await realpath(file).catch(() => file);
  assertOwner(info.uid, uid, `config file ${named} holds server.token but`);
  assertPrivateMode(info.mode, `config file ${named} holds server.token but`, real);
  await assertPrivateDirectory(dirname(real), `config file ${named} holds server.token but`);
}

/** The owner alone decides what the file says: another user's file could hold a token they chose. */
function assertOwner(owner: number, uid: number | undefined, subject: string): void {
  if (uid === undefined || owner === uid) return;
  throw new CliError(`${subject} is owned by uid ${owner}, not by the daemon's user (uid ${uid})`);
}

/**
 * A directory that group or others may write lets them replace the file with one holding their token. A sticky
 * directory (`/tmp`) is safe: only a file's owner may rename or delete it there.
 */
async function assertPrivateDirectory(directory: string, subject: string): Promise<void> {
  const info = await stat(directory).catch(() => undefined);
  if (info === undefined || (info.mode & 0o022) === 0 || (info.mode & 0o1000) !== 0) return;
  const octal = (info.mode & 0o777).toString(8).padStart(4, '0');
  throw new CliError(
    `${subject} is in ${directory}, which group or others may write (mode ${octal}): run chmod go-w ${directory}`,
  );
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
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
