// OpenCode's frontmatter without its YAML 1.1 reader (opencode-simple.ts, docs/agents.md "OpenCode"): every file the
// fast path takes must read exactly as OpenCode's own path reads it (`readFrontmatterWithYaml`), and each form at the
// edge of the fast path is either taken with that value or left to the own path.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readFrontmatter, readFrontmatterWithYaml } from '../../../src/discovery/agents/opencode.js';
import { readOpencodeSimple } from '../../../src/discovery/agents/opencode-simple.js';

/** Key order, own-property kinds and NaN at every level (deepStrictEqual ignores the order). */
function shape(value: unknown): unknown {
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value.map(shape);
  return Object.entries(value).map(([key, item]) => [key, Object.hasOwn(value, key), shape(item)]);
}

/** The fast reading equals OpenCode's own; true when the fast path took the text. */
function assertAgrees(text: string): boolean {
  const fast = readOpencodeSimple(text);
  const slow = readFrontmatterWithYaml(text);
  if (fast !== undefined) {
    assert.deepStrictEqual(fast, slow, JSON.stringify(text));
    assert.deepStrictEqual(shape(fast), shape(slow), JSON.stringify(text));
  }
  assert.deepStrictEqual(readFrontmatter(text), slow, JSON.stringify(text));
  return fast !== undefined;
}

const file = (block: string): string => `---\n${block}\n---\n\n# Body\n`;

describe('readOpencodeSimple: the files it takes read as OpenCode reads them', () => {
  // [what, whole file, taken by the fast path, OpenCode's data]
  const cases: Array<[string, string, boolean, Record<string, unknown> | null]> = [
    ['plain keys', file('name: pdf\ndescription: Read PDFs'), true, { name: 'pdf', description: 'Read PDFs' }],
    [
      'a list and a nested map',
      file('name: a\nallowed-tools:\n  - Read\n  - Bash\nmetadata:\n  version: "2.8.0"\n  owner: me'),
      true,
      { name: 'a', 'allowed-tools': ['Read', 'Bash'], metadata: { version: '2.8.0', owner: 'me' } },
    ],
    [
      '": " in a description: the rewritten reading',
      file('name: a\ndescription: Use when: the user asks # really'),
      true,
      { name: 'a', description: 'Use when: the user asks # really' },
    ],
    [
      '": " and a URL: both rewritten as text',
      file('name: a\nhomepage: https://example.com\ndescription: Use when: asked'),
      true,
      { name: 'a', homepage: 'https://example.com', description: 'Use when: asked' },
    ],
    ['quoted values', file('name: "a: b"\ndescription: \'yes\''), true, { name: 'a: b', description: 'yes' }],
    ['null and boolean words', file('name: a\nx: null\ny: TRUE\nz:'), true, { name: 'a', x: null, y: true, z: null }],
    ['YAML 1.1 words read as text by js-yaml', file('name: a\nx: yes\ny: On\nz: n'), true, null],
    ['an exponent alone is a number in YAML 1.1', file('name: a\ndescription: e5'), false, null],
    ['an exponent key', file('E-2: a\nname: a'), false, null],
    ['a digit first', file('name: a\ndescription: 3 ways'), false, { name: 'a', description: '3 ways' }],
    ['a date', file('name: a\ndescription: 2024-01-01'), false, null],
    ['sexagesimal', file('name: a\ndescription: 1:20'), false, { name: 'a', description: 80 }],
    ['hex', file('name: a\ndescription: 0x1F'), false, { name: 'a', description: 31 }],
    ['a float', file('name: a\ndescription: 1e3'), false, { name: 'a', description: 1000 }],
    ['a tilde', file('name: a\ndescription: ~'), false, { name: 'a', description: null }],
    ['a merge key', file('name: a\n<<: {b: 1}'), false, { name: 'a', b: 1 }],
    ['a repeated key: an error, then the same again', file('name: a\nname: b'), false, null],
    ['a repeated nested key', file('name: a\nm:\n  k: 1\n  k: 2'), false, null],
    ['a repeated key with ": "', file('name: a\ndescription: a: b\nname: c'), false, null],
    ['a comment', file('name: a # c'), false, { name: 'a' }],
    ['a leading indicator', file('name: a\ndescription: [x]'), false, { name: 'a', description: ['x'] }],
    ['a trailing space', file('name: a \ndescription: b  '), true, { name: 'a', description: 'b' }],
    ['a TAB', file('name:\ta'), false, { name: 'a' }],
    ['a BOM', `\ufeff${file('name: a')}`, false, { name: 'a' }],
    ['a BOM and ": "', `\ufeff${file('name: a\ndescription: a: b')}`, false, null],
    ['CRLF lines', file('name: a\r\ndescription: a: b').replaceAll('\n', '\r\n'), false, null],
    ['a language after the fence', '---yaml\nname: a\n---\n', false, { name: 'a' }],
    ['four dashes', '----\nname: a\n---\n', false, {}],
    ['an empty block', '---\n---\nbody', false, {}],
    ['no closing fence', '---\nname: a\n', false, { name: 'a' }],
    ['a blank line first', file('\nname: a'), false, { name: 'a' }],
    ['a comment line first', file('# c\nname: a'), false, { name: 'a' }],
    ['": " under a hyphenated key: not rewritten', file('name: a\nallowed-tools: Read: x'), false, null],
    ['": " in a nested map: not rewritten', file('name: a\nm:\n  k: a: b'), false, null],
    ['": " then a blank line of 3 spaces', file('description: Use when: a\n   \nname: x'), false, null],
    ['": " then a blank line of 2 spaces', file('description: Use when: a\n  \nname: x'), false, null],
    ['": " then an empty line', file('description: Use when: a\n\nname: x'), true, null],
    ['a closing fence with more on its line', '---\nname: a\n--- x\nbody', true, { name: 'a' }],
    ['a value starting with _', file('name: _a\n_k: b'), true, { name: '_a', _k: 'b' }],
    ['a non-ASCII letter first', file('name: é'), false, { name: 'é' }],
    ['__proto__', file('__proto__: a\nname: b'), true, null],
  ];
  for (const [what, text, taken, data] of cases) {
    it(what, () => {
      assert.equal(assertAgrees(text), taken, JSON.stringify(text));
      if (data !== null) assert.deepStrictEqual(readFrontmatterWithYaml(text), data);
    });
  }

  it('a block of more than half the size cap is left to the own path', () => {
    const description = `Use when: ${'x'.repeat(40 * 1024)}`;
    const text = file(`name: a\ndescription: ${description}`);
    assert.equal(assertAgrees(text), false);
    assert.deepStrictEqual(readFrontmatter(text), { name: 'a', description });
  });
});

