// The agents' YAML reading (docs/agents.md "Vocabulary"): `readYamlMapping` reads simple blocks without the YAML
// reader, and must give exactly what the reader gives (`readYamlMappingWithYaml`): the same value with the same key
// order, or the same error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { quoteProblematicValues } from '../../src/discovery/agents/claude-code.js';
import { repairYaml } from '../../src/discovery/agents/codex.js';
import { readYamlMapping, readYamlMappingWithYaml } from '../../src/discovery/agents/frontmatter-rules.js';
import { readAgentsSimpleBlock } from '../../src/discovery/frontmatter/frontmatter-fast-path.js';

/** Key order and own-property kinds at every level (deepStrictEqual ignores the order). */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value.map(shape);
  return Object.entries(value).map(([key, item]) => [key, Object.hasOwn(value, key), shape(item)]);
}

/** The fast reading (memo included) agrees with the reader; true when the fast path took the block. */
function assertAgrees(block: string): boolean {
  const taken = readAgentsSimpleBlock(block) !== undefined;
  const fast = readYamlMapping(block);
  const slow = readYamlMappingWithYaml(block);
  assert.deepStrictEqual(fast, slow, JSON.stringify(block));
  if (fast.ok && slow.ok) assert.deepStrictEqual(shape(fast.value), shape(slow.value), JSON.stringify(block));
  // The memo gives the same again.
  assert.equal(readYamlMapping(block), fast);
  return taken;
}

