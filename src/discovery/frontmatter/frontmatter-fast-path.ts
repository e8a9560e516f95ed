// A reader for the frontmatter blocks real skills have (docs/discovery.md §2), without the `yaml` composer: a full
// parseDocument costs 120–200 µs per block, more than reading the file. It accepts only shapes whose YAML 1.2
// (core schema) reading is certain and returns exactly what `yaml` + `toJS` would; for anything else it returns
// `undefined` and the block goes to `yaml` unchanged (so every error, note and limit stays `yaml`'s).
//
// Accepted, line by line (blank lines of spaces anywhere):
//   key: scalar                  top-level keys at column 0
//   key:                         then nothing (null), or
//     - scalar                   a block sequence of scalars (same indentation, possibly column 0), or
//     sub: scalar                one level of map with scalar (or empty) values at one indentation
// where a scalar is one line: plain (core-schema typed), 'single quoted' or "double quoted" with simple escapes.
// Refused: comments, anchors, aliases, tags, block scalars, flow collections, directives, reserved indicators,
// tabs, control and Unicode space characters, multi-line scalars, surrogate escapes, keys that are not plain words.
// A repeated key is read as `yaml` (and the agents) read it: the last value, in the first one's place.
//
// Blocks whose map values hold an unquoted `": "` (`description: Use when: …`) are not YAML; rule 4's quoting pass
// reads them, and `readQuotedSimpleBlock` gives its result without the failed parse (building a YAMLParseError and
// parsing twice). Descriptions written so are common, and a failed parse costs several times a successful one, so
// taking them here is most of what this reader saves on a tree full of them (docs/performance.md).

import { flatCopy } from '../flat-string.js';
import {
  type Budget,
  DASH,
  REFUSED,
  type Read,
  readScalar,
  type Scalar,
  SPACE,
  skipSpaces,
  trimEnd,
} from './frontmatter-scalars.js';

/** What `yaml` would make of the block, or `undefined` when the block is not one of the simple shapes. */
export type SimpleBlockValue = Record<string, unknown> | undefined;

/**
 * Longest key taken here. YAML limits an implicit key to 1024 characters (`yaml` reports an error past it); real
 * keys are a few words.
 */
const MAX_KEY_LENGTH = 128;

/** Plain words only: no quoting, no digits first (a number-like key would be typed and reordered by JS). */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/**
 * The plain words the core schema types as something else than a string (`typePlain`): a null or a boolean. No
 * other word of PLAIN_KEY's shape is typed (a number starts with a digit, a sign or a dot).
 */
const NON_STRING_KEYS: ReadonlySet<string> = new Set([
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
]);

/**
 * The block (the text between the fences, as `parseFrontmatterBlock` receives it) read as YAML 1.2 core, or
 * `undefined` when it is not one of the simple shapes above.
 */
export function readSimpleBlock(block: string): SimpleBlockValue {
  return readShapes(block, false)?.value;
}

/**
 * A block of the simple shapes except that some map values hold `": "` (`description: Use when: asked`): such a
 * block is certainly not valid YAML (a nested mapping in a compact value), and rule 4's quoting pass makes exactly
 * those values double-quoted strings. The value of the quoted block, and the first line the pass quotes; undefined
 * for any other block. Only for a block without TABs (the pass reads the block as written, the YAML reader does not).
 */
export function readQuotedSimpleBlock(block: string): { value: Record<string, unknown>; line: number } | undefined {
  const read = readShapes(block, true);
  return read === undefined || read.quotedLine === 0 ? undefined : { value: read.value, line: read.quotedLine };
}

/** `yaml`'s message for a map value holding `": "` (`key: a: b`): its first error on every such block taken here. */
export const NESTED_MAPPING = 'Nested mappings are not allowed in compact mappings';

/**
 * The agents' YAML reading of a block (`parseYaml`, as `readYamlMapping` of agents/frontmatter-rules.ts calls it) for
 * the simple shapes: the value, or NESTED_MAPPING for a block whose map values hold `": "` (the reader's first error
 * there, see `readQuotedSimpleBlock`); undefined for any other block. The agents have no quoting pass of their own
 * here, so the quoted reading is only what tells that the block fails, without building the error (docs/performance.md).
 */
