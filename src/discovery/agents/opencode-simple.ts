// OpenCode's frontmatter (opencode.ts `readFrontmatter`, docs/agents.md "OpenCode") for the files most skills are,
// without its YAML 1.1 reader: a full parse there cost more than every other agent's reading together at 10,000
// skills, and half the blocks were parsed twice (once failing on `description: Use when: …`, then rewritten).
//
// A file is taken here when it opens with `---` and a line break, its block (up to the first `\n---`) starts with a
// key, is one of the simple shapes the agents' YAML 1.2 reading takes without the YAML reader (frontmatter-rules.ts
// `readSimpleShape`), and its lines say the YAML 1.1 reading is the same (simple-block-lines.ts): no key written twice
// (an error in 1.1), every key and plain scalar typed alike. Then:
// - a block that reads as YAML 1.2 reads the same as YAML 1.1;
// - a block whose top-level values hold `": "` fails the first reading, and OpenCode's second reading rewrites every
//   top-level `key: value` whose value holds `:` into `key: |-` and the value on the next line: a block of exactly
//   that text, which is what the quoting reading of the simple shapes gives for those values (and plain text for the
//   others, that hold `:` without a space after it).
// Anything else returns undefined and goes through OpenCode's own path unchanged.

import { MAX_YAML_BLOCK_CHARACTERS } from '../frontmatter/frontmatter.js';
import { readQuotedSimpleBlock } from '../frontmatter/frontmatter-fast-path.js';
import { readSimpleShape } from './frontmatter-rules.js';
import { simpleBlockLines } from './simple-block-lines.js';

const OPENING = '---\n';
/** A line of spaces only: in a `|-` block right after a rewritten value, one of three spaces or more is text. */
const SPACES_LINE = /^ +$/m;

/** OpenCode's frontmatter data for a file of the common shapes; undefined for any other file. */
export function readOpencodeSimple(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith(OPENING)) return undefined;
  const close = text.indexOf('\n---', OPENING.length - 1);
  if (close <= OPENING.length) return undefined;
  const block = text.slice(OPENING.length, close);
  // The rewritten block is at most twice as long (`k: v:x` → `k: |-`, `  v:x`): neither reading is refused for size.
  if (2 * block.length + 1 > MAX_YAML_BLOCK_CHARACTERS) return undefined;
  // A key first: the rewrite replaces the block's first occurrence in the file, which is then where it stands.
  if (!startsWithKeyCharacter(block)) return undefined;
  const read = readSimpleShape(block);
  if (read === undefined) return undefined;
  const lines = simpleBlockLines(read, block);
  if (lines.repeatedKey || !lines.sameInYaml11) return undefined;
  if (read.ok) return read.value;
  if (!lines.colonValuesRewritten || SPACES_LINE.test(block)) return undefined;
  return readQuotedSimpleBlock(block)?.value;
}

function startsWithKeyCharacter(block: string): boolean {
  const first = block.charCodeAt(0);
  return ((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a) || first === 0x5f;
}