describe('readYamlMapping: the fast path gives the YAML reader’s value or error', () => {
  // [what, block, taken by the fast path]
  const cases: Array<[string, string, boolean]> = [
    ['the shapes real skills have', 'name: pdf\ndescription: Read PDFs\nallowed-tools:\n  - Read\n  - Bash', true],
    ['a one-level map', 'metadata:\n  version: "1.2.0"\n  owner: me', true],
    ['an empty block', '', true],
    ['a block of spaces', '  \n ', true],
    ['empty values', 'name:\ndescription:', true],
    ['an empty sequence item', 'l:\n  -\n  - a', true],
    ['double quotes with escapes', 'description: "a \\"b\\" \\\\ \\t \\u00e9 \\U0001F600"', true],
    ['single quotes', "description: 'it''s: fine'", true],
    ['": " in quotes', 'description: "Use when: asked"', true],
    ['": " unquoted: the nested-mapping error', 'name: x\ndescription: Use when: asked', true],
    ['": " unquoted in a nested map', 'metadata:\n  note: a: b', true],
    ['": " unquoted twice', 'a: b: c\nd: e: f', true],
    [
      '": " unquoted, then indicators',
      'description: Use when: the user runs `npm test` # or [x] {y} | a > b & c * d! 100%:',
      true,
    ],
    ['": " unquoted, then a backtick', 'description: Use when: `npm test`', false],
    ['": " unquoted, then an unclosed quote', "description: Use when: 'it", false],
    ['": " unquoted, then a flow collection', 'description: Use when: [x]', false],
    ['": " unquoted, then an anchor', 'description: Use when: &a x', false],
    ['": " in a sequence item (a compact map)', 'l:\n  - a: b', false],
    ['a comment before ": "', 'description: Use this # note: x', false],
    ['a comment', 'name: x # c', false],
    ['a comment line', '# c\nname: x', false],
    ['only comments', '# a\n# b', false],
    ['a multi-line plain scalar', 'description: a\n  b', false],
    ['a block scalar', 'description: |\n  a: b', false],
    ['a folded scalar', 'description: >-\n  a\n  b', false],
    ['a TAB before the value', 'name:\tx', false],
    ['a TAB inside a value', 'name: a\tb', false],
    ['a TAB-indented item', 'l:\n\t- a', false],
    ['CRLF lines', 'name: x\r\ndescription: y', false],
    ['a trailing CR', 'name: x\r', false],
    ['a BOM first', '\ufeffname: x', false],
    ['a BOM inside a value', 'name: a\ufeffb', false],
    ['a repeated key: the last value, first place', 'a: 1\nb: 2\na: 3', true],
    ['a repeated nested key', 'm:\n  a: 1\n  a: 2', true],
    ['__proto__ as a key', '__proto__: x\nconstructor: y\ntoString: z', true],
    ['a merge key', 'b: &m {x: 1}\n<<: *m', false],
    ['a scalar merge key', '<<: s', false],
    ['an anchor and an alias', 'a: &x 1\nb: *x', false],
    ['a tag', 'a: !!str 1', false],
    ['two documents', 'a: 1\n...\nb: 2', false],
    ['a document end', 'a: 1\n...', false],
    ['a directive-like line', '%YAML 1.2\n---\na: 1', false],
    ['a value starting with a comma', 'a: ,x', false],
    ['a flow list', 'tags: [a, b]', false],
    ['a flow map followed by text', 'a: {b: 1} c', false],
    ['a quoted scalar left open', 'a: "x', false],
    ['text after a closing quote', 'a: "x" y', false],
    ['a lone surrogate escape', 'a: "\\ud800"', false],
    ['a surrogate pair escape', 'a: "\\ud83d\\ude00"', false],
    ['typed keys', 'true: 1\nnull: 2\n1: 3', false],
    ['a quoted key', '"a b": 1', false],
    ['a scalar document', 'key:value', false],
    ['a lone scalar', 'just text', false],
    ['a sequence document', '- a\n- b', false],
    [
      'core-schema scalars',
      'a: yes\nb: on\nc: ~\nd: 0o17\ne: 0x1F\nf: 1e3\ng: .inf\nh: -.Inf\ni: .NaN\nj: -0\nk: 1_000',
      true,
    ],
    ['a version and a URL', 'version: 1.2.0\nurl: https://example.com/x', true],
    ['non-breaking space', 'a: x\u00a0y', false],
    ['a line separator', 'a: x\u2028y', false],
    ['a key of 129 characters', `${'k'.repeat(129)}: v`, false],
    ['a key of 1025 characters', `${'k'.repeat(1025)}: v`, false],
    ['1000 quoted brackets', `a: "${'['.repeat(1000)}"`, true],
    ['1001 quoted brackets (the flow-depth limit)', `a: "${'['.repeat(1001)}"`, false],
    ['1001 brackets after ": "', `a: b: ${'['.repeat(1001)}`, false],
    ['a line starting with ---', 'a: 1\n--- b', false],
    ['an indented key', '  a: 1', false],
    ['deeper nesting', 'm:\n  a:\n    b: 1', false],
  ];
  for (const [what, block, taken] of cases) {
    it(what, () => {
      assert.equal(assertAgrees(block), taken, JSON.stringify(block));
    });
  }

  it('the nested-mapping error is the reader’s message, and the retries of Claude Code and Codex read fast', () => {
    const block = 'name: pdf\ndescription: Extract text. Use when: the user asks about "PDFs" (or forms)\nlicense: MIT';
    assert.deepStrictEqual(readYamlMapping(block), {
      ok: false,
      error: 'Nested mappings are not allowed in compact mappings',
    });
    for (const retry of [quoteProblematicValues(block), repairYaml(block)]) {
      assert.notEqual(readAgentsSimpleBlock(retry), undefined, retry);
      assertAgrees(retry);
      assert.deepStrictEqual(readYamlMapping(retry), {
        ok: true,
        value: {
          name: 'pdf',
          description: 'Extract text. Use when: the user asks about "PDFs" (or forms)',
          license: 'MIT',
        },
      });
    }
  });

  it('a block over the size cap is refused before either reading', () => {
    const block = `a: ${'x'.repeat(64 * 1024)}`;
    assert.deepStrictEqual(readYamlMapping(block), readYamlMappingWithYaml(block));
    assert.equal(readYamlMapping(block).ok, false);
  });
});

