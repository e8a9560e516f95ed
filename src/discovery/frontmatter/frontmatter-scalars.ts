// The scalars of the frontmatter fast path (frontmatter-fast-path.ts, docs/discovery.md §2): one line's plain,
// 'single quoted' or "double quoted" value read as YAML 1.2 core types it, or REFUSED when only the `yaml` composer
// can be sure of its reading. Also the per-block budget the readers share and the character classes they test.

/**
 * `[` and `{` in quoted text the slow path counts towards its flow-depth limit (MAX_FLOW_DEPTH of
 * frontmatter-yaml.ts, counted naively, quotes included): past this many the block goes there, so that a block the
 * slow path would refuse for depth is never accepted here.
 */
const MAX_FLOW_OPENERS = 1000;

// YAML 1.2.2 §10.3.2 (core schema), in the order `yaml` tries them: the first match types the plain scalar.
const CORE_NULL = /^(?:~|[Nn]ull|NULL)$/;
const CORE_TRUE = /^(?:[Tt]rue|TRUE)$/;
const CORE_FALSE = /^(?:[Ff]alse|FALSE)$/;
const CORE_INT_OCT = /^0o[0-7]+$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_INT_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_INF = /^[-+]?\.(?:inf|Inf|INF)$/;
const CORE_NAN = /^\.(?:nan|NaN|NAN)$/;
const CORE_FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** Double-quoted escapes of one character (YAML 1.2.2 §5.7) that map to one fixed string. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

/** Hex digits after `\x`, `\u`, `\U`. */
const HEX_ESCAPE_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX_DIGITS = /^[0-9a-fA-F]+$/;

/** Marks "not simple" inside the reader; never escapes the fast path. */
export const REFUSED = Symbol('refused');
export type Scalar = string | number | boolean | null;
export type Read<T> = T | typeof REFUSED;

/** Per-block state: the flow openers seen inside quoted scalars. */
export interface Budget {
  openers: number;
  /**
   * Reading the block as the quoting pass of rule 4 rewrites it: a map value holding `": "` is taken whole as text
   * (the pass double-quotes it) instead of refusing the block.
   */
  quoting: boolean;
  /** The line being read (1-based in the block). */
  line: number;
  /** The first line whose value the quoting pass would quote; 0 for none. */
  quotedLine: number;
  /**
   * Set for the reading a record keeps (`readKeptBlock`): keys renamed as `normaliseKeys` renames them, maps and
   * lists frozen, string values copied flat.
   */
  rename: ((key: string) => string) | undefined;
}

/** One scalar filling `line[start, end)` (no leading or trailing spaces); `mapValue`: the value of a `key:` line. */
export function readScalar(line: string, start: number, end: number, budget: Budget, mapValue: boolean): Read<Scalar> {
  const first = line.charCodeAt(start);
  if (first === DOUBLE_QUOTE) return readDoubleQuoted(line, start, end, budget);
  if (first === SINGLE_QUOTE) return readSingleQuoted(line, start, end, budget);
  return readPlain(line, start, end, budget.quoting && mapValue ? budget : undefined);
}

/** `quoting`: a `": "` makes the whole value text (see `readQuotedSimpleBlock`) instead of refusing it. */
function readPlain(line: string, start: number, end: number, quoting?: Budget): Read<Scalar> {
  if (quoting !== undefined && holdsColonSpace(line, start, end)) return readQuotedValue(line, start, end, quoting);
  const first = line.charCodeAt(start);
  if (PLAIN_REFUSED_FIRST.has(first)) return REFUSED;
  // `-x` is a plain scalar; `- x` or a lone `-` would be a sequence entry.
  if (first === DASH && (start + 1 === end || line.charCodeAt(start + 1) === SPACE)) return REFUSED;
  for (let i = start; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code < 0x80) {
      if (code < 0x20 || code === 0x7f || PLAIN_REFUSED_ANYWHERE[code] === 1) return REFUSED;
      // `: ` would start a nested mapping (an error in a compact value); `:x` inside a word is text.
      if (code === COLON && (i + 1 === end || line.charCodeAt(i + 1) === SPACE)) return REFUSED;
    } else {
      const next = checkWide(line, i, end);
      if (next === -1) return REFUSED;
      i = next;
    }
  }
  return typePlain(line.slice(start, end));
}

