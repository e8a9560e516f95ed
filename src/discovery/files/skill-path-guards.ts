// The checks skill:// resolution (resolve-skill-url.ts) and its directory listings (skill-directory-listing.ts)
// share: whether a real path stays inside a skill's real directory, and the refusal when it changed under a check.

import { sep } from 'node:path';
import { SkillsdError } from '../errors.js';

export function isInside(base: string, path: string): boolean {
  if (path === base) return true;
  return path.startsWith(base.endsWith(sep) ? base : base + sep);
}

export function changedAfterCheck(path: string): SkillsdError {
  return new SkillsdError('PathEscapesSkill', `File changed between check and open, refusing it: ${path}`);
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
