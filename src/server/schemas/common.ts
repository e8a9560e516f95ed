// Schemas every route shares: the error body of docs/api.md §Errors, the `cwd` workspace selector, and the request
// and response headers of conditional requests, authentication and back-off. A schema with a `title` becomes a named
// component of the OpenAPI document (src/server/openapi-named-schemas.ts), so client generators give it a type.

import { type TSchema, Type } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status, repeated' }),
    code: Type.String({ description: 'Stable error code, e.g. `SkillNotFound`, `InvalidPath`, `NotReady`' }),
    error: Type.String({ description: 'The HTTP reason phrase' }),
    message: Type.String({
      description: 'Human-readable text; the reference wording of docs/discovery.md where it has one',
    }),
  },
  { title: 'ErrorBody', description: 'Every error answer' },
);

/** A response header as @fastify/swagger reads it: a JSON schema, with an optional description. */
export interface HeaderSchema {
  type: 'string' | 'integer';
  description?: string;
}

export const ETAG_HEADER: HeaderSchema = {
  type: 'string',
  description: 'Tag of this answer; send it back in `If-None-Match` to get 304 while it is unchanged',
};
export const LAST_MODIFIED_HEADER: HeaderSchema = { type: 'string', description: 'The file’s modification time' };
export const RETRY_AFTER_HEADER: HeaderSchema = { type: 'integer', description: 'Seconds to wait before retrying' };
export const WWW_AUTHENTICATE_HEADER: HeaderSchema = { type: 'string', description: 'The challenge: `Bearer`' };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'InvalidPath or BadRequest',
  401: 'Unauthorized: a token is required and missing or wrong',
  403: 'ForbiddenHost, ForbiddenOrigin (a foreign Origin, or a cross-site page), ForbiddenPeer (another local user), ForbiddenWorkspace or PathEscapesSkill',
  404: 'SkillNotFound, FileNotFound or NotADirectory',
  406: 'NotAcceptable: the client does not accept this answer’s media type',
  409: 'NotAFile: the target is a FIFO, socket or device',
  413: 'TooLarge: the skill or directory is past a bound of docs/api.md "Limits on walks", or the SKILL.md to invoke is over the size limit (the message names it)',
  503: 'NotReady: the first index is still being built, or Overloaded: shedding load (see Retry-After)',
};

/** Headers every answer of a status carries: how to authenticate (401), when to come back (503). */
export const ERROR_HEADERS: Record<number, Record<string, HeaderSchema>> = {
  401: { 'WWW-Authenticate': WWW_AUTHENTICATE_HEADER },
  503: { 'Retry-After': RETRY_AFTER_HEADER },
};

/** The error responses of a route: the given statuses plus those every route can answer (400, 401, 403, 503). */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  const all = [...new Set([400, 401, 403, 503, ...statuses])].sort((a, b) => a - b);
  return Object.fromEntries(
    all.map((status) => [
      status,
      // The status's own text goes to the response (@fastify/swagger's `x-response-description`), leaving the
      // shared `ErrorBody` schema its own description.
      withHeaders({ ...ErrorResponse, 'x-response-description': errorDescription(status) }, ERROR_HEADERS[status]),
    ]),
  );
}

export function errorDescription(status: number): string {
  return ERROR_DESCRIPTIONS[status] ?? 'Error';
}

/**
 * A response schema that also declares the headers sent with it. Documentation only: Fastify's serialiser reads the
 * body's keywords and ignores `headers`, and nothing validates a response's headers.
 */
export function withHeaders<T extends TSchema>(schema: T, headers: Record<string, HeaderSchema> | undefined): T {
  return headers === undefined ? schema : { ...schema, headers };
}

/** `304 Not Modified`: the answer to an `If-None-Match` that holds the current tag. No body. */
export const NotModified = {
  description: 'Not modified: the tag in `If-None-Match` is current; no body',
  type: 'null',
} as const;

/** Request headers of a conditional GET. Read by the handlers; declared so that clients can send them. */
export const ConditionalHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'An `ETag` received before: 304 while it is current' })),
});

export const CwdProperty = Type.String({
  description: 'Absolute path of the workspace to answer for; the default workspace (`--cwd`) when absent',
});

export const CwdQuery = Type.Object({ cwd: Type.Optional(CwdProperty) });

export const PathsProperty = Type.Enum(['local', 'url'], {
  description:
    "`local`: skill locations as paths on the daemon's machine; `url`: as URLs on this daemon (`<base>/skill/<name>/`, " +
    'the base from the Host header or `server.publicUrl`). Default: `local` for loopback clients, `url` for others',
});
