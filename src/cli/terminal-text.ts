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
