// How client commands print: plain text for pipes, tables cut to the terminal's width and a little colour on a
// terminal, colour never when `NO_COLOR` is set (no-color.org) or the terminal is `dumb`. Whatever is printed passes
// `printable` (terminal-text.ts) on its way out, to a terminal and to a pipe alike: no control character from a skill
// reaches either raw (docs/cli.md "Output"). Only the bytes of `cat` redirected to a regular file are written as
// they are.

import { fstatSync } from 'node:fs';
import { inline, printable, printableBytes, printableJson } from './terminal-text.js';

export interface Output {
  /** Standard output is a terminal. */
  readonly isTTY: boolean;
  /** Its width, when it is a terminal. */
  readonly columns: number | undefined;
  readonly color: boolean;
  /** Text (control characters escaped; the colour `paint` added kept), or a file's bytes (see `printableBytes`). */
  out(text: string | Uint8Array): void;
  err(text: string): void;
}

interface Stream {
  write(text: string | Uint8Array): unknown;
  isTTY?: boolean;
  columns?: number;
  fd?: number;
}

export function createOutput(
  stdout: Stream,
  stderr: Stream,
  env: Readonly<Record<string, string | undefined>>,
): Output {
  const isTTY = stdout.isTTY === true;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const color = isTTY && !noColor && env.TERM !== 'dumb';
  // A file's bytes redirected to a regular file (`skillsd cat pdf logo.png > logo.png`) reach no terminal: exact.
  const toFile = !isTTY && isRegularFile(stdout.fd);
  return {
    isTTY,
    columns: isTTY ? stdout.columns || 80 : undefined,
    color,
    out: (text) =>
      stdout.write(
        typeof text === 'string' ? printable(text, { colour: color }) : toFile ? text : printableBytes(text),
      ),
    err: (text) => stderr.write(printable(text)),
  };
}

function isRegularFile(fd: number | undefined): boolean {
  if (fd === undefined) return false;
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] };
export type Style = keyof typeof CODES;

/** `text` in a style; its own control characters are escaped first, so the only sequences are the style's. */
export function paint(output: Output, style: Style, text: string): string {
  if (!output.color || text === '') return text;
  const [open, close] = CODES[style];
  return `\u001b[${open}m${printable(text)}\u001b[${close}m`;
}

/**
 * Rows under a header, columns padded to their widest cell; on a terminal the last column is cut (with `…`) so that
 * each row fits its width. Cells are flattened to one line: a name or description with a line break stays one row.
 */
export function formatTable(output: Output, header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map(inline));
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

/** The API's JSON, two-space indented, as `--json` prints it (DEL and C1 as `\u` escapes: the same JSON value). */
export function formatJson(value: unknown): string {
  return `${printableJson(JSON.stringify(value, null, 2))}\n`;
}

/** One JSON value on one line (NDJSON, `--json` of the small answers). */
export function formatJsonLine(value: unknown): string {
  return `${printableJson(JSON.stringify(value))}\n`;
}

export { inline, printable };
