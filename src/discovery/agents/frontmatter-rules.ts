// The pieces the agents' frontmatter readers share (docs/agents.md "Vocabulary"): fences, one YAML reader (the
// daemon's YAML 1.2 reader, frontmatter-yaml.ts), and the small value rules agents differ on.

import { MAX_YAML_BLOCK_CHARACTERS } from '../frontmatter/frontmatter.js';
import { NESTED_MAPPING, readAgentsSimpleBlock } from '../frontmatter/frontmatter-fast-path.js';
import { parseYaml } from '../frontmatter/frontmatter-yaml.js';

export interface Fenced {
  block: string;
  body: string;
}

/**
 * A block opened by a first line `---` and closed by the next line `---`. `trim`: the lines are compared trimmed
 * (Codex); `bom`: one leading BOM is ignored (Claude Code, Copilot CLI).
 */
export function fencedBlock(text: string, options: { trim?: boolean; bom?: boolean } = {}): Fenced | null {
  const source = options.bom === true && text.startsWith('\uFEFF') ? text.slice(1) : text;
  const trim = options.trim === true;
  // Line by line from the start, without splitting the whole text: the block is near the top.
  let end = source.indexOf('\n');
  if (end < 0 || !isFence(source, 0, end, trim)) return null;
  const blockStart = end + 1;
  for (let start = blockStart; start <= source.length; ) {
    const next = source.indexOf('\n', start);
    end = next < 0 ? source.length : next;
    if (isFence(source, start, end, trim)) {
      // The line break before the closing fence is not part of the block, `\r\n` as well as `\n`: a kept `\r` would
      // end the last value (a description ending a CRLF block) or fail a quoted one.
      const blockEnd = start - 1 > blockStart && source.charCodeAt(start - 2) === 13 ? start - 2 : start - 1;
      return {
        block: start === blockStart ? '' : source.slice(blockStart, blockEnd),
        body: next < 0 ? '' : source.slice(next + 1),
      };
    }
    if (next < 0) break;
    start = next + 1;
  }
  return null;
}

/**
 * `source[start, end)` is a fence: `---` and at most one `\r` after it, or (`trim`) `---` once trimmed. Looked at in
 * place: a line is cut out (and trimmed) only when it starts with `-` or a blank, as a trimmed fence must.
 */
function isFence(source: string, start: number, end: number, trim: boolean): boolean {
  if (!trim) {
    const length = end - start;
    return (length === 3 || (length === 4 && source.charCodeAt(end - 1) === 13)) && source.startsWith('---', start);
  }
  const first = source.charCodeAt(start);
  // Every character `trim` removes is at or below U+0020 or at or above U+00A0.
  if (first !== 0x2d && first > 0x20 && first < 0xa0) return false;
  return source.slice(start, end).trim() === '---';
}

/** `tooLarge`: the block was not handed to the YAML reader at all (over the default view's cap). */
export type YamlRead = { ok: true; value: Record<string, unknown> } | { ok: false; error: string; tooLarge?: true };

/**
 * Blocks already read, by text: seven agents read the same files, and a rebuild reads unchanged files again. The
 * values are shared and never modified. Bounded: emptied when it grows past the cap.
 */
const readBlocks = new Map<string, YamlRead>();
const READ_BLOCKS_CAP = 50_000;

/**
 * The size of the largest block refused since the last `takeRefusedBlockSize` (0: none). The engine takes it around
 * each synchronous read of a file, so the view can say which file skillsd read differently from the agent.
 */
let refusedBlockSize = 0;

export function takeRefusedBlockSize(): number {
  const size = refusedBlockSize;
  refusedBlockSize = 0;
  return size;
}

/**
 * The block read as YAML; a value that is not a mapping reads as an empty one. A block over the default view's cap
 * (SECURITY.md "Parser bombs": 64 KiB) is not parsed: parsing is synchronous, and ten blocks of 0.6 MiB held the event
 * loop for seconds. It reads as a block that does not parse, and each agent's own fallback applies.
 */