/** `line[start, end)` holds `": "` (the value ends with no space, so the colon is never its last character). */
function holdsColonSpace(line: string, start: number, end: number): boolean {
  const at = line.indexOf(': ', start);
  return at !== -1 && at + 1 < end;
}

/**
 * A map value holding `": "`, which the quoting pass turns into a JSON string, i.e. a YAML double-quoted scalar of
 * exactly this text. The note must still name the error YAML reports on the value as written, so:
 * - up to the first `": "` the value is read as any plain scalar (YAML reads that part as one: a ` #` there would
 *   start a comment and the block could even be valid);
 * - after each `": "`, the next node must not start with a flow collection, a tag, an anchor, an alias, a block
 *   scalar, a comment or a reserved indicator (YAML would report another error first), nor with a quote that does
 *   not close on the line (YAML reports the unclosed quote);
 * - elsewhere after the first `": "` anything printable is text inside the quotes (`#`, backticks, brackets, `|`,
 *   a colon at the end), but controls, lone surrogates and line or space separators are refused as in any scalar
 *   (JSON escapes them, or YAML reads them differently), and `[`/`{` count towards the flow-depth limit.
 */
function readQuotedValue(line: string, start: number, end: number, budget: Budget): Read<string> {
  const firstColon = line.indexOf(': ', start);
  if (readPlain(line, start, firstColon) === REFUSED) return REFUSED;
  for (let i = firstColon; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code < 0x80) {
      if (code < 0x20 || code === 0x7f) return REFUSED;
      if ((code === OPEN_BRACKET || code === OPEN_BRACE) && ++budget.openers > MAX_FLOW_OPENERS) return REFUSED;
      if (code === COLON && line.charCodeAt(i + 1) === SPACE) {
        const next = skipSpaces(line, i + 1);
        const after = line.charCodeAt(next);
        // A quote there opens a quoted scalar: YAML reports a quote it cannot close first.
        if ((after === SINGLE_QUOTE || after === DOUBLE_QUOTE) && !closesOnLine(line, next, end)) return REFUSED;
        if (NODE_START.has(after)) return REFUSED;
      }
    } else {
      const next = checkWide(line, i, end);
      if (next === -1) return REFUSED;
      i = next;
    }
  }
  if (budget.quotedLine === 0) budget.quotedLine = budget.line;
  return line.slice(start, end);
}

/** The quoted scalar opening at `start` closes before `end` (`''` and backslash escapes do not close it). */
function closesOnLine(line: string, start: number, end: number): boolean {
  const quote = line.charCodeAt(start);
  for (let i = start + 1; i < end; i++) {
    const code = line.charCodeAt(i);
    if (quote === DOUBLE_QUOTE && code === BACKSLASH) i++;
    else if (code === quote && quote === SINGLE_QUOTE && line.charCodeAt(i + 1) === SINGLE_QUOTE) i++;
    else if (code === quote) return true;
  }
  return false;
}

/** A single-quoted scalar on one line: `''` is a quote, everything else is itself. */
function readSingleQuoted(line: string, start: number, end: number, budget: Budget): Read<string> {
  let text = '';
  let chunk = start + 1;
  for (let i = start + 1; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code === SINGLE_QUOTE) {
      if (line.charCodeAt(i + 1) !== SINGLE_QUOTE) {
        // The closing quote must end the scalar: anything after it is a shape not read here.
        return i + 1 === end ? text + line.slice(chunk, i) : REFUSED;
      }
      text += line.slice(chunk, i + 1);
      i++;
      chunk = i + 1;
    } else if (!acceptQuotedCode(line, i, code, budget)) {
      return REFUSED;
    } else if (code >= 0x80) {
      i = checkWide(line, i, end);
    }
  }
  return REFUSED;
}