describe('readOpencodeSimple agrees with OpenCode’s own reading (property)', () => {
  const key = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom('name', 'description', 'license', 'when', 'x_y', 'a-b', 'tags', 'k1', '_k', 'meta'),
    },
    { weight: 1, arbitrary: fc.constantFrom('e5', 'E-2', 'yes', 'on', 'Null', 'true') },
  );
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('word', 'Use when: asked', 'a: b: c', 'http://x.y', 'a:b', 'x_y', '') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'yes',
        'No',
        'y',
        'true',
        'NULL',
        '~',
        'e5',
        'E+10',
        'e',
        '1e3',
        '0x1F',
        '0o17',
        '010',
        '0b101',
        '1_000',
        '1:20',
        '2024-01-01',
        '.inf',
        '-x',
        '"q: r"',
        "'s'",
        'x # c',
        'Use when: x # c',
        'Use when: `npm`',
        'é',
      ),
    },
  );
  const indent = fc.constantFrom('  ', ' ', '');
  const entry = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, indent, fc.array(value, { minLength: 1, maxLength: 3 }))
        .map(([k, i, items]) => [`${k}:`, ...items.map((v) => `${i}- ${v}`)].join('\n')),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 3 }))
        .map(([k, items]) => [`${k}:`, ...items.map(([sub, v]) => `  ${sub}: ${v}`)].join('\n')),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '  ', '   ', '# note') },
  );
  const text = fc
    .tuple(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.constantFrom('', '', '', '\ufeff'))
    .map(([entries, bom]) => `${bom}---\n${entries.join('\n')}\n---\nbody\n`);

  /** Distinct top-level keys, most values holding `": "`: the files OpenCode reads twice. */
  const colonValue = fc
    .tuple(
      fc.constantFrom('Use when', 'Run', 'Note', 'x'),
      fc.constantFrom(' asked', ' `npm test`', ' a # b', ' [x] {y}', " it's", ' "q"', ' a: b', '', '  x  '),
    )
    .map(([a, b]) => `${a}:${b}`);
  const rewritten = fc
    .tuple(
      fc.uniqueArray(fc.constantFrom('name', 'description', 'license', 'when', 'x_y', 'a-b', '_k'), {
        minLength: 1,
        maxLength: 5,
      }),
      fc.array(fc.oneof(colonValue, value), { minLength: 5, maxLength: 5 }),
      fc.array(fc.constantFrom('', '', '', ' ', '   '), { minLength: 5, maxLength: 5 }),
    )
    .map(([keys, values, blanks]) =>
      keys.map((k, i) => `${k}: ${values[i]}${blanks[i] === '' ? '' : `\n${blanks[i]}`}`).join('\n'),
    )
    .map((block) => `---\n${block}\n---\nbody\n`);

  it('on generated files with distinct keys and values holding ": "', () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(rewritten, (generated) => {
        runs++;
        if (assertAgrees(generated) && generated.includes(': ', generated.indexOf(': ') + 2)) taken++;
      }),
      { numRuns: 2000, seed: 20261206 },
    );
    assert.ok(taken > runs / 10, `the fast path took ${taken} of ${runs} files`);
  });

  it('on generated files', () => {
    let taken = 0;
    let rewritten = 0;
    let runs = 0;
    fc.assert(
      fc.property(text, (generated) => {
        runs++;
        if (assertAgrees(generated)) {
          taken++;
          if (/^[a-zA-Z_]+: Use when: /m.test(generated)) rewritten++;
        }
      }),
      { numRuns: 3000, seed: 20261205 },
    );
    // The property says something only if the fast path takes a share of the files, rewritten ones included.
    assert.ok(taken > runs / 10, `the fast path took ${taken} of ${runs} files`);
    assert.ok(rewritten > runs / 100, `the fast path took ${rewritten} rewritten files of ${runs}`);
  });
});
