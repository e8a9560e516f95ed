// Telling a failed file-system call (with its `code`: ENOENT, ENOTDIR…) from any other error, which is what decides
// whether a skills directory or SKILL.md is silently absent or listed as unreadable (docs/discovery.md §3).

export function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
