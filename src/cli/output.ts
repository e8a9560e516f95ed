// How client commands print: plain text for pipes, tables laid out to the terminal's width and a little colour on a
// terminal, colour never when `NO_COLOR` is set (no-color.org) or the terminal is `dumb`. The width is the
// terminal's, else `COLUMNS` when set (a pipe into a pager), else none: a pipe gets every character (docs/cli.md
// "Output"). Whatever is printed passes
// `printable` (terminal-text.ts) on its way out, to a terminal and to a pipe alike: no control character from a skill
// reaches either raw (docs/cli.md "Output"). Only the bytes of `cat` redirected to a regular file are written as
// they are.

import { fstatSync } from 'node:fs';
import {
  cutToWidth,
  displayWidth,
  inline,
  padToWidth,
  printable,
  printableBytes,
  printableJson,
  wrapToWidth,
} from './terminal-text.js';

export interface Output {
  /** Standard output is a terminal. */
  readonly isTTY: boolean;
  /** The width to lay tables out to: the terminal's, else `COLUMNS`; undefined (no limit) for a pipe without it. */
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
    columns: isTTY ? stdout.columns || columnsOf(env) || 80 : columnsOf(env),
    color,
    out: (text) =>
      stdout.write(
        typeof text === 'string' ? printable(text, { colour: color }) : toFile ? text : printableBytes(text),
      ),
    err: (text) => stderr.write(printable(text)),
  };
}

/** `COLUMNS` when it is a width (a positive integer), else undefined. */
function columnsOf(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = env.COLUMNS;
  if (value === undefined || !/^\d{1,5}$/.test(value)) return undefined;
  const columns = Number(value);
  return columns > 0 ? columns : undefined;
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
 * How a column gives way when its table is wider than the terminal (docs/cli.md "Output"):
 * - `fixed`: keeps its width (short values: a provider, a level, a status);
 * - `wrap`: continues on the row's next lines, broken after a hyphen where one falls in reach (a NAME: cut, a name
 *   could no longer be typed back, and two names sharing a start would look the same);
 * - `cut`: ends with `…` (a path: its start, the root it lies under, stays);
 * - `text`: the last column, one line ending with `…`, kept at least `MIN_TEXT` columns wide when it can be;
 * - `drop`: a `fixed` column left out, from the right, when the others cannot fit otherwise.
 */
export type Fit = 'fixed' | 'wrap' | 'cut' | 'text' | 'drop';

export interface Column {
  header: string;
  fit: Fit;
  /** The header when the table does not fit at natural widths (`CLAUDE` for `CLAUDE-CODE`). */
  short?: string;
}

/** The narrowest a description gets while names and paths can still give way. */
export const MIN_TEXT = 30;
/** The narrowest a `wrap` column gets (its natural width when that is less): a long name over at most 3 or 4 lines. */
export const MIN_WRAP = 20;
/** The narrowest a `cut` column gets: a path's root (`./.claude/sk…`). */
export const MIN_CUT = 12;
const GAP = 2;

export interface Table {
  text: string;
  /** Headers of the `drop` columns left out for want of width. */
  left: string[];
}

/**
 * Rows under a header, columns padded to their widest cell; on a terminal, a table wider than it gives way column
 * by column (see `Fit`) so that every line fits. Cells are flattened to one line first: a name or description with a
 * line break cannot start a line of its own. Plain headers: the first column wraps, the last is `text`.
 */
export function formatTable(output: Output, header: ReadonlyArray<string | Column>, rows: string[][]): string {
  return layoutTable(output, header, rows).text;
}

export function layoutTable(output: Output, header: ReadonlyArray<string | Column>, rows: string[][]): Table {
  const columns = header.map((column, index) => columnOf(column, index, header.length));
  const cells = rows.map((row) => columns.map((_, index) => inline(row[index] ?? '')));
  const natural = (column: Column, index: number, headers: 'header' | 'short') =>
    Math.max(
      displayWidth(headers === 'short' ? (column.short ?? column.header) : column.header),
      ...cells.map((row) => displayWidth(row[index] ?? '')),
    );
  const full = columns.map((column, index) => natural(column, index, 'header'));
  const width = output.columns;
  let shown = columns.map((_, index) => index);
  let widths = full;
  let headers = columns.map((column) => column.header);
  if (width !== undefined && total(full, shown) > width) {
    headers = columns.map((column) => column.short ?? column.header);
    ({ shown, widths } = narrow(
      columns,
      columns.map((column, index) => natural(column, index, 'short')),
      width,
    ));
  }
  const headerLines = renderRow(columns, shown, widths, headers.map(inline));
  const lines = [...headerLines, ...cells.flatMap((row) => renderRow(columns, shown, widths, row))].map(
    (line, index) => {
      // Whatever still overflows (a terminal narrower than the narrowest columns) is cut, as a last resort.
      const fitted = width !== undefined && displayWidth(line) > width ? cut(line, width) : line;
      return index < headerLines.length ? paint(output, 'bold', fitted) : fitted;
    },
  );
  return {
    text: `${lines.join('\n')}\n`,
    left: columns.filter((_, index) => !shown.includes(index)).map((column) => column.header),
  };
}

