// `fencedBlock` (frontmatter-rules.ts) looks at each line in place instead of cutting it out: the blocks it finds are
// the ones the line-by-line reading (each line cut out, `\r` removed or trimmed, compared with `---`) finds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Fenced, fencedBlock } from '../../../src/discovery/agents/frontmatter-rules.js';

/** The reading by cut-out lines, as docs/agents.md "Vocabulary" states the fence rule. */
function byLines(text: string, options: { trim?: boolean; bom?: boolean }): Fenced | null {
  const source = options.bom === true && text.startsWith('\ufeff') ? text.slice(1) : text;
  const isFence = (line: string): boolean =>
    options.trim === true ? line.trim() === '---' : line.replace(/\r$/, '') === '---';
  const lines = source.split('\n');
  if (lines.length < 2 || !isFence(lines[0] as string)) return null;
  for (let i = 1; i < lines.length; i++) {
    if (!isFence(lines[i] as string)) continue;
    const block = lines.slice(1, i).join('\n');
    return { block: block.endsWith('\r') && i > 1 ? block.slice(0, -1) : block, body: lines.slice(i + 1).join('\n') };
  }
  return null;
}

const OPTIONS = [{}, { trim: true }, { bom: true }, { trim: true, bom: true }];

describe('fencedBlock', () => {
  // [what, text, options, block or null]
  const cases: Array<[string, string, { trim?: boolean; bom?: boolean }, string | null]> = [
    ['a block', '---\nname: a\n---\nbody', {}, 'name: a'],
    ['CRLF fences', '---\r\nname: a\r\n---\r\nbody', {}, 'name: a'],
    ['two CRs are no fence', '---\r\r\nname: a\n---\n', {}, null],
    ['a spaced fence, not trimmed', ' ---\nname: a\n---\n', {}, null],
    ['a spaced fence, trimmed', ' ---\t\nname: a\n\u00a0--- \nbody', { trim: true }, 'name: a'],
    ['a BOM kept', '\ufeff---\nname: a\n---\n', {}, null],
    ['a BOM dropped', '\ufeff---\nname: a\n---\n', { bom: true }, 'name: a'],
    ['a BOM trimmed', '\ufeff---\nname: a\n---\n', { trim: true }, 'name: a'],
    ['an empty block', '---\n---\nbody', {}, ''],
    ['four dashes', '---\nname: a\n----\n---\n', {}, 'name: a\n----'],
    ['no closing fence', '---\nname: a\n', {}, null],
    ['no line break', '---', {}, null],
  ];
  for (const [what, text, options, block] of cases) {
    it(what, () => {
      assert.equal(fencedBlock(text, options)?.block ?? null, block);
      assert.deepStrictEqual(fencedBlock(text, options), byLines(text, options));
    });
  }

  it('agrees with the reading by cut-out lines (property)', () => {
    const line = fc.constantFrom(
      '---',
      '--- ',
      ' ---',
      '---\r',
      '---\r\r',
      '\t---\u3000',
      '----',
      '-',
      'name: a',
      '',
      '\r',
    );
    const text = fc
      .tuple(fc.constantFrom('', '\ufeff'), fc.array(line, { maxLength: 6 }))
      .map(([bom, lines]) => bom + lines.join('\n'));
    fc.assert(
      fc.property(text, fc.constantFrom(...OPTIONS), (generated, options) => {
        assert.deepStrictEqual(fencedBlock(generated, options), byLines(generated, options));
      }),
      { numRuns: 3000, seed: 20261208 },
    );
  });
});
