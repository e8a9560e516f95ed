import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MANAGED_NAME, sanitizeManagedDescription } from '../../../src/discovery/frontmatter/sanitize-description.js';

describe('sanitizeManagedDescription (docs/discovery.md §5 step 5)', () => {
  const cases: Array<[string, string, string]> = [
    ['plain text', 'Plain text', 'Plain text'],
    ['control characters become spaces', 'a\u0000b\u0007c\u001bd\u007fe\u0085f', 'a b c d e f'],
    ['format characters become spaces', 'a\u200bb\u202ec\u2066d\ufeffe\u00adf', 'a b c d e f'],
    ['tags and backticks are deleted', '<script>alert(`x`)</script>', 'scriptalert(x)/script'],
    ['runs of tildes collapse', 'a~~b~~~~c~d', 'a~b~c~d'],
    ['tildes joined by a deleted character collapse too', 'a~<~b', 'a~b'],
    ['whitespace runs collapse', 'a \t\n\r b\u00a0\u3000c', 'a b c'],
    ['newlines and tabs', 'line one\nline two\ttabbed', 'line one line two tabbed'],
    ['trimmed', '  \u200b padded \u0000 ', 'padded'],
    ['empty', '', ''],
    ['only removable characters', '<>`\u0000', ''],
  ];
  for (const [title, input, expected] of cases) {
    it(title, () => assert.equal(sanitizeManagedDescription(input), expected));
  }
});

describe('managed skill names', () => {
  const valid = ['a', '0', 'pdf-tools', 'a-', 'x'.repeat(64), '9lives', 'a--b'];
  const invalid = ['', '-a', 'A', 'Pdf', 'pdf_tools', 'pdf tools', 'x'.repeat(65), 'é', 'a.b', 'a\n'];
  for (const name of valid) it(`accepts ${JSON.stringify(name)}`, () => assert.equal(MANAGED_NAME.test(name), true));
  for (const name of invalid) {
    it(`refuses ${JSON.stringify(name)}`, () => assert.equal(MANAGED_NAME.test(name), false));
  }
});
