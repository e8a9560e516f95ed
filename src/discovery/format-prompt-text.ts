// The formatting pass applied to a MusePi `/skill:` invocation message (SKILLS.md §7). Outside fenced code blocks:
// trailing whitespace removed, runs of two or more blank lines removed entirely, blank lines right before a closing
// tag line removed, table cell padding trimmed; then the whole text trimmed. Code blocks are left byte for byte.

// A backtick fence's info string cannot hold a backtick (CommonMark), so "```x```" on one line is inline code.
const FENCE_OPEN = /^\s*(?:(`{3,})(?!.*`)|(~{3,}))/;
const CLOSING_TAG_LINE = /^\s*<\/[A-Za-z][\w.:-]*>$/;
const TABLE_ROW = /^(\s*)\|(.*)\|$/;
// A cell separator is a `|` not escaped by a backslash.
const CELL_SEPARATOR = /(?<!\\)\|/;

export function formatPromptText(text: string): string {
  const out: string[] = [];
  let outside: string[] = [];
  let fence: { char: string; length: number } | null = null;

  for (const line of text.split('\n')) {
    if (fence === null) {
      const open = FENCE_OPEN.exec(line);
      const marker = open?.[1] ?? open?.[2];
      if (marker === undefined) {
        outside.push(line);
        continue;
      }
      out.push(...formatOutsideLines(outside));
      outside = [];
      fence = { char: marker.charAt(0), length: marker.length };
      out.push(line);
      continue;
    }
    out.push(line);
    if (closesFence(line, fence)) fence = null;
  }
  out.push(...formatOutsideLines(outside));
  return out.join('\n').trim();
}

/** A closing fence: the opening character, at least as many times, and nothing else but whitespace. */
function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const char of trimmed) if (char !== fence.char) return false;
  return true;
}

function formatOutsideLines(lines: readonly string[]): string[] {
  const trimmed = lines.map((line) => trimTableRow(line.trimEnd()));
  const kept: string[] = [];
  for (let index = 0; index < trimmed.length; index++) {
    const line = trimmed[index] as string;
    if (line !== '') {
      kept.push(line);
      continue;
    }
    let end = index;
    while (end < trimmed.length && trimmed[end] === '') end++;
    const runLength = end - index;
    const next = trimmed[end];
    // One blank line is a paragraph break and stays, unless a closing tag follows; a longer run goes entirely.
    if (runLength === 1 && (next === undefined || !CLOSING_TAG_LINE.test(next))) kept.push('');
    index = end - 1;
  }
  return kept;
}

function trimTableRow(line: string): string {
  const row = TABLE_ROW.exec(line);
  if (row === null) return line;
  const cells = (row[2] as string).split(CELL_SEPARATOR).map((cell) => cell.trim());
  return `${row[1]}|${cells.join('|')}|`;
}