export function readAgentsSimpleBlock(block: string): Record<string, unknown> | typeof NESTED_MAPPING | undefined {
  const read = readShapes(block, true);
  if (read === undefined) return undefined;
  return read.quotedLine === 0 ? read.value : NESTED_MAPPING;
}

/**
 * What `readBlock` of frontmatter.ts keeps from a block without TABs, in one reading: the block read as the quoting
 * pass of rule 4 would have it (`quotedLine` 0 when the pass would change nothing, so that the reading is the
 * block's own YAML value), with what `normaliseKeys` does to a parsed value done on the way: keys renamed by
 * `rename`, maps and lists frozen, string values flat copies (docs/memory.md "Kept strings"). Undefined for a block
 * of any other shape, and for one where two keys rename to one name (`normaliseKeys` of the raw value decides which
 * value wins there).
 *
 * A block without `": "` in a map value is read the same way in both modes (the quoting reading differs only on
 * such a value, which the plain reading refuses), so one pass tells both (docs/performance.md "Where the time and the
 * memory still go": parsing is what the first answer pays over the floor).
 */
export function readKeptBlock(
  block: string,
  rename: (key: string) => string,
): { value: Record<string, unknown>; quotedLine: number } | undefined {
  return readShapes(block, true, rename);
}

function readShapes(
  block: string,
  quoting: boolean,
  rename?: (key: string) => string,
): { value: Record<string, unknown>; quotedLine: number } | undefined {
  // Values cut from the lines are slices of the SKILL.md text (V8 slices 13+ characters): whatever is kept is copied
  // flat, by `readKeptBlock` here and by `normaliseKeys` otherwise, so the lines can be cut from the block as it is.
  const lines = block.split('\n');
  const budget: Budget = { openers: 0, quoting, line: 0, quotedLine: 0, rename };
  const result: Record<string, unknown> = {};
  let renamed = false;
  let index = skipBlank(lines, 0);
  while (index < lines.length) {
    const line = lines[index]!;
    const colon = keyEnd(line, 0);
    if (colon === -1) return undefined;
    // A repeated key is legal and the last one wins, in the first one's place (docs/discovery.md §2 rule 4b), as here.
    const key = line.slice(0, colon);
    const start = skipSpaces(line, colon + 1);
    const end = trimEnd(line, start);
    let value: unknown;
    if (start < end) {
      budget.line = index + 1;
      value = readScalar(line, start, end, budget, true);
      if (value === REFUSED) return undefined;
      // An indented line next (a continuation of the scalar) fails the key check of the next turn.
      index = skipBlank(lines, index + 1);
    } else {
      const next = skipBlank(lines, index + 1);
      const child = next < lines.length ? readChild(lines, next, budget) : { value: null, next };
      if (child === undefined) return undefined;
      value = child.value;
      index = child.next;
    }
    const put = putKey(result, key, value, budget, renamed);
    if (put === REFUSED) return undefined;
    renamed = put;
  }
  return { value: budget.rename === undefined ? result : Object.freeze(result), quotedLine: budget.quotedLine };
}

/**
 * `setKey`, under `budget.rename` when set (the value then copied flat): whether a key of `map` has been renamed so
 * far, or REFUSED when `key` lands on a name the map already holds from another key, or renamed (`renamed`: one of
 * its keys was renamed before). The raw value's own last-one-wins could then differ from this one's.
 */
function putKey(
  map: Record<string, unknown>,
  key: string,
  value: unknown,
  budget: Budget,
  renamed: boolean,
): boolean | typeof REFUSED {
  const { rename } = budget;
  if (rename === undefined) {
    setKey(map, key, value);
    return false;
  }
  const name = rename(key);
  if (Object.hasOwn(map, name) && (name !== key || renamed)) return REFUSED;
  setKey(map, name, keptValue(value));
  return renamed || name !== key;
}

