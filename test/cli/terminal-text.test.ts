// terminal-text.ts: which characters are shown escaped, table-driven (docs/cli.md "Output").

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inline, printable, printableBytes, printableJson } from '../../src/cli/terminal-text.js';

describe('printable', () => {
  const cases: Array<[string, string, string]> = [
    ['plain text and Unicode', 'café ✓ 漢字', 'café ✓ 漢字'],
    ['newline and tab stay', 'a\n\tb\n', 'a\n\tb\n'],
    ['CRLF stays, a lone CR does not', 'a\r\nb\rc', 'a\r\nb\\x0dc'],
    ['ESC, BEL (an OSC 52 clipboard write)', '\u001b]52;c;SGVsbG8=\u0007', '\\x1b]52;c;SGVsbG8=\\x07'],
    ['NUL, backspace, form feed', '\u0000\b\f', '\\x00\\x08\\x0c'],
    ['DEL and C1 (CSI, NEL)', '\u007f\u009b2J\u0085', '\\x7f\\u009b2J\\u0085'],
  ];
  for (const [what, input, expected] of cases) {
    it(what, () => assert.equal(printable(input), expected));
  }
  it('keeps plain SGR colour only when asked, and never another sequence', () => {
    assert.equal(printable('\u001b[1mA\u001b[22m \u001b[2J', { colour: true }), '\u001b[1mA\u001b[22m \\x1b[2J');
    assert.equal(printable('\u001b[1mA', { colour: false }), '\\x1b[1mA');
  });
});

describe('inline', () => {
  it('makes one line of a field and escapes the rest', () => {
    assert.equal(inline('a\nb\r\n\tc\u2028d\u001b'), 'a b c d\\x1b');
  });
});

describe('printableJson', () => {
  it('writes DEL and C1 as \\u escapes: the same JSON value', () => {
    const value = { text: 'a\u007f\u009b\u001bb' };
    const json = printableJson(JSON.stringify(value));
    assert.equal(json, '{"text":"a\\u007f\\u009b\\u001bb"}');
    assert.deepEqual(JSON.parse(json), value);
  });
});

describe('printableBytes', () => {
  it('UTF-8 text as printable shows it; other bytes as \\xHH', () => {
    assert.equal(printableBytes(Buffer.from('é\u001b\n', 'utf8')).toString('utf8'), 'é\\x1b\n');
    assert.equal(
      printableBytes(Buffer.from([0x89, 0x50, 0x0d, 0x0a, 0x1b, 0x9b])).toString('latin1'),
      '\\x89P\r\n\\x1b\\x9b',
    );
  });
});
