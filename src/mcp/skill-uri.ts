// `skill://<name>[/<path>]` URIs of the MCP face (docs/mcp.md §Methods) split into the skill name (decoded once)
// and the raw relative part, which resolveSkillResource decodes once and checks with the guards of the file route.
// The file route's depth bound applies here too, before any workspace or file is looked at (SECURITY.md "Small
// bounds"): one bound for both faces.

import { SkillsdError } from '../discovery/errors.js';
import { checkPathDepth } from '../discovery/files/skill-path-depth.js';

const SCHEME = 'skill://';

export interface SkillUriParts {
  name: string;
  /** The text after `<name>/`, still percent-encoded; undefined for `skill://<name>`. */
  rawRelative: string | undefined;
}

/** Throws `InvalidPath` for anything that is not a `skill://` URI with a well-formed name and a path of bounded depth. */
export function parseSkillUri(uri: string): SkillUriParts {
  if (!uri.startsWith(SCHEME)) throw new SkillsdError('InvalidPath', `Not a skill:// URI: ${uri}`);
  const rest = uri.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  const rawName = slash === -1 ? rest : rest.slice(0, slash);
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    throw new SkillsdError('InvalidPath', `Malformed percent-encoding in skill name: ${rawName}`);
  }
  if (name.includes('\0')) throw new SkillsdError('InvalidPath', 'NUL bytes are not allowed in skill:// URLs');
  const rawRelative = slash === -1 ? undefined : rest.slice(slash + 1);
  checkPathDepth(rawRelative);
  return { name, rawRelative };
}
