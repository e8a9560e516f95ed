// SKILL.md frontmatter (docs/discovery.md §2): where the block is, how it is read, and the repairs for hand-written YAML.

import { flatCopy } from '../flat-string.js';
import type { Profile } from '../types.js';
import { NESTED_MAPPING, readKeptBlock } from './frontmatter-fast-path.js';
import {
  commentScanAffordable,
  FrontmatterLimitError,
  parseFrontmatterBlock,
  parseFrontmatterBlockWithYaml,
  parseYaml,
} from './frontmatter-yaml.js';
import { camelKey, expansionBudget, FrontmatterTooLargeError, normaliseKeys } from './normalise-keys.js';

export interface ParsedFrontmatter {
  /** Normalised keys (rule 5), frozen; `{}` when there is no block or it held no map. */
  frontmatter: Record<string, unknown>;
  /** What follows the block, trimmed; the whole (normalised) text trimmed when there is no frontmatter. */
  body: string;
  hasFrontmatter: boolean;
  /**
   * The frontmatter and notes are what every dialect reads: the block parsed as YAML at once (or there is none), so
   * no repair or line fallback ran. Parsed files that say so are shared by the profiles of every dialect
   * (skill-file-cache.ts).
   */
  anyDialect: boolean;
}

const LINE_BREAK = /\r\n?/g;
const NEWLINE = 0x0a;
const TAB = /\t/g;
/** Rule 4, quoting pass: a `key: value` line whose key starts with a letter or `_` (prefix, value, trailing space). */
const KEY_VALUE_LINE = /^(\s*[A-Za-z_][\w-]*:\s+)(\S.*?)(\s*)$/;
/** Values starting like this are already YAML syntax (quoted, flow, block scalar, tag, anchor, alias, comment). */
const YAML_VALUE_START = /^["'[{|>!&*#]/;
/** Rule 4, line fallback. */
const FALLBACK_LINE = /^([\w-]+):\s*(.*)$/;
/**
 * Values the line fallback re-reads through YAML per block; later lines keep their raw text. Each re-read is a
 * whole YAML parse (~0.1 ms), and a 1 MiB block of broken YAML has 100k+ lines: real frontmatter has a few dozen.
 */
const MAX_FALLBACK_REREADS = 1000;
/** Rule 2: a leading byte order mark is not part of the text (the agents read files as text). */
const BOM = 0xfeff;
/** Rule 6: after the opening fence, only nothing or a YAML language name; any other names another engine. */
const YAML_LANGUAGE = /^(ya?ml)?$/i;
/** A fence naming a language (`---js`, `---coffee`, `---constructor`): what gray-matter would pick an engine by. */
const ENGINE_NAME = /^[A-Za-z]/;
/**
 * Largest block handed to the YAML parser. Parsing is synchronous: a 1 MiB block of valid YAML blocks the event loop
 * for seconds (10,000 lines took 0.2–1.5 s here), long enough for every other request to wait or be shed. Real
 * frontmatter is a few hundred bytes; past this a block is read by the line fallback of rule 4, which is linear.
 */
export const MAX_YAML_BLOCK_CHARACTERS = 64 * 1024;
/** Longest error text quoted in a note (a YAML message can quote an alias name taken from the file). */
const MAX_REASON_LENGTH = 200;
/** Shared by every result without keys; frozen like every other frontmatter. */
/** `normalised`: rule 5's camel-cased keys (the skill record); `as-written`: the keys of the file (MCP face). */
export type FrontmatterKeys = 'normalised' | 'as-written';

/**
 * All a profile changes in how a SKILL.md reads (docs/discovery.md §2): `repairing` (MusePi, OMP) quotes values
 * holding `": "` and re-reads the values of the line fallback as YAML; `plain` (xcsh) does neither. Two profiles of
 * one dialect read every file to the same frontmatter and notes, so they can share parsed files (skill-file-cache.ts).
 */
export type FrontmatterDialect = 'repairing' | 'plain';

export function frontmatterDialect(profile: Profile): FrontmatterDialect {
  return profile === 'xcsh' ? 'plain' : 'repairing';
}

const NO_KEYS: Record<string, unknown> = Object.freeze({});

/**
 * `notes`, when given, receives one line per thing a user should know about how the block was read (an engine
 * fence refused, YAML repaired or read line by line, a safety limit hit, an unusually large block). The result is
 * the same with or without it: notes are daemon-only and never change what the reference computes.
 */
export function parseFrontmatter(
  text: string,
  profile: Profile,
  notes?: string[],
  keys: FrontmatterKeys = 'normalised',
): ParsedFrontmatter {
  return parse(text, frontmatterDialect(profile), notes, true, keys === 'normalised' ? camelKey : keyAsWritten);
}

/** `parseFrontmatter` without its fast paths: what every result (and note) must equal. */
export function parseFrontmatterWithYaml(text: string, profile: Profile, notes?: string[]): ParsedFrontmatter {
  return parse(text, frontmatterDialect(profile), notes, false, camelKey);
}

type Rename = (key: string) => string;

function keyAsWritten(key: string): string {
  return key;
}

function parse(
  text: string,
  dialect: FrontmatterDialect,
  notes: string[] | undefined,
  fast: boolean,
  rename: Rename,
): ParsedFrontmatter {
  // The regex replace scans the whole file even when it has no CR (most files): ~10 µs per 6.7 KiB SKILL.md, as
  // much as the fast path's read of the block; `includes` finds there is none at memchr speed.
  const unmarked = text.charCodeAt(0) === BOM ? text.slice(1) : text;
  const normalised = removeHtmlComments(unmarked.includes('\r') ? unmarked.replace(LINE_BREAK, '\n') : unmarked);
  const block = findBlock(normalised, notes);
  if (!block) return { frontmatter: NO_KEYS, body: normalised.trim(), hasFrontmatter: false, anyDialect: true };
  const read = readBlock(block.yaml, dialect, notes, fast, rename);
  return { frontmatter: read.value, body: block.body, hasFrontmatter: true, anyDialect: read.anyDialect };
}

/**
 * Rule 2: the text starts with `---`; the block runs from offset 4 (the rest of a fence line such as `----` or
 * `---name: x` belongs to it) to the first `\n---` after offset 3. A fence naming another engine (`---js`) is never
 * run: its block is read as YAML like any other.
 */
function findBlock(text: string, notes?: string[]): { yaml: string; body: string } | undefined {
  if (!text.startsWith('---')) return undefined;
  const close = text.indexOf('\n---', 3);
  if (close === -1) return undefined;
  // A bare `---` fence line (almost every file) names nothing.
  if (notes && text.charCodeAt(3) !== NEWLINE) {
    const lineEnd = text.indexOf('\n', 3);
    const language = text.slice(3, lineEnd).trim();
    if (!YAML_LANGUAGE.test(language) && ENGINE_NAME.test(language)) {
      notes.push(
        `frontmatter fence ${JSON.stringify(`---${language.slice(0, 40)}`)} names a non-YAML engine: it is never ` +
          'run, and the block after it is read as YAML',
      );
    }
  }
  return { yaml: text.slice(4, close), body: text.slice(close + 4).trim() };
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

/**
 * `yaml` is the block as written: TABs become two spaces only in what the YAML reader is handed (rule 3); the
 * quoting pass and the line fallback read the block as written, so a TAB inside a value they produce survives.
 */
function readBlock(
  yaml: string,
  dialect: FrontmatterDialect,
  notes: string[] | undefined,
  fast: boolean,
  rename: Rename,
): { value: Record<string, unknown>; anyDialect: boolean } {
  if (yaml.length > MAX_YAML_BLOCK_CHARACTERS) {
    const { value, rawValues } = readLines(yaml, dialect, rename);
    notes?.push(
      `frontmatter exceeds a safety limit (${yaml.length} characters, more than the ${MAX_YAML_BLOCK_CHARACTERS} ` +
        `parsed as YAML); ${LINE_BY_LINE}${rawTail(rawValues)}`,
    );
    return { value, anyDialect: false };
  }
  if (fast && !yaml.includes('\t')) {
    // The simple shapes most blocks have, read once into the kept value (`readKeptBlock`). `description: Use when:
    // asked` is common: such a block is certainly not YAML, and its quoted reading is taken here without building
    // the YAML error and parsing twice (the slow path gives the same value and note); without the quoting step
    // (xcsh) the slow path reads it line by line after the same error, as done here. The slow path's budgets
    // (`expansionBudget`, the comment scan) bound what a simple block can cost: the first is never reached by one,
    // the second is checked as the slow path checks it.
    const quick = readKeptBlock(yaml, rename);
    if (quick !== undefined && commentScanAffordable(yaml)) {
      if (quick.quotedLine === 0) return { value: quick.value, anyDialect: true };
      const failure = `frontmatter is not valid YAML (line ${quick.quotedLine} of the block: ${NESTED_MAPPING})`;
      if (dialect === 'repairing') {
        notes?.push(`${failure}; ${QUOTED}`);
        return { value: quick.value, anyDialect: false };
      }
      const { value, rawValues } = readLines(yaml, dialect, rename);
      notes?.push(`${failure}; ${LINE_BY_LINE}${rawTail(rawValues)}`);
      return { value, anyDialect: false };
    }
  }
  const parsed = tryBlock(yaml.replace(TAB, '  '), fast, rename);
  if (parsed.ok) return { value: parsed.value, anyDialect: true };
  if (dialect === 'repairing') {
    const quoted = quoteColonValues(yaml);
    // Parsing an unchanged text again would only fail again (and a big block costs a second or so).
    const repaired = quoted === undefined ? undefined : tryBlock(quoted.replace(TAB, '  '), fast, rename);
    if (repaired?.ok) {
      notes?.push(`frontmatter ${describeFailure(parsed.error, yaml)}; ${QUOTED}`);
      return { value: repaired.value, anyDialect: false };
    }
  }
  const { value, rawValues } = readLines(yaml, dialect, rename);
  notes?.push(`frontmatter ${describeFailure(parsed.error, yaml)}; ${LINE_BY_LINE}${rawTail(rawValues)}`);
  return { value, anyDialect: false };
}

const LINE_BY_LINE = 'read line by line';
const QUOTED = 'read again with values containing ": " quoted';

function rawTail(rawValues: number): string {
  return rawValues > 0 ? ` (the last ${rawValues} values kept as raw text, unparsed)` : '';
}

type BlockRead = { ok: true; value: Record<string, unknown> } | { ok: false; error: unknown };

/** Rule 3 and 5: a map result, key-normalised; null, a scalar or a list count as `{}`. The error on failure. */
function tryBlock(yaml: string, fast: boolean, rename: Rename): BlockRead {
  try {
    const value = fast ? parseFrontmatterBlock(yaml) : parseFrontmatterBlockWithYaml(yaml);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: true, value: NO_KEYS };
    return { ok: true, value: normaliseKeys(value, expansionBudget(yaml.length), rename) as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error };
  }
}

/** `is not valid YAML (…)` or `exceeds a safety limit (…)`, for the note of a block whose parse failed. */
function describeFailure(error: unknown, yaml: string): string {
  if (error instanceof FrontmatterLimitError) return `exceeds a safety limit (${error.message})`;
  if (error instanceof FrontmatterTooLargeError)
    return 'exceeds a safety limit (expands beyond its size or depth budget)';
  const message = error instanceof Error ? error.message : String(error);
  // `yaml` stops a "billion laughs" expansion with this ReferenceError (maxAliasCount).
  if (error instanceof ReferenceError && /alias count/i.test(message)) {
    return 'exceeds a safety limit (too many alias expansions)';
  }
  const position = yamlErrorLine(error, yaml);
  const where = position === undefined ? '' : `line ${position} of the block: `;
  return `is not valid YAML (${where}${oneLine(message)})`;
}

/** The 1-based line of the block where `yaml` placed its error, when it says. */
function yamlErrorLine(error: unknown, yaml: string): number | undefined {
  const pos = (error as { pos?: unknown }).pos;
  if (!Array.isArray(pos) || typeof pos[0] !== 'number') return undefined;
  let line = 1;
  for (let at = yaml.indexOf('\n'); at !== -1 && at < pos[0]; at = yaml.indexOf('\n', at + 1)) line++;
  return line;
}

function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > MAX_REASON_LENGTH ? `${flat.slice(0, MAX_REASON_LENGTH)}…` : flat;
}

