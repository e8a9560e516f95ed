// The tidy pass over invocation messages and the xcsh prompt block (docs/discovery.md §7a): the contract's examples
// one by one, and two properties over random texts built from the characters the rules look at.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatPromptText } from '../../src/discovery/format-prompt-text.js';

describe('formatPromptText (the tidy pass, docs/discovery.md §7a)', () => {
  const FENCE = '```';
  // [label, input lines, expected lines]: the examples of the contract, one by one.
  const cases: Array<[string, string[], string[]]> = [
    // Step 1: trailing white space goes from every line, in code too.
    [
      'trims trailing white space inside a fence too',
      [`${FENCE}sh`, 'echo hi   ', '  two\t\t', '   ', FENCE],
      [`${FENCE}sh`, 'echo hi', '  two', '', FENCE],
    ],
    // A separator row keeps its indentation even with no cell left; the `␠␠||` it becomes is an ordinary table row
    // to a second pass, which keeps it too.
    ['an indented separator row with no cell keeps its indentation', ['# Head', '  | |'], ['# Head', '  ||']],
    ['an indented `||` is an ordinary table row and keeps it', ['# Head', '  ||'], ['# Head', '  ||']],
    ['trims every kind of trailing white space', ['a \u00a0', 'b\u2003\t', 'c\u3000', 'd'], ['a', 'b', 'c', 'd']],
    [
      'takes the CR of every CRLF line, inside a fence too',
      ['x\r', `${FENCE}\r`, 'in code  \r', '\r', `${FENCE}\r`, 'y\r'],
      ['x', FENCE, 'in code', '', FENCE, 'y'],
    ],
    [
      'trims the lines of a fence that is never closed',
      ['a', FENCE, 'b  ', '', '', 'c  '],
      ['a', FENCE, 'b', '', '', 'c'],
    ],
    // Step 3: a fence line only flips the flag.
    [
      'closes a backtick block with tildes; the last fence opens a new block',
      [FENCE, 'a', '~~~', '| x |  y |', '', '', '', 'z', FENCE],
      [FENCE, 'a', '~~~', '|x|y|', 'z', FENCE],
    ],
    [
      'opens a block with a one-line ```x```, and does not close it',
      ['```x```', '| p |  q |', '', '', '', 'end'],
      ['```x```', '| p |  q |', '', '', '', 'end'],
    ],
    ['flips on four backticks', ['````', 'a', '', '', 'b'], ['````', 'a', '', '', 'b']],
    [
      'flips on an indented fence whatever follows it',
      ['x', '  ~~~~ js extra', '| a |  b |', '', '', '\t```', '| a |  b |'],
      ['x', '  ~~~~ js extra', '| a |  b |', '', '', '\t```', '|a|b|'],
    ],
    // Step 4: in code, every blank line stays.
    [
      'keeps every blank line and table row in code',
      ['x', FENCE, '', '', '', '| a |  b |', '', '</tag>', FENCE, 'y'],
      ['x', FENCE, '', '', '', '| a |  b |', '', '</tag>', FENCE, 'y'],
    ],
    // Step 5: closing tags.
    [
      'drops the blank line before </a_b> and </a-b> only',
      ['x', '', '</B>', 'x', '', '</h1>', 'x', '', '</a.b>', 'x', '', '</a_b>', 'x', '', '</a-b>'],
      ['x', '', '</B>', 'x', '', '</h1>', 'x', '', '</a.b>', 'x', '</a_b>', 'x', '</a-b>'],
    ],
    [
      'drops the blank line before an indented closing tag',
      ['<a>', '  x', '', '\t </a>', 'after'],
      ['<a>', '  x', '\t </a>', 'after'],
    ],
    ['keeps the blank line before a closing tag with more text', ['x', '', '</a> tail'], ['x', '', '</a> tail']],
    ['keeps the blank line before an opening tag', ['x', '', '<rules>'], ['x', '', '<rules>']],
    // Step 5: table separator rows.
    ['rebuilds |-|:-:|', ['|-|:-:|'], ['|---|:---:|']],
    ['rebuilds |---||---|', ['|---||---|'], ['|---|---|']],
    ['rebuilds each alignment; a lone : has both ends', ['|  -  | -: |:| :- |'], ['|---|---:|:---:|:---|']],
    ['keeps the indentation of a separator row', ['x', '  |--|--|'], ['x', '  |---|---|']],
    ['rebuilds | - | : |', ['| - | : |'], ['|---|:---:|']],
    ['rebuilds | | as ||', ['| |'], ['||']],
    // Step 5: other table rows.
    ['splits at an escaped pipe', ['| a \\| b | c |'], ['|a \\|b|c|']],
    ['splits at a pipe in a code span', ['| `x|y` |  z  |'], ['|`x|y`|z|']],
    ['trims every cell', ['| a  |  b |', '|  1 | 2  |'], ['|a|b|', '|1|2|']],
    ['leaves a row that does not end with a pipe', ['| a | b', '|---|---'], ['| a | b', '|---|---']],
    // Every row of an indented table keeps its indentation exactly as written: header, separator and body alike.
    [
      'keeps the indentation of every row of an indented table',
      ['x', '  |k|v|', '  |---|---|', '  |x|y|'],
      ['x', '  |k|v|', '  |---|---|', '  |x|y|'],
    ],
    [
      'keeps the indentation of a padded indented table, tabs included',
      ['x', '  | k |  v |', '  | - | -: |', '  |  x | y  |', '\t| a | b |', ' \t | c \\| d |'],
      ['x', '  |k|v|', '  |---|---:|', '  |x|y|', '\t|a|b|', ' \t |c \\|d|'],
    ],
    ['keeps a deeper indentation of a body row', ['x', '|a|', '    | b |'], ['x', '|a|', '    |b|']],
    // Step 5: blank lines.
    ['drops a run of two blank lines entirely', ['a', '', '', 'b'], ['a', 'b']],
    ['drops a run of many blank lines entirely', ['a', '', '', '', '', 'b'], ['a', 'b']],
    ['keeps one blank line, spaces and tabs only counting as blank', ['c', '  \t', 'd'], ['c', '', 'd']],
    ['counts lines of white space as blank in a run', ['a', '  ', '\t', 'b'], ['a', 'b']],
    ['never starts with a blank line', ['', 'a'], ['a']],
    // Step 6.
    ['drops blank lines at the end and trims the whole text', ['', '', '  a  ', '', ''], ['a']],
    [
      'replaces no symbol and rewrites no keyword',
      ['You MUST -> do it (c) "x"', 'must not'],
      ['You MUST -> do it (c) "x"', 'must not'],
    ],
  ];
  for (const [label, input, expected] of cases) {
    it(label, () => assert.equal(formatPromptText(input.join('\n')), expected.join('\n')));
  }
});

