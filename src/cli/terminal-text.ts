// Text from skills, made safe to print (docs/cli.md "Output"): a name, description, path or file body comes from
// whoever wrote the skill, and a terminal obeys the control characters in what it is given. ESC starts sequences that
// move the cursor, rewrite what is already on screen, set the window title or, with OSC 52, write the clipboard; C1
// controls (U+0080–U+009F, `\u009b` is CSI) do the same on terminals that read them; a carriage return overwrites a
// line. So every control character is shown escaped, `\x1b` for C0 and DEL, `\u009b` for C1, except a newline and a
// tab, and a carriage return right before a newline (a CRLF file), in multi-line text. The one exception in the
// other direction is the colour the command line adds itself: `printable(text, { colour: true })` keeps plain SGR
// colour sequences (`ESC [ digits m`), which can only change colours.

/** C0 but tab and newline, a carriage return not followed by a newline, DEL, and C1. */
const CONTROL = /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const CONTROL_OR_COLOUR = /(\u001b\[[0-9;]*m)|\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Line breaks and tabs, which a one-line field (a table cell, a name in a watch line) shows as one space. */
const BREAKS = /[\r\n\t\v\f\u0085\u2028\u2029]+/g;
/** DEL and C1, which JSON.stringify leaves raw (it escapes only U+0000–U+001F). */
const JSON_RAW_CONTROL = /[\u007f-\u009f]/g;

/** `text` with every control character but newline and tab escaped; `colour`: plain SGR sequences kept. */
export function printable(text: string, options: { colour?: boolean } = {}): string {
  if (options.colour === true) return text.replace(CONTROL_OR_COLOUR, (match, sgr) => sgr ?? escapeCharacter(match));
  return text.replace(CONTROL, escapeCharacter);
}

/** One line: line breaks and tabs become a space (so a field cannot start a line of its own), the rest escaped. */
export function inline(text: string): string {
  return printable(text.replace(BREAKS, ' '));
}

/** JSON text with DEL and C1 written as `\u007f`…`\u009f`: the same JSON value, and nothing raw for a terminal. */
export function printableJson(json: string): string {
  return json.replace(JSON_RAW_CONTROL, (character) => `\\u${hex(character.charCodeAt(0), 4)}`);
}

/**
 * A file's bytes for a terminal or a pipe: UTF-8 text as `printable` shows it; anything else (a binary file) byte by
 * byte, printable ASCII, newline and tab as they are and every other byte as `\xHH`.
 */
export function printableBytes(bytes: Uint8Array): Buffer {
  let text: string | undefined;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = undefined;
  }
  if (text !== undefined) return Buffer.from(printable(text), 'utf8');
  let out = '';
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] ?? 0;
    const crlf = byte === 0x0d && bytes[index + 1] === 0x0a;
    out +=
      (byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09 || crlf
        ? String.fromCharCode(byte)
        : `\\x${hex(byte, 2)}`;
  }
  return Buffer.from(out, 'latin1');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function escapeCharacter(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x80 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

// How wide text shows on a terminal (docs/cli.md "Output"): tables and help are laid out by columns on screen, not by
// UTF-16 units. East Asian wide and fullwidth characters and emoji take two columns, combining marks and format
// characters (zero-width joiners, variation selectors) none, every other character one. Text measured here has
// passed `printable` or `inline` first, so it holds no control character.

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;
/** East Asian Wide and Fullwidth blocks: Hangul Jamo, CJK, Hiragana to Yi, Hangul syllables, forms, ideographs. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x3fffd],
];

/** Columns `character` (one code point) takes on a terminal: 0, 1 or 2. */
export function characterWidth(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  if (code < 0x300) return 1;
  if (ZERO_WIDTH.test(character)) return 0;
  if (EMOJI.test(character)) return 2;
  return WIDE.some(([low, high]) => code >= low && code <= high) ? 2 : 1;
}

/** Columns `text` takes on a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += characterWidth(character);
  return width;
}

/** `text` followed by spaces up to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** `text` in at most `width` columns, ending with `…` when cut. */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…'.slice(0, Math.max(0, width));
  return `${takeColumns(text, width - 1).trimEnd()}…`;
}

/**
 * `text` as lines of at most `width` columns, each ending after one of `breakAfter` where one falls in reach (a name
 * breaks after its hyphens: `release-notes-` / `writer`), else cut at the width. Nothing is left out.
 */
export function wrapToWidth(text: string, width: number, breakAfter: RegExp = /[-_.:/ ]/): string[] {
  const lines: string[] = [];
  let rest = text;
  while (displayWidth(rest) > width) {
    const [line, after] = splitLine(rest, width, breakAfter);
    lines.push(line);
    rest = after;
  }
  lines.push(rest);
  return lines;
}

/**
 * Help text wrapped at `width` columns, words kept whole where they fit: a line too long continues under its own
 * text, after the first run of two or more spaces that follows a word (under an option's description:
 * `--port PORT  port, 0 for…`), else at its own indentation.
 */
export function wrapHelp(text: string, width: number): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const hanging = /^\s*\S.*?\s{2,}(?=\S)/.exec(line)?.[0].length ?? /^\s*/.exec(line)?.[0].length ?? 0;
    // A continuation more than half the width in would leave too little room: it starts at the margin instead.
    const indent = ' '.repeat(hanging <= width / 2 ? hanging : 0);
    let [first, rest] = displayWidth(line) <= width ? [line, ''] : splitLine(line, width, / /);
    out.push(first);
    while (rest !== '') {
      [first, rest] =
        displayWidth(rest) <= width - indent.length ? [rest, ''] : splitLine(rest, width - indent.length, / /);
      out.push(`${indent}${first}`);
    }
  }
  return out.join('\n');
}

/** The first line of `text` in `width` columns (see `wrapToWidth`) and what follows it, at least one character. */
function splitLine(text: string, width: number, breakAfter: RegExp): [string, string] {
  let head = takeColumns(text, width);
  if (head === '') head = String.fromCodePoint(text.codePointAt(0) ?? 0x20);
  let end = head.length;
  // A space right after the cut ends a whole word: the line takes all of it.
  if (text[head.length] !== ' ') {
    for (let index = head.length - 1; index > 0; index--) {
      if (breakAfter.test(head[index] ?? '')) {
        end = index + 1;
        break;
      }
    }
  }
  return [text.slice(0, end).trimEnd(), text.slice(end).trimStart()];
}

/** The longest start of `text` at most `width` columns wide. */
function takeColumns(text: string, width: number): string {
  let used = 0;
  let end = 0;
  for (const character of text) {
    used += characterWidth(character);
    if (used > width) break;
    end += character.length;
  }
  return text.slice(0, end);
}