/** A double-quoted scalar on one line with the escapes of YAML 1.2.2 §5.7. */
function readDoubleQuoted(line: string, start: number, end: number, budget: Budget): Read<string> {
  let text = '';
  let chunk = start + 1;
  for (let i = start + 1; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code === DOUBLE_QUOTE) return i + 1 === end ? text + line.slice(chunk, i) : REFUSED;
    if (code === BACKSLASH) {
      text += line.slice(chunk, i);
      const letter = line[i + 1];
      if (letter === undefined || i + 1 >= end) return REFUSED;
      const simple = SIMPLE_ESCAPES[letter];
      if (simple !== undefined) {
        text += simple;
        i++;
      } else {
        const length = HEX_ESCAPE_LENGTH[letter];
        if (length === undefined) return REFUSED;
        const hex = line.slice(i + 2, i + 2 + length);
        if (hex.length !== length || i + 2 + length > end || !HEX_DIGITS.test(hex)) return REFUSED;
        const point = Number.parseInt(hex, 16);
        // Surrogate escapes (lone ones are an error, rule 4b) are left to the slow path.
        if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return REFUSED;
        text += String.fromCodePoint(point);
        i += 1 + length;
      }
      chunk = i + 1;
    } else if (!acceptQuotedCode(line, i, code, budget)) {
      return REFUSED;
    } else if (code >= 0x80) {
      i = checkWide(line, i, end);
    }
  }
  return REFUSED;
}

/** A character inside quotes: printable, and `[`/`{` counted for the slow path's flow-depth limit. */
function acceptQuotedCode(line: string, i: number, code: number, budget: Budget): boolean {
  if (code < 0x80) {
    if (code < 0x20 || code === 0x7f) return false;
    if (code === OPEN_BRACKET || code === OPEN_BRACE) return ++budget.openers <= MAX_FLOW_OPENERS;
    return true;
  }
  return checkWide(line, i, line.length) !== -1;
}

/**
 * A character at or above U+0080 at `i`: the index of its last code unit, or -1 for C1 controls, the characters
 * YAML or JavaScript treat as spaces or line breaks, the BOM, non-characters and lone surrogates.
 */
function checkWide(line: string, i: number, end: number): number {
  const code = line.charCodeAt(i);
  if (code < 0xa1) return -1;
  if (code >= 0xd800 && code <= 0xdbff) {
    const low = i + 1 < end ? line.charCodeAt(i + 1) : 0;
    return low >= 0xdc00 && low <= 0xdfff ? i + 1 : -1;
  }
  if (code >= 0xdc00 && code <= 0xdfff) return -1;
  if (code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029) return -1;
  if (code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff) return -1;
  if (code === 0xfffe || code === 0xffff) return -1;
  return i;
}

/** The core-schema value of a plain scalar (YAML 1.2.2 §10.3.2), as `yaml` resolves it. */
export function typePlain(text: string): Scalar {
  const first = text.charCodeAt(0);
  // Only these first characters can start a null, boolean or number: everything else is a string.
  if (!TYPED_FIRST.has(first)) return text;
  if (CORE_NULL.test(text)) return null;
  if (CORE_TRUE.test(text)) return true;
  if (CORE_FALSE.test(text)) return false;
  if (CORE_INT_OCT.test(text)) return Number.parseInt(text.slice(2), 8);
  if (CORE_INT.test(text)) return Number.parseInt(text, 10);
  if (CORE_INT_HEX.test(text)) return Number.parseInt(text.slice(2), 16);
  if (CORE_INF.test(text)) return first === DASH ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (CORE_NAN.test(text)) return Number.NaN;
  if (CORE_FLOAT_EXP.test(text) || CORE_FLOAT.test(text)) return Number.parseFloat(text);
  return text;
}

export function skipSpaces(line: string, from: number): number {
  let i = from;
  while (line.charCodeAt(i) === SPACE) i++;
  return i;
}

export function trimEnd(line: string, from: number): number {
  let end = line.length;
  while (end > from && line.charCodeAt(end - 1) === SPACE) end--;
  return end;
}

export const SPACE = 0x20;
export const DASH = 0x2d;
const COLON = 0x3a;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;

const codes = (chars: string): Set<number> => new Set([...chars].map((c) => c.charCodeAt(0)));

/** YAML indicators that cannot start a plain scalar here (`-` is checked on its own, quotes start quoted ones). */
const PLAIN_REFUSED_FIRST = codes('?:,[]{}#&*!|>%@`');

/** Characters that send a plain scalar to the slow path wherever they are (indicators, comments, escapes…). */
const PLAIN_REFUSED_ANYWHERE = new Uint8Array(128);
for (const code of codes('#&*!|>[]{}%@`\\')) PLAIN_REFUSED_ANYWHERE[code] = 1;

/** What cannot follow a `": "` in a value taken by `readQuotedValue`: what would start another kind of node. */
const NODE_START = codes('[]{}!&*|>#%@`');

/** First characters of every non-string core-schema plain scalar. */
const TYPED_FIRST = codes('~nNtTfF0123456789+-.');
