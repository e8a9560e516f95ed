// Schemas every route shares: the error body of API.md §Errors and the `cwd` workspace selector.

import { Type } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status, repeated' }),
    code: Type.String({ description: 'Stable error code, e.g. `SkillNotFound`, `InvalidPath`, `NotReady`' }),
    error: Type.String({ description: 'The HTTP reason phrase' }),
    message: Type.String({ description: 'Human-readable text; the reference wording of SKILLS.md where it has one' }),
  },
  { description: 'Every error answer' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'InvalidPath or BadRequest',
  401: 'Unauthorized: a token is required and missing or wrong',
  403: 'ForbiddenHost, ForbiddenOrigin (a foreign Origin, or a cross-site page), ForbiddenPeer (another local user), ForbiddenWorkspace or PathEscapesSkill',
  404: 'SkillNotFound, FileNotFound or NotADirectory',
  409: 'NotAFile: the target is a FIFO, socket or device',
  413: 'SkillTooLarge: the skill has more files or bytes than an archive holds (docs/mcp.md §Bounds)',
  503: 'NotReady: the first index is still being built, or Overloaded: shedding load (see Retry-After)',
};

/** The error responses of a route: the given statuses plus those every route can answer (400, 401, 403, 503). */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  const all = [...new Set([400, 401, 403, 503, ...statuses])].sort((a, b) => a - b);
  return Object.fromEntries(
    all.map((status) => [status, { ...ErrorResponse, description: ERROR_DESCRIPTIONS[status] ?? 'Error' }]),
  );
}

export const CwdProperty = Type.String({
  description: 'Absolute path of the workspace to answer for; the default workspace (`--cwd`) when absent',
});

export const CwdQuery = Type.Object({ cwd: Type.Optional(CwdProperty) });

export const PathsProperty = Type.Enum(['local', 'url'], {
  description:
    "`local`: skill locations as paths on the daemon's machine; `url`: as URLs on this daemon (`<base>/skill/<name>/`, " +
    'the base from the Host header or `server.publicUrl`). Default: `local` for loopback clients, `url` for others',
});
