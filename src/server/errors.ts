// The one place where error codes become HTTP answers (docs/api.md §Errors).
// Every error body is `{ statusCode, code, error, message }`.

import { capFirstLine } from '../answers/echo.js';
import { isSkillsdError, type SkillsdErrorCode } from '../discovery/errors.js';

// From the runtime, not an ES module import of `node:http`, whose namespace loads undici on Node 22 and later
// (src/client/http-fetch.ts): the command line answering in-process loads this module too.
const { STATUS_CODES } = process.getBuiltinModule('node:http');

export const STATUS_BY_CODE: Record<SkillsdErrorCode, number> = {
  InvalidPath: 400,
  BadRequest: 400,
  InvalidSettings: 400,
  UnknownAgent: 400,
  Unauthorized: 401,
  ForbiddenHost: 403,
  ForbiddenOrigin: 403,
  ForbiddenWorkspace: 403,
  ForbiddenPeer: 403,
  PathEscapesSkill: 403,
  SkillNotFound: 404,
  FileNotFound: 404,
  NotADirectory: 404,
  NotAFile: 409,
  TooLarge: 413,
  NotReady: 503,
  Overloaded: 503,
};

export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
}

/** An error body; the message's first line, where any echo of the request is, is capped (echo.ts). */
export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message: capFirstLine(message) };
}

/** Errors of a process out of descriptors: overload, not a fault (SECURITY.md §4, exhaustion). */
const DESCRIPTOR_SHORTAGE = new Set(['EMFILE', 'ENFILE']);

export function isDescriptorShortage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DESCRIPTOR_SHORTAGE.has(code);
}

/** Maps any thrown value to the status and body of docs/api.md. Unknown errors become a 500 without internals. */
export function toErrorResponse(error: unknown): ErrorBody {
  if (isSkillsdError(error)) return errorBody(STATUS_BY_CODE[error.code], error.code, error.message);
  if (isDescriptorShortage(error)) {
    return errorBody(503, 'Overloaded', 'The daemon is overloaded (descriptors); retry in a few seconds');
  }
  const fastifyError = error as { statusCode?: number; code?: string; validation?: unknown; message?: string };
  if (fastifyError?.validation !== undefined) {
    return errorBody(400, 'BadRequest', validationMessage(fastifyError.message, fastifyError.validation));
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return errorBody(status, 'BadRequest', fastifyError.message ?? 'Bad request');
  }
  return errorBody(500, 'InternalError', 'Internal server error');
}

interface ValidationIssue {
  keyword?: string;
  params?: { allowedValues?: unknown[]; pattern?: unknown };
}

/** A pattern for a comma-separated list of fixed words, `^(a|b)(,(a|b))*$` (`?types=`): the words it allows. */
const WORD_LIST_PATTERN = /^\^\(([\w-]+(?:\|[\w-]+)*)\)\(,\(\1\)\)\*\$$/;
const FAILED_PATTERN = / must match pattern ".*"$/s;

/**
 * Fastify's text for a failed schema, with the allowed values where the schema has a list (`?paths=bogus`,
 * `?types=bogus`): a bad value is answered with what would have been accepted (docs/api.md §Errors), never with the
 * regular expression that refused it.
 */
function validationMessage(message: string | undefined, validation: unknown): string {
  const text = message ?? 'Bad request';
  const issues = Array.isArray(validation) ? (validation as ValidationIssue[]) : [];
  const pattern = issues.find((issue) => issue.keyword === 'pattern')?.params?.pattern;
  const words = typeof pattern === 'string' ? WORD_LIST_PATTERN.exec(pattern)?.[1] : undefined;
  if (words !== undefined && FAILED_PATTERN.test(text)) {
    return text.replace(FAILED_PATTERN, ` must be a comma-separated list of ${words.split('|').join(', ')}`);
  }
  const allowed = issues.find((issue) => issue.keyword === 'enum')?.params?.allowedValues;
  if (allowed === undefined || !text.endsWith('must be equal to one of the allowed values')) return text;
  return `${text}: ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
}