describe('readYamlMapping agrees with the YAML reader (property)', () => {
  const key = fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^[a-cA_][a-c1_-]{0,2}$/) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('name', 'description', 'true', 'Null', '__proto__', '1a', 'k:', '-a', '"q"', '<<'),
    },
  );
  const piece = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom('a', 'B', 'word', ' ', '0', '17', '.', '-', 'e', ':', ',', "'", '"') },
    { weight: 4, arbitrary: fc.constantFrom(': ', 'Use when: ', ' #', '#', '`x`', '[', ']', '{', '}', '!', '&', '*') },
    { weight: 2, arbitrary: fc.constantFrom('null', 'true', '.inf', '0x1F', '1e3', '...', '---', 'é', '😀', '|', '>') },
    { weight: 1, arbitrary: fc.constantFrom('\\', '\\n', '\\ud800', '\u00a0', '\ufeff', '\t', '\r', '\u0000', '%') },
  );
  const text = fc.array(piece, { maxLength: 7 }).map((parts) => parts.join(''));
  const scalar = fc.oneof(
    { weight: 5, arbitrary: text },
    { weight: 1, arbitrary: text.map((t) => `'${t.replaceAll("'", "''")}'`) },
    { weight: 1, arbitrary: text.map((t) => `"${t.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`) },
    { weight: 1, arbitrary: text.map((t) => `"${t}"`) },
  );
  /** Real-looking text around an unquoted `": "`, the shape half of some trees' descriptions have. */
  const words = fc
    .array(
      fc.constantFrom('use', 'when', 'the', 'PDFs', "it's", '(or', 'x"y', 'é', '😀', 'a:b', '#1', '`npm`', '[x]'),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((parts) => parts.join(' '));
  const colonText = fc.tuple(words, words).map(([a, b]) => `${a}: ${b}`);
  const gap = fc.constantFrom(' ', ' ', '  ', '', '\t');
  const indent = fc.constantFrom('  ', '  ', ' ', '');
  const entry = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(key, gap, scalar).map(([k, g, v]) => `${k}:${g}${v}`) },
    { weight: 2, arbitrary: fc.tuple(key, colonText).map(([k, v]) => `${k}: ${v}`) },
    { weight: 1, arbitrary: key.map((k) => `${k}:`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, indent, fc.array(fc.tuple(gap, scalar), { minLength: 1, maxLength: 3 }))
        .map(([k, i, items]) => [`${k}:`, ...items.map(([g, v]) => `${i}-${g}${v}`)].join('\n')),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, indent, fc.array(fc.tuple(key, gap, scalar), { minLength: 1, maxLength: 3 }))
        .map(([k, i, items]) => [`${k}:`, ...items.map(([sub, g, v]) => `${i}${sub}:${g}${v}`)].join('\n')),
    },
    { weight: 1, arbitrary: fc.constantFrom('', '  ', '# note', '...', '---', 'a: &m x', 'b: *m', '<<: {a: 1}') },
  );
  const block = fc
    .tuple(fc.array(entry, { maxLength: 6 }), fc.constantFrom('\n', '\n', '\n', '\r\n'))
    .map(([entries, eol]) => entries.join('\n').replaceAll('\n', eol));

  const plainKey = fc.constantFrom('name', 'description', 'license', 'when', 'a-b', 'metadata');
  const realistic = fc
    .array(
      fc.oneof(
        fc.tuple(plainKey, words).map(([k, v]) => `${k}: ${v}`),
        fc.tuple(plainKey, colonText).map(([k, v]) => `${k}: ${v}`),
        fc.tuple(plainKey, colonText).map(([k, v]) => `${k}:\n  note: ${v}\n  owner: me`),
        fc.tuple(plainKey, words).map(([k, v]) => `${k}:\n  - ${v}`),
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((lines) => lines.join('\n'));

  it('on generated blocks, and on the retries Claude Code and Codex make of them', () => {
    let taken = 0;
    let failedTaken = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.oneof(block, realistic), (generated) => {
        runs++;
        if (assertAgrees(generated)) {
          taken++;
          if (!readYamlMapping(generated).ok) failedTaken++;
        }
        assertAgrees(quoteProblematicValues(generated));
        assertAgrees(repairYaml(generated));
      }),
      { numRuns: 3000, seed: 20261215 },
    );
    // The property says something only if the fast path takes a share of the blocks, failing ones included.
    assert.ok(taken > runs / 10, `the fast path took ${taken} of ${runs} blocks`);
    assert.ok(failedTaken > runs / 20, `the fast path took ${failedTaken} failing blocks of ${runs}`);
  });
});
