// Widths on a terminal (docs/cli.md "Output"): display columns, not UTF-16 units; names wrap after their hyphens,
// paths and descriptions are cut with `…`, agent columns are left out from the right; help wraps under its text.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOutput, formatTable, layoutTable, type Output } from '../../src/cli/output.js';
import { cutToWidth, displayWidth, wrapHelp, wrapToWidth } from '../../src/cli/terminal-text.js';

function outputOf(columns: number | undefined): Output {
  return { isTTY: columns !== undefined, columns, color: false, out: () => {}, err: () => {} };
}

describe('display width', () => {
  it('counts wide characters and emoji as two columns, combining marks as none', () => {
    assert.deepEqual(['abc', '日本', 'e\u0301', '👍', '—', '한글'].map(displayWidth), [3, 4, 1, 2, 1, 4]);
  });

  it('cuts by columns, never halfway into a wide character', () => {
    assert.equal(cutToWidth('日本語テキスト', 7), '日本語…');
    assert.equal(cutToWidth('日本語テキスト', 8), '日本語…');
    assert.equal(cutToWidth('short', 5), 'short');
  });

  it('wraps a name after its hyphens, and cuts a segment longer than the width', () => {
    assert.deepEqual(wrapToWidth('generate-release-notes', 10), ['generate-', 'release-', 'notes']);
    assert.deepEqual(wrapToWidth('abcdefghijkl', 5), ['abcde', 'fghij', 'kl']);
    assert.deepEqual(wrapToWidth('日本語', 3), ['日', '本', '語']);
  });

  it('wraps help under the text of its option, words whole', () => {
    const help = '  --port PORT  port, 0 for a free one (SKILLSD_PORT, default 7420)\nshort line';
    assert.equal(
      wrapHelp(help, 40),
      '  --port PORT  port, 0 for a free one\n               (SKILLSD_PORT, default\n               7420)\nshort line',
    );
    assert.equal(wrapHelp('one two three four', 9), 'one two\nthree\nfour');
  });
});

describe('the width of the output', () => {
  const stream = (isTTY: boolean, columns?: number) => ({ write: () => true, isTTY, columns });
  it("is the terminal's, else COLUMNS, else none for a pipe", () => {
    assert.equal(createOutput(stream(true, 120), stream(false), { COLUMNS: '60' }).columns, 120);
    assert.equal(createOutput(stream(true), stream(false), {}).columns, 80);
    assert.equal(createOutput(stream(false), stream(false), { COLUMNS: '60' }).columns, 60);
    assert.equal(createOutput(stream(false), stream(false), {}).columns, undefined);
    assert.equal(createOutput(stream(false), stream(false), { COLUMNS: 'wide' }).columns, undefined);
  });
});

describe('formatTable', () => {
  const rows = [
    ['generate-release-notes-from-merged-pull-request', 'yes', 'Release notes from the merged pull requests'],
  ];

  it('prints natural widths when the table fits, and through a pipe', () => {
    const natural =
      'NAME                                             OK   DESCRIPTION\n' +
      'generate-release-notes-from-merged-pull-request  yes  Release notes from the merged pull requests\n';
    assert.equal(formatTable(outputOf(undefined), ['NAME', 'OK', 'DESCRIPTION'], rows), natural);
    assert.equal(formatTable(outputOf(200), ['NAME', 'OK', 'DESCRIPTION'], rows), natural);
  });

  it('wraps the name and keeps 30 columns of description', () => {
    assert.equal(
      formatTable(outputOf(60), ['NAME', 'OK', 'DESCRIPTION'], rows),
      'NAME                     OK   DESCRIPTION\n' +
        'generate-release-notes-  yes  Release notes from the merged…\n' +
        'from-merged-pull-\n' +
        'request\n',
    );
  });

  it('leaves `drop` columns out from the right, under their short headers, and says which', () => {
    const table = layoutTable(
      outputOf(40),
      [
        { header: 'NAME', fit: 'wrap' },
        { header: 'CLAUDE-CODE', short: 'CLAUDE', fit: 'drop' },
        { header: 'CODEX', fit: 'drop' },
        { header: 'GEMINI-CLI', short: 'GEMINI', fit: 'drop' },
      ],
      [['a-rather-long-skill-name-indeed', 'loaded', '—', 'loaded']],
    );
    assert.equal(
      table.text,
      'NAME                       CLAUDE  CODEX\n' + 'a-rather-long-skill-name-  loaded  —\n' + 'indeed\n',
    );
    assert.deepEqual(table.left, ['GEMINI-CLI']);
  });

  it('cuts every line to a terminal narrower than the narrowest columns', () => {
    const text = formatTable(
      outputOf(20),
      ['NAME', 'PROVIDER', 'LEVEL', 'DESCRIPTION'],
      [['pdf', 'claude', 'project', 'PDF tools']],
    );
    assert.equal(text, 'NAME  PROVIDER  LEV…\n' + 'pdf   claude    pro…\n');
  });
});