export function readYamlMapping(block: string): YamlRead {
  if (block.length > MAX_YAML_BLOCK_CHARACTERS) return refuseLarge(block);
  const known = readBlocks.get(block);
  if (known !== undefined) return known;
  return remember(block, readSimple(block) ?? readWithYaml(block));
}

/**
 * The reading of a block of the simple shapes (frontmatter-fast-path.ts), memoised with `readYamlMapping`'s; undefined
 * for any other block, without handing it to the YAML reader: an agent whose own reader differs (OpenCode's YAML 1.1)
 * takes the simple shapes from here and reads every other block its own way.
 */
export function readSimpleShape(block: string): YamlRead | undefined {
  if (block.length > MAX_YAML_BLOCK_CHARACTERS) return undefined;
  const known = readBlocks.get(block);
  if (known !== undefined) return simpleReads.has(known) ? known : undefined;
  const simple = readSimple(block);
  return simple === undefined ? undefined : remember(block, simple);
}

/** The read came from the simple shapes' reader: its block is one of those shapes (frontmatter-fast-path.ts). */
export function isSimpleShape(read: YamlRead): boolean {
  return simpleReads.has(read);
}

/** The reads `readSimple` made: what an agent may know of their block's lines without reading it as YAML. */
const simpleReads = new WeakSet<YamlRead>();

function remember(block: string, read: YamlRead): YamlRead {
  if (readBlocks.size >= READ_BLOCKS_CAP) readBlocks.clear();
  readBlocks.set(block, read);
  return read;
}

/** `readYamlMapping` without its memo and fast path: what every read must equal. */
export function readYamlMappingWithYaml(block: string): YamlRead {
  if (block.length > MAX_YAML_BLOCK_CHARACTERS) return refuseLarge(block);
  return readWithYaml(block);
}

function refuseLarge(block: string): YamlRead {
  refusedBlockSize = Math.max(refusedBlockSize, block.length);
  return {
    ok: false,
    error: `frontmatter of ${block.length} characters, more than the ${MAX_YAML_BLOCK_CHARACTERS} skillsd parses as YAML`,
    tooLarge: true,
  };
}

/**
 * The simple shapes most blocks have are read by the default view's fast path (frontmatter-fast-path.ts), to the
 * value the YAML reader gives; a block whose map values hold an unquoted `": "` (half of some trees' descriptions) is
 * known to fail with the reader's first error, which is what the reader would say without building its error and
 * its stack (docs/performance.md "Agent views").
 */
function readSimple(block: string): YamlRead | undefined {
  const simple = readAgentsSimpleBlock(block);
  if (simple === undefined) return undefined;
  const read: YamlRead = simple === NESTED_MAPPING ? { ok: false, error: NESTED_MAPPING } : { ok: true, value: simple };
  simpleReads.add(read);
  return read;
}

function readWithYaml(block: string): YamlRead {
  try {
    const value = parseYaml(block);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: true, value: {} };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: firstLine((error as Error).message) };
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** A string value trimmed, or undefined when not a string. */
export function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' ? value : undefined;
}

/** `true`, or (lenient readers) `yes`/`on`/`1` in any case. */
export function isTrue(value: unknown, lenient = false): boolean {
  if (value === true) return true;
  if (!lenient) return false;
  if (value === 1) return true;
  return typeof value === 'string' && ['true', 'yes', 'on', '1'].includes(value.trim().toLowerCase());
}

/** Whitespace runs become one space, ends trimmed. */
export function collapseSpaces(value: string): string {
  return value.replace(/\s+/gu, ' ').trim();
}

/** Length in Unicode scalar values. */
export function scalarLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** The first `n` Unicode scalar values. */
export function firstScalars(value: string, n: number): string {
  if (n <= 0) return '';
  let out = '';
  let count = 0;
  for (const ch of value) {
    if (count === n) break;
    out += ch;
    count++;
  }
  return out;
}

/** XML-like tags `<…>` removed (VS Code's header rule). */
export function stripTags(value: string): string {
  return value.replace(/<[^>]*>/g, '');
}
