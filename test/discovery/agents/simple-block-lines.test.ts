// The lines of a block of the simple shapes (simple-block-lines.ts): what they say, and Copilot CLI's look for a key
// written twice, which skips its second parse when they say there is none (docs/agents.md "GitHub Copilot CLI").

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { duplicateKey, duplicateKeyWithYaml } from '../../../src/discovery/agents/copilot-cli.js';
import { isSimpleShape, readYamlMapping } from '../../../src/discovery/agents/frontmatter-rules.js';
import { scanLines, simpleBlockLines } from '../../../src/discovery/agents/simple-block-lines.js';

describe('scanLines', () => {
  // [what, block, repeatedKey, sameInYaml11, colonValuesRewritten]
  const cases: Array<[string, string, boolean, boolean, boolean]> = [
    ['plain keys', 'name: a\ndescription: b', false, true, true],
    ['a repeated key', 'name: a\nname: b', true, true, true],
    ['one key in two nested maps', 'm:\n  k: 1\nn:\n  k: 2', false, false, true],
    ['a repeated nested key', 'm:\n  k: a\n  k: b', true, true, true],
    ['a nested key named as a top-level one', 'k: a\nm:\n  k: b', false, true, true],
    ['list items are no keys', 'l:\n  - a\n  - a\n- b', false, true, true],
    ['an exponent value', 'a: e5', false, false, true],
    ['an exponent key', 'E-2: a', false, false, true],
    ['a digit first', 'a: 1', false, false, true],
    ['a digit first in a list', 'l:\n  - 2024-01-01', false, false, true],
    ['quoted values', 'a: "1"\nb: \'e5\'', false, true, true],
    ['": " under a plain key', 'description: Use when: asked', false, true, true],
    ['": " under a hyphenated key', 'allowed-tools: Read: x', false, true, false],
    ['": " in a nested map', 'm:\n  k: a: b', false, true, false],
    ['blank lines and trailing spaces', '\n  \nname: a  \n\n', false, true, true],
  ];
  for (const [what, block, repeatedKey, sameInYaml11, colonValuesRewritten] of cases) {
    it(what, () => {
      assert.deepStrictEqual(scanLines(block), { repeatedKey, sameInYaml11, colonValuesRewritten });
    });
  }

  it('is kept by the read it was asked for', () => {
    const block = 'name: a\nname: b';
    const read = readYamlMapping(block);
    assert.equal(isSimpleShape(read), true);
    assert.equal(simpleBlockLines(read, block), simpleBlockLines(read, block));
  });
});

/** Copilot CLI asks only for blocks that read; the answer is the YAML reader's. True when the parse was skipped. */
function assertAgrees(block: string): boolean {
  const read = readYamlMapping(block);
  if (!read.ok) return false;
  assert.equal(duplicateKey(block, read), duplicateKeyWithYaml(block), JSON.stringify(block));
  return isSimpleShape(read) && duplicateKey(block, read) === undefined;
}

describe('duplicateKey: the lines skip the second parse only where it finds nothing', () => {
  // [what, block, parse skipped]
  const cases: Array<[string, string, boolean]> = [
    ['distinct keys', 'name: a\ndescription: b\nlicense: MIT', true],
    ['a repeated key', 'name: a\ndescription: b\nname: c', false],
    ['a repeated nested key', 'm:\n  k: 1\n  k: 2', false],
    ['one key in two nested maps', 'm:\n  k: 1\nn:\n  k: 2', true],
    ['a list of equal items', 'l:\n  - a\n  - a', true],
    ['a flow map with a repeated key', 'm: {a: 1, a: 2}', false],
    ['a key and its quoted twin', 'a: 1\n"a": 2', false],
    ['a number key and its text', '1: a\n"1": b', false],
    ['an anchor and a merge key', 'b: &m {x: 1}\n<<: *m\nx: 2', false],
    ['a nested block map', 'm:\n  n:\n    k: 1\n    k: 2', false],
    ['a map in a list', 'l:\n  - a: 1\n    a: 2', false],
    ['an explicit key', '? a\n: 1\na: 2', false],
    ['a CRLF block', 'a: 1\r\na: 2', false],
  ];
  for (const [what, block, skipped] of cases) {
    it(what, () => {
      assert.equal(assertAgrees(block), skipped, JSON.stringify(block));
    });
  }

  it('on generated blocks (property)', () => {
    const key = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('name', 'description', 'a', 'b', 'k', 'l', 'm') },
      { weight: 1, arbitrary: fc.constantFrom('"a"', '1', 'true', '<<', '? a') },
    );
    const scalar = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('x', '1', '"q"', "'s'", '') },
      { weight: 1, arbitrary: fc.constantFrom('{a: 1, a: 2}', '{a: 1}', '&m x', '*m', '[a, a]') },
    );
    const entry = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(key, scalar).map(([k, v]) => `${k}: ${v}`) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(key, fc.array(fc.tuple(key, scalar), { minLength: 1, maxLength: 3 }))
          .map(([k, items]) => [`${k}:`, ...items.map(([sub, v]) => `  ${sub}: ${v}`)].join('\n')),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(key, fc.array(scalar, { minLength: 1, maxLength: 3 }))
          .map(([k, items]) => [`${k}:`, ...items.map((v) => `  - ${v}`)].join('\n')),
      },
    );
    let skipped = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), (entries) => {
        runs++;
        if (assertAgrees(entries.join('\n'))) skipped++;
      }),
      { numRuns: 2000, seed: 20261207 },
    );
    assert.ok(skipped > runs / 10, `the parse was skipped for ${skipped} of ${runs} blocks`);
  });
});
