// SKILL.md frontmatter (SKILLS.md §2): where the block is, how it is read, and the repairs for hand-written YAML.

import { parseFrontmatterBlock, parseYaml } from './frontmatter-yaml.js';
import { camelKey, expansionBudget, normaliseKeys } from './normalise-keys.js';
import type { Profile } from './types.js';

export interface ParsedFrontmatter {
  /** Normalised keys (rule 5), frozen; `{}` when there is no block or it held no map. */
  frontmatter: Record<string, unknown>;
  /** What follows the block, trimmed; the whole (normalised) text trimmed when there is no frontmatter. */
  body: string;
  hasFrontmatter: boolean;
}

const LINE_BREAK = /\r\n?/g;
const TAB = /\t/g;
/** Rule 4, quoting pass: a `key: value` line (indentation kept). */
const KEY_VALUE_LINE = /^(\s*[\w-]+):\s+(.*)$/;
/** Values starting like this are already YAML syntax (quoted, flow, block scalar, tag, anchor, alias, comment). */
const YAML_VALUE_START = /^["'[{|>!&*#]/;
/** Rule 4, line fallback. */
const FALLBACK_LINE = /^([\w-]+):\s*(.*)$/;
/**
 * Values the line fallback re-reads through YAML per block; later lines keep their raw text. Each re-read is a
 * whole YAML parse (~0.1 ms), and a 1 MiB block of broken YAML has 100k+ lines: real frontmatter has a few dozen.
 */
const MAX_FALLBACK_REREADS = 1000;
/** Rule 6: after the opening fence, only nothing or a YAML language name; any other names another engine. */
const YAML_LANGUAGE = /^(ya?ml)?$/i;
/** Shared by every result without keys; frozen like every other frontmatter. */
const NO_KEYS: Record<string, unknown> = Object.freeze({});

export function parseFrontmatter(text: string, profile: Profile): ParsedFrontmatter {
  const normalised = removeHtmlComments(text.replace(LINE_BREAK, '\n'));
  const block = findBlock(normalised);
  if (!block) return { frontmatter: NO_KEYS, body: normalised.trim(), hasFrontmatter: false };
  return { frontmatter: readBlock(block.yaml.replace(TAB, '  '), profile), body: block.body, hasFrontmatter: true };
}

/** Rule 2: the text starts with `---`; the block ends at the first `\n---` after offset 3. */
function findBlock(text: string): { yaml: string; body: string } | undefined {
  if (!text.startsWith('---')) return undefined;
  const close = text.indexOf('\n---', 3);
  if (close === -1) return undefined;
  // The rest of the fence line names gray-matter's engine (`---js` would be eval-ed): only YAML is read.
  const fenceEnd = text.indexOf('\n', 3);
  if (!YAML_LANGUAGE.test(text.slice(3, fenceEnd).trim())) return undefined;
  const yaml = fenceEnd === close ? '' : text.slice(fenceEnd + 1, close);
  return { yaml, body: text.slice(close + 4).trim() };
}

/** Rule 1. Linear: after an unclosed `<!--` nothing further can close, so the scan stops there. */
function removeHtmlComments(text: string): string {
  let start = text.indexOf('<!--');
  if (start === -1) return text;
  const parts: string[] = [];
  let kept = 0;
  while (start !== -1) {
    const end = text.indexOf('-->', start + 4);
    if (end === -1) break;
    parts.push(text.slice(kept, start));
    kept = end + 3;
    start = text.indexOf('<!--', kept);
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

function readBlock(yaml: string, profile: Profile): Record<string, unknown> {
  const parsed = tryBlock(yaml);
  if (parsed) return parsed;
  if (profile !== 'xcsh') {
    const quoted = quoteColonValues(yaml);
    // Parsing an unchanged text again would only fail again (and a big block costs a second or so).
    const repaired = quoted === yaml ? undefined : tryBlock(quoted);
    if (repaired) return repaired;
  }
  return readLines(yaml, profile);
}

/** Rule 3 and 5: a map result, key-normalised; null, a scalar or a list count as `{}`. Undefined on any error. */
function tryBlock(yaml: string): Record<string, unknown> | undefined {
  try {
    const value = parseFrontmatterBlock(yaml);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return NO_KEYS;
    return normaliseKeys(value, expansionBudget(yaml.length)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Rule 4, quoting pass: `description: Use when: the user asks` becomes `description: "Use when: the user asks"`. */
function quoteColonValues(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const match = KEY_VALUE_LINE.exec(line);
      if (!match) return line;
      const value = match[2]!.trim();
      if (!value.includes(': ') || YAML_VALUE_START.test(value)) return line;
      // A JSON string is a valid YAML 1.2 double-quoted scalar.
      return `${match[1]}: ${JSON.stringify(value)}`;
    })
    .join('\n');
}

/** Rule 4, line fallback: one key per `key: value` line at column 0. */
function readLines(yaml: string, profile: Profile): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  let rereads = 0;
  for (const line of yaml.split('\n')) {
    const match = FALLBACK_LINE.exec(line);
    if (!match) continue;
    const raw = match[2]!.trim();
    const reread = profile !== 'xcsh' && rereads++ < MAX_FALLBACK_REREADS;
    Object.defineProperty(result, camelKey(match[1]!), {
      value: reread ? readScalar(raw) : raw,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return Object.freeze(result);
}

/** The text re-read as one YAML value: kept when a non-null scalar or a list, else the raw text. */
function readScalar(raw: string): unknown {
  try {
    const value = parseYaml(raw);
    if (value === null || value === undefined) return raw;
    if (typeof value !== 'object') return value;
    if (Array.isArray(value)) return normaliseKeys(value, expansionBudget(raw.length));
    return raw;
  } catch {
    return raw;
  }
}