function columnOf(column: string | Column, index: number, count: number): Column {
  if (typeof column !== 'string') return column;
  return { header: column, fit: index === 0 ? 'wrap' : index === count - 1 ? 'text' : 'fixed' };
}

function total(widths: readonly number[], shown: readonly number[]): number {
  return shown.reduce((sum, index) => sum + (widths[index] ?? 0), 0) + GAP * (shown.length - 1);
}

/**
 * Widths for `width` columns: `fixed` and `drop` columns keep theirs; `drop` columns are left out from the right
 * while the `wrap` and `cut` columns at their narrowest and the `text` column at `MIN_TEXT` would not fit; then the
 * `wrap` and `cut` columns share what the text column leaves, the widest narrowed first; the text column takes the
 * rest.
 */
function narrow(columns: readonly Column[], natural: readonly number[], width: number) {
  const shown = columns.map((_, index) => index);
  const flex = (index: number) => columns[index]?.fit === 'wrap' || columns[index]?.fit === 'cut';
  const floor = (index: number) => Math.min(natural[index] ?? 0, columns[index]?.fit === 'wrap' ? MIN_WRAP : MIN_CUT);
  const text = shown.find((index) => columns[index]?.fit === 'text');
  const textWant = text === undefined ? 0 : Math.min(natural[text] ?? 0, MIN_TEXT);
  const budget = () =>
    width -
    GAP * (shown.length - 1) -
    shown.reduce((sum, index) => sum + (flex(index) || index === text ? 0 : (natural[index] ?? 0)), 0);
  const floors = () => shown.reduce((sum, index) => sum + (flex(index) ? floor(index) : 0), 0);
  while (budget() < floors() + textWant) {
    const last = shown.findLastIndex((index) => columns[index]?.fit === 'drop');
    if (last < 0) break;
    shown.splice(last, 1);
  }
  const room = budget() - textWant;
  const flexible = shown.filter(flex);
  // The widest `wrap` and `cut` columns are narrowed first: all of them to at most `cap`, the largest that fits.
  let cap = Math.max(0, ...flexible.map((index) => natural[index] ?? 0));
  const share = (limit: number) =>
    flexible.reduce((sum, index) => sum + Math.max(floor(index), Math.min(natural[index] ?? 0, limit)), 0);
  while (cap > 0 && share(cap) > room) cap--;
  const widths = natural.map((value, index) => (flex(index) ? Math.max(floor(index), Math.min(value, cap)) : value));
  if (text !== undefined) widths[text] = Math.max(1, budget() - share(cap));
  return { shown, widths };
}

/** One row as lines: `wrap` cells over as many lines as they need, the others on the first. */
function renderRow(
  columns: readonly Column[],
  shown: readonly number[],
  widths: readonly number[],
  row: readonly string[],
) {
  const parts = shown.map((index) => {
    const cell = row[index] ?? '';
    const width = widths[index] ?? 0;
    const fit = columns[index]?.fit;
    if (fit === 'wrap') return wrapToWidth(cell, width);
    if (fit === 'cut' || fit === 'text') return [cutToWidth(cell, width)];
    return [cell];
  });
  const height = Math.max(...parts.map((part) => part.length));
  const lines: string[] = [];
  for (let line = 0; line < height; line++) {
    const padded = parts.map((part, position) =>
      position === parts.length - 1
        ? (part[line] ?? '')
        : padToWidth(part[line] ?? '', widths[shown[position] ?? 0] ?? 0),
    );
    // A continuation line (the rest of a wrapped name) ends where its text does.
    lines.push(line === 0 ? padded.join('  ') : padded.join('  ').trimEnd());
  }
  return lines;
}

/** `text` in at most `width` columns, ending with `…` when cut. */
export function cut(text: string, width: number): string {
  return cutToWidth(text, width);
}

/** The API's JSON, two-space indented, as `--json` prints it (DEL and C1 as `\u` escapes: the same JSON value). */
export function formatJson(value: unknown): string {
  return `${printableJson(JSON.stringify(value, null, 2))}\n`;
}

/** One JSON value on one line (NDJSON, `--json` of the small answers). */
export function formatJsonLine(value: unknown): string {
  return `${printableJson(JSON.stringify(value))}\n`;
}

export { displayWidth, inline, printable };