/** Written here again, as the rule states it: a fence line flips the flag, whatever it holds. */
const FENCE_LINE = /^[ \t]*(?:```|~~~)/;

/** The fence lines and the lines between them (an unclosed fence runs to the end), in order. */
function codeLines(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let inCode = false;
  for (const line of lines) {
    if (FENCE_LINE.test(line)) {
      inCode = !inCode;
      kept.push(line);
    } else if (inCode) {
      kept.push(line);
    }
  }
  return kept;
}

/** Text from pieces the rules react to: fences, pipes, dashes, colons, tags, every kind of white space. */
const PIECES = [
  '```',
  '~~~',
  '````',
  '```x```',
  '|',
  '\\|',
  '-',
  ':',
  '`',
  '</a>',
  '</a_b>',
  '</B>',
  '<x>',
  'a',
  'MUST',
  ' ',
  '  ',
  '\t',
  '\r',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\n',
  '\n',
  '\n\n',
  '\n\n\n',
];
const piece = fc.constantFrom(...PIECES);
/**
 * Texts as the renderers build them: the first line is a template line that starts with a visible character (the
 * `[IMPORTANT: …]` line, `# Skills`). Only a first line starting with white space other than spaces and tabs could be
 * changed again: the final trim would bare a fence or a table row that the pass did not see as one.
 */
const message = fc.array(piece, { maxLength: 60 }).map((pieces) => `# Head\n${pieces.join('')}`);

describe('formatPromptText properties', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(message, (text) => {
        const once = formatPromptText(text);
        assert.equal(formatPromptText(once), once);
      }),
      { numRuns: 2000, seed: 20261202 },
    );
  });

  it('changes nothing inside a fence but trailing white space', () => {
    fc.assert(
      fc.property(message, (text) => {
        const inputLines = text.split('\n');
        const expected = codeLines(inputLines).map((line) => line.trimEnd());
        // Only blank lines at the very end of the text go, and code lines are the last ones only in an open fence.
        const outputLines = formatPromptText(text).split('\n');
        const actual = codeLines(outputLines);
        while (expected.length > actual.length && expected[expected.length - 1] === '') expected.pop();
        assert.deepEqual(actual, expected);
      }),
      { numRuns: 2000, seed: 20261203 },
    );
  });
});