/** A kept string as a flat string of its own: a slice of 13+ characters would hold the whole text it was cut from. */
function keptValue(value: unknown): unknown {
  return typeof value === 'string' ? flatCopy(value) : value;
}

/**
 * The value of a key whose line ends after its colon, starting at the first non-blank line after it: a block
 * sequence, a one-level map, or null when that line is the next top-level key.
 */
function readChild(lines: string[], first: number, budget: Budget): { value: unknown; next: number } | undefined {
  const line = lines[first]!;
  const indent = skipSpaces(line, 0);
  if (line.charCodeAt(indent) === DASH) return readSequence(lines, first, indent, budget);
  if (indent === 0) return { value: null, next: first };
  return readNestedMap(lines, first, indent, budget);
}

function readSequence(
  lines: string[],
  first: number,
  indent: number,
  budget: Budget,
): { value: readonly unknown[]; next: number } | undefined {
  const items: unknown[] = [];
  let index = first;
  while (index < lines.length) {
    const line = lines[index]!;
    const at = skipSpaces(line, 0);
    if (at !== indent || line.charCodeAt(at) !== DASH) {
      // The sequence ends at the next top-level key; any other indentation is a shape not read here.
      if (at === 0 && line.charCodeAt(0) !== DASH) break;
      return undefined;
    }
    const after = at + 1;
    const end = trimEnd(line, after);
    if (after === end) {
      items.push(null);
    } else {
      if (line.charCodeAt(after) !== SPACE) return undefined;
      const value = readScalar(line, skipSpaces(line, after), end, budget, false);
      if (value === REFUSED) return undefined;
      items.push(budget.rename === undefined ? value : keptValue(value));
    }
    index = skipBlank(lines, index + 1);
  }
  return { value: budget.rename === undefined ? items : Object.freeze(items), next: index };
}

function readNestedMap(
  lines: string[],
  first: number,
  indent: number,
  budget: Budget,
): { value: Record<string, unknown>; next: number } | undefined {
  const map: Record<string, unknown> = {};
  let renamed = false;
  let index = first;
  while (index < lines.length) {
    const line = lines[index]!;
    const at = skipSpaces(line, 0);
    if (at !== indent) {
      if (at === 0) break;
      return undefined;
    }
    const colon = keyEnd(line, at);
    if (colon === -1) return undefined;
    const key = line.slice(at, colon);
    const start = skipSpaces(line, colon + 1);
    const end = trimEnd(line, start);
    let value: Read<Scalar> = null;
    if (start < end) {
      budget.line = index + 1;
      value = readScalar(line, start, end, budget, true);
      if (value === REFUSED) return undefined;
    }
    const put = putKey(map, key, value, budget, renamed);
    if (put === REFUSED) return undefined;
    renamed = put;
    index = skipBlank(lines, index + 1);
  }
  return { value: budget.rename === undefined ? map : Object.freeze(map), next: index };
}

/**
 * `key:` at `from`: the index of the colon, or -1 when the line does not start with a plain-word key that YAML types
 * as a string, followed by a colon and then a space or the end of the line.
 */
function keyEnd(line: string, from: number): number {
  const colon = line.indexOf(':', from);
  if (colon === -1 || colon - from > MAX_KEY_LENGTH) return -1;
  const after = line.charCodeAt(colon + 1);
  if (colon + 1 < line.length && after !== SPACE) return -1;
  const key = line.slice(from, colon);
  if (!PLAIN_KEY.test(key) || NON_STRING_KEYS.has(key)) return -1;
  return colon;
}

/** An own property as `yaml` sets it: a name found on the prototype (`constructor`…) is defined, not assigned. */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  if (key in map) {
    Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    map[key] = value;
  }
}

/** The first line at or after `from` holding anything but spaces. */
function skipBlank(lines: string[], from: number): number {
  let index = from;
  while (index < lines.length && skipSpaces(lines[index]!, 0) === lines[index]!.length) index++;
  return index;
}
