// The strict SKILL.md reading of Agent Plugins (docs/plugins.md, "Agent Plugins"): the YAML block must parse as it is (none of §2's
// repairs or line fallback), keys are taken as written, and every field is validated. Returns the frontmatter or the
// reason the skill is skipped.

import { parseYaml } from '../frontmatter/frontmatter-yaml.js';
import { isRecord } from './read-json-file.js';

const ALLOWED_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'license',
  'allowed-tools',
  'metadata',
  'compatibility',
]);
/** Unicode letters, Unicode digits and `-` (the hyphen rules are checked before, each with its own reason). */
const SKILL_NAME = /^[\p{L}\p{N}-]+$/u;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

export type StrictFrontmatter =
  | { ok: true; name: string; description: string; frontmatter: Record<string, unknown> }
  | { ok: false; reason: string };

/**
 * The checks in their fixed order; the first failure is the reason (docs/plugins.md, "Agent Plugins"). The skill's
 * name is `dirName`, which the frontmatter's `name` must match.
 */
export function readStrictFrontmatter(raw: string, dirName: string): StrictFrontmatter {
  const value = readBlock(raw);
  if (value === MALFORMED) return { ok: false, reason: 'malformed YAML frontmatter' };
  const frontmatter = value;
  // Before any check of the name: a key outside the standard's set is the first thing reported.
  for (const key of Object.keys(frontmatter)) {
    if (!ALLOWED_KEYS.has(key)) return { ok: false, reason: `unexpected frontmatter field "${key}"` };
  }
  const nameProblem = checkName(frontmatter.name, dirName);
  if (nameProblem !== undefined) return { ok: false, reason: nameProblem };
  const { description, license, compatibility, metadata } = frontmatter;
  if (typeof description !== 'string' || description.trim() === '') {
    return { ok: false, reason: 'missing required "description"' };
  }
  if (codePoints(description) > MAX_DESCRIPTION) {
    return { ok: false, reason: `"description" exceeds ${MAX_DESCRIPTION} characters` };
  }
  if (license !== undefined && typeof license !== 'string') return { ok: false, reason: '"license" must be a string' };
  if (compatibility !== undefined) {
    if (typeof compatibility !== 'string') return { ok: false, reason: '"compatibility" must be a string' };
    if (codePoints(compatibility) > MAX_COMPATIBILITY) {
      return { ok: false, reason: `"compatibility" exceeds ${MAX_COMPATIBILITY} characters` };
    }
  }
  if (metadata !== undefined) {
    if (!isRecord(metadata)) return { ok: false, reason: '"metadata" must be a map of string keys to string values' };
    for (const [key, item] of Object.entries(metadata)) {
      if (typeof item !== 'string') return { ok: false, reason: `"metadata.${key}" must be a string` };
    }
  }
  const allowedTools = frontmatter['allowed-tools'];
  if (allowedTools !== undefined && typeof allowedTools !== 'string') {
    return { ok: false, reason: '"allowed-tools" must be a string' };
  }
  return { ok: true, name: dirName, description, frontmatter };
}

const MALFORMED = Symbol('malformed');

/** The frontmatter as written: `{}` for a file without a block, MALFORMED for a block that is not a YAML map. */
function readBlock(raw: string): Record<string, unknown> | typeof MALFORMED {
  const text = (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) return {};
  const close = text.indexOf('\n---', 3);
  if (close === -1) return {};
  let value: unknown;
  try {
    value = parseYaml(text.slice(4, close + 1));
  } catch {
    return MALFORMED;
  }
  if (value === null || value === undefined) return {};
  return isRecord(value) ? value : MALFORMED;
}

function checkName(name: unknown, dirName: string): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'missing required "name"';
  const normalised = name.trim().normalize('NFKC');
  if (codePoints(normalised) > MAX_NAME) return `"name" exceeds ${MAX_NAME} characters`;
  if (normalised !== normalised.toLowerCase()) return '"name" must be lowercase';
  if (normalised.startsWith('-') || normalised.endsWith('-')) return '"name" cannot start or end with a hyphen';
  if (normalised.includes('--')) return '"name" cannot contain consecutive hyphens';
  if (!SKILL_NAME.test(normalised)) return `invalid "name" ${JSON.stringify(normalised)}`;
  if (normalised !== dirName.normalize('NFKC')) {
    return `"name" ${JSON.stringify(normalised)} does not match directory ${JSON.stringify(dirName)}`;
  }
  return undefined;
}

/** Lengths are counted in code points: sixty letters outside the BMP are sixty characters. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
