// Where a skill is, as the text handed to a model names it (docs/api.md §Remote-friendly text). The reference text names
// local paths (`[Skill directory: /home/…/pdf]`), which mean nothing to an agent on another machine; the same text
// can name the skill's URL on the daemon instead (`http://host:7420/skill/pdf/`), or its MCP resource URI
// (`skill://pdf`), so that "resolve relative paths against …" is something that agent can do. Invocation and
// prompt renderers take one of these mappers, so every face gets the same choice.

import type { Skill } from './types.js';

/** `local`: the reference text, local paths; `url`: the skill's address on the daemon. */
export type PathsChoice = 'local' | 'url';

export interface SkillLocations {
  /** The skill's directory: relative paths in the skill resolve against it. */
  directory(skill: Skill): string;
  /** The skill's SKILL.md. */
  file(skill: Skill): string;
}

// RFC 3986 unreserved characters: a name made only of these is the same text in every URL position (a `skill://`
// authority, an HTTP path segment) and needs no encoding; every other byte is percent-encoded as UTF-8.
const RESERVED_BY_ENCODE_URI_COMPONENT = /[!'()*]/g;
// encodeURIComponent throws on a lone surrogate (a YAML `\uD800` escape could put one in a name).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The reference: absolute local paths. */
export const LOCAL_LOCATIONS: SkillLocations = {
  directory: (skill) => skill.baseDir,
  file: (skill) => skill.filePath,
};

/**
 * The skill's URL under `baseUrl` (`http://host:port`, no trailing slash): the directory as `<base>/skill/<name>/`
 * (the trailing slash makes a relative reference resolve inside it), the file as `<base>/skill/<name>/SKILL.md`.
 */
export function httpLocations(baseUrl: string): SkillLocations {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    directory: (skill) => `${base}/skill/${uriSegment(skill.name)}/`,
    file: (skill) => `${base}/skill/${uriSegment(skill.name)}/SKILL.md`,
  };
}

/** The MCP resource URIs: the directory is `skill://<name>` (no trailing slash), the entry point its `SKILL.md`. */
export const SKILL_URI_LOCATIONS: SkillLocations = {
  directory: (skill) => skillUri(skill.name),
  file: (skill) => skillUri(skill.name, 'SKILL.md'),
};

/** `skill://<name>[/<relative>]`, each part percent-encoded where it is not a valid URI segment. */
export function skillUri(name: string, relative?: string): string {
  const root = `skill://${uriSegment(name)}`;
  if (relative === undefined || relative === '') return root;
  return `${root}/${relative.split('/').map(uriSegment).join('/')}`;
}

/** One path segment (or a `skill://` authority): unreserved characters as they are, everything else encoded. */
export function uriSegment(text: string): string {
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\ufffd')).replace(
    RESERVED_BY_ENCODE_URI_COMPONENT,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
