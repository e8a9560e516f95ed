// The tidy pass over a text handed to the model (docs/discovery.md §7a): a MusePi `/skill:` invocation message and
// the xcsh prompt block both go through it, template lines included, so every face that renders either text
// (REST, MCP, the CLI) gets the same bytes from here.
//
// One pass over the lines, one flag (inside a code fence or not):
// - every line loses its trailing white space first, inside a fence too (the CR of a CRLF file included);
// - a fence line (indentation, then three backticks or three tildes) only flips the flag: which character, how many
//   and what follows make no difference, so `~~~` closes a block "```" opened and a one-line "```x```" opens one;
// - inside a fence nothing else happens, blank lines included;
// - outside: a run of two or more blank lines goes entirely, a single one stays (not as the first line), a blank
//   line right before a closing tag line `</name>` (lower-case letters, `-`, `_`) goes, table separator rows are
//   rebuilt and other table rows lose the padding around every `|`; every table row keeps its indentation.
// The result is trimmed at both ends.

const FENCE = /^[ \t]*(?:```|~~~)/;
const CLOSING_TAG_LINE = /^[ \t]*<\/[a-z_-]+>$/;
/** `|`, then at least one of `-`, `:`, white space or `|`, then `|`. */
const SEPARATOR_ROW = /^([ \t]*)\|([-:\s|]+)\|$/;
/** Indentation, then `|` … `|`. */
const TABLE_ROW = /^([ \t]*)(\|.*\|)$/;

export function formatPromptText(text: string): string {
  const out: string[] = [];
  let inCode = false;
  // Blank lines seen outside code and not yet written: how many follow each other.
  let pendingBlanks = 0;

  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (FENCE.test(line)) {
      flushBlanks();
      out.push(line);
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      out.push(line);
      continue;
    }
    if (line === '') {
      pendingBlanks++;
      continue;
    }
    // A closing tag line takes the blank line before it away.
    if (CLOSING_TAG_LINE.test(line)) pendingBlanks = 0;
    flushBlanks();
    out.push(tidyTableRow(line));
  }
  return out.join('\n').trim();

  function flushBlanks(): void {
    // One blank line is a paragraph break and stays, unless it would open the text; a longer run goes entirely.
    if (pendingBlanks === 1 && out.length > 0) out.push('');
    pendingBlanks = 0;
  }
}

/** A table row outside code, tidied; any other line as it is. */
function tidyTableRow(line: string): string {
  const separator = SEPARATOR_ROW.exec(line);
  if (separator !== null) {
    const cells = (separator[2] as string)
      .split('|')
      .map((cell) => cell.trim())
      .filter((cell) => cell !== '')
      .map(alignmentCell);
    return `${separator[1]}|${cells.join('|')}|`;
  }
  // Every `|` splits, escaped or inside a code span alike; the indentation in front is kept as written, as it is
  // for a separator row.
  const row = TABLE_ROW.exec(line);
  if (row !== null) {
    const cells = (row[2] as string)
      .split('|')
      .map((cell) => cell.trim())
      .join('|');
    return `${row[1]}${cells}`;
  }
  return line;
}

/** `:---:`, `:---`, `---:` or `---` by the colons at the ends of the cell; a lone `:` has both. */
function alignmentCell(cell: string): string {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  if (left && right) return ':---:';
  if (left) return ':---';
  if (right) return '---:';
  return '---';
}
