// Discovery decodes only the bytes of a SKILL.md up to its frontmatter's closing fence when nothing after them can
// change how the block is read (`frontmatterPrefixBytes`). Generated files mix fences, line breaks (LF, CRLF, a lone
// CR), HTML comments opened and closed on either side of the fence, a byte order mark, multi-byte characters and
// invalid UTF-8 bytes: the frontmatter, the notes and the weight the cache gives it must be those of the whole file.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseFrontmatter } from '../../../src/discovery/frontmatter/frontmatter.js';
import { keptTextLength } from '../../../src/discovery/scan/parse-skill-head.js';
import { frontmatterPrefixBytes } from '../../../src/discovery/scan/read-skill-file.js';
import type { Profile } from '../../../src/discovery/types.js';

const PIECES: Buffer[] = [
  '---',
  '---\n',
  '---js\n',
  '\n',
  '\r\n',
  '\r',
  '\n---\n',
  '\r\n---\r\n',
  '\r---',
  '<!--',
  '-->',
  '<!-- note -->',
  'name: pdf',
  'description: Use when: the user asks `a: b`',
  'description: "quoted: value"',
  'metadata:\n  key-name: x\n',
  '\tindented: tab',
  'café 🌍',
  '# Body\n',
  '\uFEFF',
  '-',
].map((text) => Buffer.from(text, 'utf8'));
const INVALID: Buffer[] = [[0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x8c], [0xc3, 0x28], [0xed, 0xa0, 0x80]].map(
  (bytes) => Buffer.from(bytes),
);

const piece = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.constantFrom(...INVALID) },
);
/** A file that usually starts like frontmatter, then anything. */
const file = fc
  .tuple(fc.constantFrom('---\n', '---', '\uFEFF---\n', ''), fc.array(piece, { maxLength: 24 }))
  .map(([start, rest]) => Buffer.concat([Buffer.from(start, 'utf8'), ...rest]));

function read(text: string, profile: Profile) {
  const notes: string[] = [];
  const { frontmatter, hasFrontmatter } = parseFrontmatter(text, profile, notes);
  return { frontmatter, hasFrontmatter, notes, kept: keptTextLength(text, notes) };
}

describe('frontmatterPrefixBytes', () => {
  it('the prefix reads as the whole file: frontmatter, notes and cache weight', () => {
    let cut = 0;
    fc.assert(
      fc.property(file, fc.constantFrom<Profile>('musepi', 'xcsh'), (bytes, profile) => {
        const end = frontmatterPrefixBytes(bytes);
        assert.ok(end <= bytes.length);
        if (end < bytes.length) cut++;
        assert.deepEqual(
          read(bytes.toString('utf8', 0, end), profile),
          read(bytes.toString('utf8'), profile),
          JSON.stringify(bytes.toString('latin1')),
        );
      }),
      { numRuns: 3000, seed: 20261201 },
    );
    // The generator reaches the case the function is for, not only the fallbacks.
    assert.ok(cut > 300, `cut ${cut}`);
  });

  it('stops right after the first closing fence; keeps everything when a CR, a comment or a BOM comes first', () => {
    const at = (text: string) => frontmatterPrefixBytes(Buffer.from(text, 'utf8'));
    assert.equal(at('---\nname: a\n---\nbody\n---\n'), '---\nname: a\n---'.length);
    assert.equal(at('---\nname: é\n---\nbody'), Buffer.byteLength('---\nname: é\n---'));
    assert.equal(at('---\r\nname: a\r\n---\r\nbody'), '---\r\nname: a\r\n---\r\nbody'.length);
    assert.equal(at('---\nname: a <!-- x\n---\n-->'), '---\nname: a <!-- x\n---\n-->'.length);
    assert.equal(at('\uFEFF---\nname: a\n---\nbody'), Buffer.byteLength('\uFEFF---\nname: a\n---\nbody'));
    assert.equal(at('# no frontmatter\n---\n'), '# no frontmatter\n---\n'.length);
    assert.equal(at('---\nname: unclosed\n'), '---\nname: unclosed\n'.length);
    assert.equal(at('---\nname: a\n---\n<!-- in the body'), '---\nname: a\n---'.length);
  });
});
