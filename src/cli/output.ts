// How client commands print: plain text for pipes, tables cut to the terminal's width and a little colour on a
// terminal, colour never when `NO_COLOR` is set (no-color.org) or the terminal is `dumb`.

export interface Output {
  /** Standard output is a terminal. */
  readonly isTTY: boolean;
  /** Its width, when it is a terminal. */
  readonly columns: number | undefined;
  readonly color: boolean;
  out(text: string | Uint8Array): void;
  err(text: string): void;
}

interface Stream {
  write(text: string | Uint8Array): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function createOutput(
  stdout: Stream,
  stderr: Stream,
  env: Readonly<Record<string, string | undefined>>,
): Output {
  const isTTY = stdout.isTTY === true;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return {
    isTTY,
    columns: isTTY ? stdout.columns || 80 : undefined,
    color: isTTY && !noColor && env.TERM !== 'dumb',
    out: (text) => stdout.write(text),
    err: (text) => stderr.write(text),
  };
}

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] };
export type Style = keyof typeof CODES;

export function paint(output: Output, style: Style, text: string): string {
  if (!output.color || text === '') return text;
  const [open, close] = CODES[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/**
 * Rows under a header, columns padded to their widest cell; on a terminal the last column is cut (with `…`) so that
 * each row fits its width. Cells are flattened to one line: a name or description with a line break stays one row.
 */
export function formatTable(output: Output, header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map(oneLine));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const lines = cells.map((row, index) => {
    const padded = row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)));
    let line = padded.join('  ');
    if (output.columns !== undefined && line.length > output.columns) line = cut(line, output.columns);
    return index === 0 ? paint(output, 'bold', line) : line;
  });
  return `${lines.join('\n')}\n`;
}

/** `text` in at most `width` characters, ending with `…` when cut. */
export function cut(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  return `${text.slice(0, width - 1).trimEnd()}…`;
}

export function oneLine(text: string): string {
  return text.replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, ' ');
}

/** The API's JSON, two-space indented, as `--json` prints it. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
