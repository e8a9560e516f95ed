// What a client call can fail with: the daemon answered an error (docs/api.md §Errors), or no daemon answered at all.

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

/**
 * Something answers at the URL, but not a daemon of this user: another user's socket listens there (a port left free
 * by a crashed daemon, or the default port taken while none runs). Treated as no daemon (it is one of
 * `DaemonUnreachableError`); nothing was sent to it. `reason` says what was found, for one line to the user.
 */
export class DaemonNotTrustedError extends DaemonUnreachableError {
  readonly reason: string;

  constructor(url: string, reason: string) {
    super(url, undefined);
    this.message = `not trusting ${url}: ${reason}`;
    this.name = 'DaemonNotTrustedError';
    this.reason = reason;
  }
}

export function isDaemonUnreachable(error: unknown): error is DaemonUnreachableError {
  return error instanceof DaemonUnreachableError;
}
