// What a client call can fail with: the daemon answered an error (API.md §Errors), or no daemon answered at all.

/** An error answer of the API: `{ statusCode, code, error, message }`. */
export class SkillsdApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The `Retry-After` of a 503, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, code: string, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'SkillsdApiError';
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Nothing listens at the URL (refused, reset, unknown host): the caller may fall back or report "no daemon". */
export class DaemonUnreachableError extends Error {
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`no skillsd daemon answers at ${url}`, { cause });
    this.name = 'DaemonUnreachableError';
    this.url = url;
  }
}

export function isDaemonUnreachable(error: unknown): error is DaemonUnreachableError {
  return error instanceof DaemonUnreachableError;
}
