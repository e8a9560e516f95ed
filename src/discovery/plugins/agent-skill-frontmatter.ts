// The strict SKILL.md reading of Agent Plugins (SKILLS.md §4a): the YAML block must parse as it is (none of §2's
// repairs or line fallback), keys are taken as written, and every field is validated. Returns the frontmatter or the
// reason the skill is skipped.

import { parseYaml } from '../frontmatter-yaml.js';

const ALLOWED_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'license',
  'allowed-tools',
  'metadata',
  'compatibility',
]);
/** Lower-case letters and digits, single inner hyphens. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

export type StrictFrontmatter =
  | { ok: true; name: string; description: string; frontmatter: Record<string, unknown> }
  | { ok: false; reason: string };

export function readStrictFrontmatter(raw: string, dirName: string): StrictFrontmatter {
  const text = (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) return { ok: false, reason: 'no YAML frontmatter' };
  const close = text.indexOf('\n---', 3);
  if (close === -1) return { ok: false, reason: 'no YAML frontmatter' };
  let value: unknown;
  try {
    value = parseYaml(text.slice(4, close + 1));
  } catch {
    return { ok: false, reason: 'malformed YAML frontmatter' };
  }
  if (value === null || value === undefined) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'malformed YAML frontmatter' };
  }
  const frontmatter = value as Record<string, unknown>;
  for (const key of Object.keys(frontmatter)) {
    if (!ALLOWED_KEYS.has(key)) return { ok: false, reason: `unknown frontmatter field "${key}"` };
  }
  const { name, description, compatibility, metadata } = frontmatter;
  if (typeof name !== 'string' || name === '') return { ok: false, reason: 'missing name' };
  const normalised = name.normalize('NFKC');
  if (normalised.length > MAX_NAME || !SKILL_NAME.test(normalised)) {
    return { ok: false, reason: `invalid name "${name}"` };
  }
  if (normalised !== dirName) return { ok: false, reason: `name "${name}" does not match its directory` };
  if (typeof description !== 'string' || description.trim() === '') return { ok: false, reason: 'missing description' };
  if (description.length > MAX_DESCRIPTION) {
    return { ok: false, reason: `description longer than ${MAX_DESCRIPTION} characters` };
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length > MAX_COMPATIBILITY)) {
    return { ok: false, reason: `compatibility is not a string of at most ${MAX_COMPATIBILITY} characters` };
  }
  if (metadata !== undefined && !isStringMap(metadata)) return { ok: false, reason: 'metadata is not a string map' };
  return { ok: true, name: normalised, description, frontmatter };
}

function isStringMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((item) => typeof item === 'string');
}