/**
 * Rule 4, quoting pass: `description: Use when: the user asks` becomes `description: "Use when: the user asks"`.
 * Undefined when no line changes.
 */
function quoteColonValues(yaml: string): string | undefined {
  let changed = false;
  const lines = yaml.split('\n').map((line) => {
    const match = KEY_VALUE_LINE.exec(line);
    if (!match) return line;
    const value = match[2]!.trimEnd();
    if (!value.includes(': ') || YAML_VALUE_START.test(value)) return line;
    changed = true;
    // A JSON string is a YAML double-quoted scalar (a TAB in it becomes a `\t` escape).
    return `${match[1]}${JSON.stringify(value)}${match[3]}`;
  });
  return changed ? lines.join('\n') : undefined;
}

/**
 * Rule 4, line fallback: one key per `key: value` line at column 0. `rawValues` counts the values left as raw
 * text only because of the re-read cap (xcsh keeps raw text by rule).
 */
function readLines(
  yaml: string,
  dialect: FrontmatterDialect,
  rename: Rename,
): { value: Record<string, unknown>; rawValues: number } {
  const result: Record<string, unknown> = {};
  let rereads = 0;
  let rawValues = 0;
  for (const line of yaml.split('\n')) {
    const match = FALLBACK_LINE.exec(line);
    if (!match) continue;
    const raw = match[2]!.trim();
    const reread = dialect === 'repairing' && rereads++ < MAX_FALLBACK_REREADS;
    if (dialect === 'repairing' && !reread) rawValues++;
    const value = reread ? readScalar(raw, rename) : raw;
    Object.defineProperty(result, rename(match[1]!), {
      // A string cut from the block (or parsed out of it) is kept as a copy of its own (docs/memory.md).
      value: typeof value === 'string' ? flatCopy(value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { value: Object.freeze(result), rawValues };
}

/** The text re-read as one YAML value: kept when a non-null scalar or a list, else the raw text. */
function readScalar(raw: string, rename: Rename): unknown {
  try {
    const value = parseYaml(raw);
    if (value === null || value === undefined) return raw;
    if (typeof value !== 'object') return value;
    if (Array.isArray(value)) return normaliseKeys(value, expansionBudget(raw.length), rename);
    return raw;
  } catch {
    return raw;
  }
}
