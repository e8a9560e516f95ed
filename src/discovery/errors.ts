// Every error skillsd reports, created in one place. The server maps `code` to the HTTP status of docs/api.md
// (see src/server/errors.ts); discovery throws these with the exact reference messages of docs/discovery.md.

export type SkillsdErrorCode =
  | 'InvalidPath'
  | 'BadRequest'
  | 'Unauthorized'
  | 'ForbiddenHost'
  | 'ForbiddenOrigin'
  | 'ForbiddenWorkspace'
  | 'ForbiddenPeer'
  | 'PathEscapesSkill'
  | 'SkillNotFound'
  | 'FileNotFound'
  | 'NotADirectory'
  | 'NotAFile'
  | 'TooLarge'
  | 'NotReady'
  | 'Overloaded'
  | 'InvalidSettings'
  | 'UnknownAgent';

export class SkillsdError extends Error {
  readonly code: SkillsdErrorCode;

  constructor(code: SkillsdErrorCode, message: string) {
    super(message);
    this.name = 'SkillsdError';
    this.code = code;
  }
}

export function isSkillsdError(value: unknown): value is SkillsdError {
  return value instanceof SkillsdError;
}
