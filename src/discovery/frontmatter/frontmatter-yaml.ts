// YAML reading for SKILL.md frontmatter (docs/discovery.md §2): gray-matter hosts the parse, the `yaml` package does it.
// The simple blocks most skills have are read by frontmatter-fast-path.ts instead, to the same value.
//
// gray-matter 4.0.3 is used only in a shape that cannot hurt a long-running daemon:
// - always called with an options object: without one it caches every input string forever (a leak);
// - only ever handed `---\n<block>\n---\n` built by the caller, so it never sees a language after the fence;
//   the `js`/`javascript`/`coffee` engines, which `eval` the block, are replaced by throwing ones anyway;
// - its YAML engine (js-yaml 3, no alias limit: 382 bytes became 69 MB) is replaced by `yaml` in YAML 1.2 core
//   (`yes`/`no`/`on`/`off` stay strings) with `maxAliasCount`, adjusted to the agents' reader (agents-yaml.ts);
// - its emptiness check `/^\s*#[^\n]+/gm` is quadratic in runs of blank lines (100k blank lines took 19 s), so a
//   block whose scan would cost too much is refused before gray-matter sees it, like any unreadable YAML.

import { createRequire } from 'node:module';
import type GrayMatter from 'gray-matter';
import { readAgentsYaml } from './agents-yaml.js';
import { readSimpleBlock } from './frontmatter-fast-path.js';

/**
 * Deepest flow nesting (`[`/`{`, counted naively, quotes included) handed to `yaml`. Its composer already fails
 * past ~800 levels (stack), but its parser first builds every level: 500k `[` took 20 s and exhausted the heap.
 */
const MAX_FLOW_DEPTH = 1000;

/** Holds the engine's value so gray-matter never inspects the parsed data itself (it reads `excerpt_separator`). */
class ParsedYaml {
  constructor(readonly value: unknown) {}
}

let matter: typeof GrayMatter | undefined;

/** A block refused before `yaml` or gray-matter sees it, because reading it would cost too much. */
export class FrontmatterLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterLimitError';
  }
}

function refuseEngine(): never {
  throw new Error('only YAML frontmatter is read');
}

const MATTER_OPTIONS = {
  language: 'yaml',
  excerpt: false,
  engines: {
    yaml: { parse: (block: string) => new ParsedYaml(parseYaml(block)) },
    yml: { parse: (block: string) => new ParsedYaml(parseYaml(block)) },
    js: { parse: refuseEngine },
    javascript: { parse: refuseEngine },
    coffee: { parse: refuseEngine },
    coffeescript: { parse: refuseEngine },
    cson: { parse: refuseEngine },
    json: { parse: refuseEngine },
  },
};

/**
 * Parses one YAML text (a whole document or a lone scalar) with the safe options. Throws on any YAML error,
 * including an excessive alias count.
 */
export function parseYaml(text: string): unknown {
  if (flowDepth(text) > MAX_FLOW_DEPTH) {
    throw new FrontmatterLimitError(`flow collections nested more than ${MAX_FLOW_DEPTH} deep`);
  }
  return readAgentsYaml(text);
}

/**
 * Parses a frontmatter block (the text between the fences, without them): the common simple shapes by
 * `readSimpleBlock` (the same value `yaml` gives, without its composer), every other block through gray-matter.
 * Returns the raw YAML value (possibly null, a scalar or a list); throws when the block is not readable YAML.
 * The block must not contain a line starting with `---` (the caller cut it at the first one).
 */
export function parseFrontmatterBlock(block: string): unknown {
  assertCommentScanAffordable(block);
  return readSimpleBlock(block) ?? parseWithMatter(block);
}

/** `parseFrontmatterBlock` without the fast path: what every block's value must equal. */
export function parseFrontmatterBlockWithYaml(block: string): unknown {
  assertCommentScanAffordable(block);
  return parseWithMatter(block);
}

function assertCommentScanAffordable(block: string): void {
  if (!commentScanAffordable(block)) throw new FrontmatterLimitError('too many consecutive blank lines');
}

/** gray-matter's comment scan of the block (over `\n<block>`, what follows the opening fence) is within budget. */
export function commentScanAffordable(block: string): boolean {
  // The scan costs at most (its text's length)² steps (each line start runs over at most the rest of the text), so a
  // block shorter than the square root of the budget's constant part (every real one) needs no counting.
  if ((block.length + 1) ** 2 <= commentScanBudget(0)) return true;
  return commentScanCost(`\n${block}`) <= commentScanBudget(block.length);
}

function parseWithMatter(block: string): unknown {
  // gray-matter would take a first line starting with `---` (the block starts at offset 4 of a `-------` fence) for
  // its closing fence and read an empty block: such a block is read directly.
  if (block.startsWith('---')) return parseYaml(block);
  // Required on the first block the fast path does not read: a tree of simple frontmatter never loads gray-matter
  // and its js-yaml (docs/performance.md "Idle memory").
  matter ??= createRequire(import.meta.url)('gray-matter') as typeof GrayMatter;
  const file = matter(`---\n${block}\n---\n`, MATTER_OPTIONS);
  const data: unknown = file.data;
  // gray-matter skips the engine for a block of only blank and comment lines and gives `{}`.
  return data instanceof ParsedYaml ? data.value : {};
}

function flowDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 91 || code === 123) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if ((code === 93 || code === 125) && depth > 0) {
      depth--;
    }
  }
  return deepest;
}

function commentScanBudget(length: number): number {
  return 4 * length + 1_000_000;
}

/**
 * Backtracking steps of gray-matter's `/^\s*#[^\n]+/gm` over `text`: at every line start `\s*` runs to the end
 * of the whitespace that follows (across newlines). Computed in one pass from the end.
 */
function commentScanCost(text: string): number {
  let cost = 0;
  let run = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    run = isRegexWhitespace(text.charCodeAt(i)) ? run + 1 : 0;
    if (i === 0 || text.charCodeAt(i - 1) === 10) cost += run;
  }
  return cost;
}

function isRegexWhitespace(code: number): boolean {
  // Exactly the members of JavaScript's `\s`.
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
