// The process's working directory, or a one-line error when it no longer exists (a shell left in a deleted
// directory): `process.cwd()`, and `path.resolve` of a relative path, then throw Node's raw `ENOENT … uv_cwd`
// (docs/cli.md "Errors").

import { CliError } from './cli-error.js';

const GONE = 'the current directory no longer exists (was it deleted?): cd elsewhere or pass --cwd DIR';

export function currentDirectory(): string {
  try {
    return process.cwd();
  } catch (error) {
    if (isCurrentDirectoryGone(error)) throw currentDirectoryGoneError();
    throw error;
  }
}

/** The error `process.cwd()` throws once the working directory was removed. */
export function isCurrentDirectoryGone(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  return code === 'ENOENT' && syscall === 'uv_cwd';
}

/** The one-line error for a removed working directory (for failures outside the client commands). */
export function currentDirectoryGoneError(): CliError {
  return new CliError(GONE);
}
