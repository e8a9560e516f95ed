// What the lines of a block of the simple shapes (frontmatter-fast-path.ts) tell without reading it as YAML again:
// the agents whose reader is not the daemon's YAML 1.2 one (OpenCode's YAML 1.1 with duplicate keys an error, Copilot
// CLI's look for a key written twice) take the simple shapes' reading when these say it is also theirs
// (docs/agents.md "OpenCode", "GitHub Copilot CLI"). A full parse costs 100–200 µs a block; this is one pass over
// the lines, done once per block for both agents.
//
// The simple shapes are: `key: scalar` or `key:` at column 0, the latter followed by a block sequence of one-line
// scalars (`- item`) or a one-level map of `sub: scalar` lines; blank lines anywhere; keys plain words. A scalar is a
// plain, 'single' or "double" quoted one on its line, or (read as the quoting pass reads it) a map value holding `": "`.

import type { YamlRead } from './frontmatter-rules.js';

export interface SimpleBlockLines {
  /** A mapping (the block's or a nested one) holds one key twice. */
  repeatedKey: boolean;
  /**
   * Every key and plain scalar starts with an ASCII letter or `_` and is not a YAML 1.1 exponent (`e5`, `E-2`): the
   * `yaml` package's YAML 1.1 schema with js-yaml's booleans (opencode.ts `readYaml11`) types these exactly as the
   * YAML 1.2 core schema does (null and boolean words alike; every other 1.1 form starts with a digit, a sign or a
   * dot, or is `<<`). Quoted scalars are strings in both.
   */
  sameInYaml11: boolean;
  /**
   * Every map value holding `": "` is on a top-level line whose key OpenCode's second reading rewrites
   * (opencode.ts `fallbackSanitization`: `[A-Za-z_][A-Za-z0-9_]*`), so that it becomes a `|-` block of that text.
   */
  colonValuesRewritten: boolean;
}

/** A YAML 1.1 float written with only an exponent (`yaml`'s 1.1 `floatExp` accepts an empty mantissa). */
const EXPONENT_ONLY = /^[eE][-+]?[0-9]+$/;
/** The keys OpenCode's second reading rewrites. */
const REWRITTEN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SPACE = 0x20;
const DASH = 0x2d;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const UNDERSCORE = 0x5f;

const scans = new WeakMap<YamlRead, SimpleBlockLines>();

/**
 * The lines of `block`, whose reading `read` came from the simple shapes' reader (`isSimpleShape`); memoised by that
 * read, which the agents share (frontmatter-rules.ts).
 */
export function simpleBlockLines(read: YamlRead, block: string): SimpleBlockLines {
  let known = scans.get(read);
  if (known === undefined) {
    known = scanLines(block);
    scans.set(read, known);
  }
  return known;
}

/** Exported for the tests; callers go through `simpleBlockLines`. */
export function scanLines(block: string): SimpleBlockLines {
  const out: SimpleBlockLines = { repeatedKey: false, sameInYaml11: true, colonValuesRewritten: true };
  const topKeys = new Set<string>();
  // The keys of the nested map under the last top-level key.
  const nestedKeys = new Set<string>();
  for (let start = 0; start <= block.length; ) {
    const newline = block.indexOf('\n', start);
    const end = newline < 0 ? block.length : newline;
    let at = start;
    while (at < end && block.charCodeAt(at) === SPACE) at++;
    if (at < end && block.charCodeAt(at) === DASH) {
      // `- item`: no key, and an item never holds `": "` in these shapes.
      checkScalar(block, at + 1, end, out);
    } else if (at < end) {
      const colon = block.indexOf(':', at);
      const key = block.slice(at, colon);
      const top = at === start;
      if (top) nestedKeys.clear();
      const keys = top ? topKeys : nestedKeys;
      if (keys.has(key)) out.repeatedKey = true;
      keys.add(key);
      if (!startsAsText(key)) out.sameInYaml11 = false;
      const value = checkScalar(block, colon + 1, end, out);
      if (value?.includes(': ') && !(top && REWRITTEN_KEY.test(key))) {
        out.colonValuesRewritten = false;
      }
    }
    start = end + 1;
  }
  return out;
}

/** Checks the scalar in `block[from, end)` (spaces around it); returns a plain one's text. */
function checkScalar(block: string, from: number, end: number, out: SimpleBlockLines): string | undefined {
  let start = from;
  while (start < end && block.charCodeAt(start) === SPACE) start++;
  let stop = end;
  while (stop > start && block.charCodeAt(stop - 1) === SPACE) stop--;
  if (start === stop) return undefined;
  const first = block.charCodeAt(start);
  if (first === SINGLE_QUOTE || first === DOUBLE_QUOTE) return undefined;
  const text = block.slice(start, stop);
  if (!startsAsText(text)) out.sameInYaml11 = false;
  return text;
}

/** Starts with an ASCII letter or `_` and is no exponent-only float: text, null or a boolean alike in 1.1 and 1.2. */
function startsAsText(text: string): boolean {
  const first = text.charCodeAt(0) | 0x20;
  const letter = (first >= 0x61 && first <= 0x7a) || text.charCodeAt(0) === UNDERSCORE;
  return letter && !EXPONENT_ONLY.test(text);
}
