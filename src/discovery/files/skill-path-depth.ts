// The one bound on how deep a skill path may reach (SECURITY.md "Small bounds"), shared by every face that names a
// file of a skill: `/skill/<name>/<path>` and `skill://<name>/<path>` (MCP `resources/read`, `resources/subscribe`,
// `resources/directory/read`). Each segment costs a lookup before the path is refused or served, and a link to its own
// directory (`loop -> .`) lets a path repeat without end: 600 `loop/` segments cost a third of a second each.

import { SkillsdError } from '../errors.js';

/** The deepest path served, in directories; no skill tree is this deep. */
export const MAX_PATH_SEGMENTS = 64;

// Every separator resolveSkillResource would split on, raw or percent-encoded.
const SEPARATOR = /\/|\\|%2f|%5c/i;
const ENCODED_DOT = /%2e/gi;

/** Throws `InvalidPath` for a raw (still percent-encoded) relative path of more than MAX_PATH_SEGMENTS directories. */
export function checkPathDepth(rawRelative: string | undefined): void {
  if (rawRelative !== undefined && depthOf(rawRelative) > MAX_PATH_SEGMENTS) {
    throw new SkillsdError(
      'InvalidPath',
      `Paths of more than ${MAX_PATH_SEGMENTS} segments are not allowed in skill:// URLs`,
    );
  }
}

/**
 * The directories a raw relative path descends: `.` and empty segments descend nothing (they are dropped before any
 * lookup). A path with a `..` in any spelling is left to resolveSkillResource, which refuses it with the reference
 * message; 0 is returned for it.
 */
function depthOf(rawRelative: string): number {
  let depth = 0;
  for (const segment of rawRelative.split(SEPARATOR)) {
    const dots = segment.replace(ENCODED_DOT, '.');
    if (dots === '..') return 0;
    if (dots !== '' && dots !== '.') depth++;
  }
  return depth;
}
