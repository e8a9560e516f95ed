import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { parseFrontmatter, parseFrontmatterWithYaml } from '../../../src/discovery/frontmatter/frontmatter.js';
import { readQuotedSimpleBlock, readSimpleBlock } from '../../../src/discovery/frontmatter/frontmatter-fast-path.js';
import {
  parseFrontmatterBlock,
  parseFrontmatterBlockWithYaml,
} from '../../../src/discovery/frontmatter/frontmatter-yaml.js';

type Outcome = { value: unknown } | { error: string };

function slowOutcome(block: string): Outcome {
  try {
    return { value: parseFrontmatterBlockWithYaml(block) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function outcome(block: string): Outcome {
  try {
    return { value: parseFrontmatterBlock(block) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Key order at every level (deepStrictEqual ignores it; `yaml` keeps the block's order). */
function keyOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value.map(keyOrder);
  return Object.entries(value).map(([key, item]) => [key, keyOrder(item)]);
}

/** The fast path either declines or gives exactly the value (types, -0, NaN, key order) the yaml path gives. */
function assertAgrees(block: string): boolean {
  const fast = readSimpleBlock(block);
  const slow = slowOutcome(block);
  if (fast !== undefined) {
    assert.ok('value' in slow, `fast path accepted a block the yaml path refuses: ${JSON.stringify(block)}`);
    assert.deepStrictEqual(fast, slow.value, JSON.stringify(block));
    assert.deepStrictEqual(keyOrder(fast), keyOrder(slow.value), JSON.stringify(block));
  }
  assert.deepStrictEqual(outcome(block), slow, JSON.stringify(block));
  return fast !== undefined;
}

describe('readSimpleBlock: exact values of tricky scalars (YAML 1.2 core schema)', () => {
  const cases: Array<[string, string, unknown, boolean]> = [
    // [what, value text after `k: `, value, taken by the fast path]
    ['on stays a string', 'on', 'on', true],
    ['yes stays a string', 'yes', 'yes', true],
    ['no stays a string', 'no', 'no', true],
    ['null', 'null', null, true],
    ['Null', 'Null', null, true],
    ['~', '~', null, true],
    ['true', 'true', true, true],
    ['False', 'False', false, true],
    ['tRUE is text', 'tRUE', 'tRUE', true],
    ['1e3', '1e3', 1000, true],
    ['0o17', '0o17', 15, true],
    ['0x1F', '0x1F', 31, true],
    ['017 is decimal', '017', 17, true],
    ['.5', '.5', 0.5, true],
    ['-0', '-0', -0, true],
    ['+12', '+12', 12, true],
    ['1.50', '1.50', 1.5, true],
    ['.inf', '.inf', Number.POSITIVE_INFINITY, true],
    ['-.Inf', '-.Inf', Number.NEGATIVE_INFINITY, true],
    ['.NaN', '.NaN', Number.NaN, true],
    ['1_000 is text', '1_000', '1_000', true],
    ['a version', '1.2.0', '1.2.0', true],
    ['a lone dash is a sequence entry', '-', undefined, false],
    ['a dash word', '--dry-run', '--dry-run', true],
    ['trailing spaces are dropped', 'a b   ', 'a b', true],
    ['a colon inside a word', 'https://example.com/x', 'https://example.com/x', true],
    ['": " in double quotes', '"Use when: asked"', 'Use when: asked', true],
    ['": " in single quotes', "'Use when: asked'", 'Use when: asked', true],
    ["'it''s'", "'it''s'", "it's", true],
    ['apostrophe inside a plain scalar', "don't", "don't", true],
    ['"\\u00e9"', '"\\u00e9"', 'é', true],
    ['"\\x41\\t"', '"\\x41\\t"', 'A\t', true],
    ['"\\U0001F600"', '"\\U0001F600"', '😀', true],
    ['an unknown escape', '"\\q"', undefined, false],
    ['quoted flow characters', '"<path> [--dry-run]"', '<path> [--dry-run]', true],
    ['empty double quotes', '""', '', true],
    ['empty single quotes', "''", '', true],
    ['empty value', '', null, true],
    ['a comment', 'a # b', undefined, false],
    ['an alias', '*x', undefined, false],
    ['a flow list', '[a, b]', undefined, false],
    ['a block scalar', '|', undefined, false],
    ['text after a closing quote', '"a" b', undefined, false],
    ['text after a closing single quote', "'a'b'", undefined, false],
    ['a value with ": "', 'Use when: asked', undefined, false],
    ['non-breaking space', 'a\u00a0b', undefined, false],
    ['a lone surrogate', 'a\ud800', undefined, false],
    ['em dash and emoji', 'a — b 😀', 'a — b 😀', true],
  ];
  for (const [what, text, expected, fast] of cases) {
    it(what, () => {
      const block = `k: ${text}`;
      assert.equal(readSimpleBlock(block) !== undefined, fast);
      assertAgrees(block);
      if (expected !== undefined)
        assert.deepStrictEqual(parseFrontmatter(`---\n${block}\n---\n`, 'musepi').frontmatter, { k: expected });
    });
  }

  it('key:value without a space is a scalar document: no keys', () => {
    assert.equal(readSimpleBlock('key:value'), undefined);
    assert.deepStrictEqual(parseFrontmatter('---\nkey:value\n---\n', 'musepi').frontmatter, {});
  });

  it('reads CRLF line ends as LF', () => {
    const text = '---\r\nname: a\r\ndescription: "b: c"\r\nmetadata:\r\n  version: 1\r\n---\r\nbody\r\n';
    assert.deepStrictEqual(parseFrontmatter(text, 'musepi').frontmatter, {
      name: 'a',
      description: 'b: c',
      metadata: { version: 1 },
    });
  });

  it('a BOM before the fence is dropped; inside a value it goes to the yaml path', () => {
    assert.deepStrictEqual(parseFrontmatter('\ufeff---\nname: a\n---\n', 'musepi').frontmatter, { name: 'a' });
    assert.equal(readSimpleBlock('name: a\ufeffb'), undefined);
    assertAgrees('name: a\ufeffb');
  });

  it('reads the shapes real skills have', () => {
    const block = [
      'name: pdf-tools',
      'description: "Extract text from PDFs. Use when: the user mentions PDFs"',
      'license: MIT',
      'allowed-tools:',
      '  - Read',
      '  - Bash',
      'disable-model-invocation: false',
      '',
      'metadata:',
      '  version: "1.2.0"',
      '  owner: platform-team',
    ].join('\n');
    const value = readSimpleBlock(block);
    assert.deepStrictEqual(value, {
      name: 'pdf-tools',
      description: 'Extract text from PDFs. Use when: the user mentions PDFs',
      license: 'MIT',
      'allowed-tools': ['Read', 'Bash'],
      'disable-model-invocation': false,
      metadata: { version: '1.2.0', owner: 'platform-team' },
    });
    assertAgrees(block);
    assert.deepStrictEqual(parseFrontmatter(`---\n${block}\n---\nbody`, 'musepi').frontmatter, {
      name: 'pdf-tools',
      description: 'Extract text from PDFs. Use when: the user mentions PDFs',
      license: 'MIT',
      allowedTools: ['Read', 'Bash'],
      disableModelInvocation: false,
      metadata: { version: '1.2.0', owner: 'platform-team' },
    });
  });

  it('reads a repeated key as the yaml path does: the last value, in the first place', () => {
    for (const [block, expected] of [
      ['a: 1\nb: 2\na: 3', { a: 3, b: 2 }],
      ['m:\n  a: 1\n  a: 2', { m: { a: 2 } }],
      ['description: first\nname: n\ndescription: second', { description: 'second', name: 'n' }],
    ] as const) {
      assert.deepStrictEqual(readSimpleBlock(block), expected);
      assert.deepStrictEqual(keyOrder(readSimpleBlock(block)), keyOrder(expected));
      assertAgrees(block);
    }
  });

  it('leaves typed keys, surrogate escapes and deeper nesting to the yaml path', () => {
    for (const block of [
      'k: "\\ud83d\\ude00"',
      'k: "\\ud800"',
      'k: "\\U0000D800"',
      'true: 1',
      'null: 1',
      'm:\n  a:\n    b: 1',
      'm:\n  a: 1\n   b: 2',
      'a: 1\n  b',
      'l:\n  - a\n - b',
      '  a: 1',
      'a: 1 # c',
      'l:\n  - - a',
      'l:\n  - a: 1',
    ]) {
      assert.equal(readSimpleBlock(block), undefined, JSON.stringify(block));
      assertAgrees(block);
    }
  });

  it('gives the same error as the yaml path for a block it declines', () => {
    assert.deepStrictEqual(outcome('k: "\\ud800 x"'), {
      error: 'AgentsYamlError: a double-quoted scalar escapes a lone surrogate',
    });
  });

  it('leaves a block over the flow-depth limit to the yaml path (quoted brackets count there)', () => {
    const block = `a: "${'['.repeat(1001)}"`;
    assert.equal(readSimpleBlock(block), undefined);
    assert.match(JSON.stringify(outcome(block)), /FrontmatterLimitError/);
    assert.deepStrictEqual(readSimpleBlock(`a: "${'['.repeat(1000)}"`), { a: '['.repeat(1000) });
  });
});

describe('parseFrontmatter: keys that rename to one name', () => {
  // The raw value keeps the last of each raw key in the first one's place, then renaming keeps the last renamed one:
  // `a-b: 1, aB: 2, a-b: 3` is `{ a-b: 3, aB: 2 }` raw, `{ aB: 2 }` renamed (docs/discovery.md §2 rule 5).
  const cases: Array<{ block: string; expected: Record<string, unknown> }> = [
    { block: 'a-b: 1\naB: 2\na-b: 3', expected: { aB: 2 } },
    { block: 'aB: 1\na-b: 2\naB: 3', expected: { aB: 2 } },
    { block: 'm:\n  x-y: 1\n  xY: 2\n  x-y: 3', expected: { m: { xY: 2 } } },
    {
      block: 'description: Use when: asked\nmy-key: 1\nmyKey: 2\nmy-key: 3',
      expected: { description: 'Use when: asked', myKey: 2 },
    },
    { block: 'a-b: 1\na-b: 2', expected: { aB: 2 } },
    { block: 'name: x\nname: y', expected: { name: 'y' } },
  ];
  for (const { block, expected } of cases) {
    it(JSON.stringify(block), () => {
      const file = `---\n${block}\n---\n`;
      const fast = parseFrontmatter(file, 'musepi');
      assert.deepStrictEqual(fast.frontmatter, expected);
      assert.deepStrictEqual(fast, parseFrontmatterWithYaml(file, 'musepi'));
      assert.deepStrictEqual(keyOrder(fast.frontmatter), keyOrder(expected));
    });
  }
});

describe('readSimpleBlock memory', () => {
  it('values do not keep the whole SKILL.md text alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    // 400 files of 50 KB: 20 MB if each frontmatter kept its file's text.
    const kept = Array.from({ length: 400 }, (_, i) => {
      const text = `---\nname: skill-${i}\ndescription: a description long enough to be a slice ${i}\n---\n${'x'.repeat(50_000)}${i}`;
      return parseFrontmatter(text, 'musepi').frontmatter;
    });
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(kept.length, 400);
    assert.ok(grown < 4_000_000, `heap grew by ${grown} bytes`);
  });
});

describe('readSimpleBlock agrees with the yaml path (property)', () => {
  // A small alphabet, so that generated blocks often repeat a key.
  const word = fc.stringMatching(/^[a-cA_][a-c1_-]{0,2}$/);
  const key = fc.oneof(
    { weight: 3, arbitrary: word },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'name',
        'description',
        'allowed-tools',
        'allowedTools',
        'a-b',
        'aB',
        'metadata',
        'true',
        'Null',
        'on',
        'constructor',
        '__proto__',
        'toString',
        'a',
        '1a',
        'my key',
        'k:',
        '-a',
        '"q"',
        '<<',
        '!!str k',
        '[k]',
      ),
    },
  );
  // Mostly characters a plain or quoted scalar may hold, some that change its reading, a few it must not hold.
  const cleanPiece = fc.constantFrom(
    ...['a', 'B', 'word', ' ', '  ', '0', '1', '17', '.', '-', '+', 'e', 'x', 'o', ':', ',', '?', "'", '"', '~'],
    ...['null', 'true', 'False', 'inf', 'nan', '.inf', '.NaN', '0x1F', '0o17', '1e3', '...', '---', 'é', '—', '😀'],
  );
  const indicatorPiece = fc.constantFrom(
    '!!int ',
    '!!bool ',
    '!foo ',
    '[x]',
    '{y}',
    ': ',
    ' #',
    '#',
    '\\',
    '[',
    ']',
    '{',
    '}',
    '!',
    '&',
    '*',
    '|',
    '>',
    '%',
    '@',
    '`',
  );
  const badPiece = fc.constantFrom('\u00a0', '\u2028', '\u0085', '\ufeff', '\ud800', '\u0000', '\u007f', '\t', '\r');
  const piece = fc.oneof(
    { weight: 12, arbitrary: cleanPiece },
    { weight: 3, arbitrary: indicatorPiece },
    { weight: 1, arbitrary: badPiece },
  );
  const escapeSequence = fc.oneof(
    fc.constantFrom(...'0abefnrtvN_LP "/\\q\t'.split('').map((c) => `\\${c}`)),
    fc.constantFrom('\\u00e9', '\\x41', '\\xZ1', '\\U0001F600', '\\U00110000', '\\ud83d\\ude00', '\\u12', '\\'),
    // Surrogate escapes: a pair, lone halves, an 8-digit one (rule 4b: all but the pair are errors).
    fc.constantFrom('\\ud800', '\\udc00', '\\U0000D800', '\\ud83d', '\\ud83d x\\ude00'),
  );
  const raw = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
  const scalar = fc.oneof(
    { weight: 4, arbitrary: raw },
    { weight: 2, arbitrary: raw.map((text) => `'${text.replaceAll("'", "''")}'`) },
    { weight: 2, arbitrary: raw.map((text) => `'${text}'`) },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.oneof(piece, escapeSequence), { maxLength: 6 })
        .map((parts) => `"${parts.join('').replaceAll('"', '\\"')}"`),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(piece, escapeSequence), { maxLength: 6 }).map((parts) => `"${parts.join('')}"`),
    },
  );
  const gap = fc.constantFrom(' ', ' ', ' ', '  ', '', '\t');
  const indent = fc.constantFrom('  ', '  ', '    ', ' ', '');
  const blank = fc.constantFrom('', '  ');
  const entry = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(key, gap, scalar).map(([k, g, v]) => [`${k}:${g}${v}`]) },
    { weight: 1, arbitrary: key.map((k) => [`${k}:`]) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, indent, fc.array(fc.tuple(gap, scalar), { minLength: 1, maxLength: 3 }))
        .map(([k, i, items]) => [`${k}:`, ...items.map(([g, v]) => `${i}-${g}${v}`)]),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, indent, fc.array(fc.tuple(key, fc.option(fc.tuple(gap, scalar))), { minLength: 1, maxLength: 3 }))
        .map(([k, i, items]) => [`${k}:`, ...items.map(([sub, v]) => `${i}${sub}:${v === null ? '' : v.join('')}`)]),
    },
    { weight: 1, arbitrary: blank.map((b) => [b]) },
    // Document markers and merge keys (rule 4b): several documents, `<<` with a map, an alias or a scalar.
    {
      weight: 1,
      arbitrary: fc.constantFrom(['...'], ['... # end'], ['<<: {a: 1}'], ['b: &m {x: 1}', '<<: *m'], ['<<: s']),
    },
  );
  const block = fc.array(entry, { maxLength: 6 }).map((entries) => entries.flat().join('\n'));
  /** Near-misses: a line of the block indented, duplicated or cut. */
  const mutated = fc
    .tuple(block, fc.nat(), fc.constantFrom('indent', 'dedent', 'duplicate', 'cut', 'comment'))
    .map(([text, at, how]) => {
      const lines = text.split('\n');
      const i = at % Math.max(lines.length, 1);
      const line = lines[i] ?? '';
      if (how === 'indent') lines[i] = ` ${line}`;
      else if (how === 'dedent') lines[i] = line.slice(1);
      else if (how === 'duplicate') lines.splice(i, 0, line);
      else if (how === 'cut') lines[i] = line.slice(0, Math.floor(line.length / 2));
      else lines.splice(i, 0, '# note');
      return lines.join('\n');
    });

  it('on generated blocks: same value, same key order, same error', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.oneof(block, mutated), (text) => {
        runs++;
        if (assertAgrees(text)) accepted++;
      }),
      { numRuns: 3000, seed: 20261130 },
    );
    // The property says something only if the fast path takes a good share of the blocks.
    assert.ok(accepted > runs / 10, `fast path took ${accepted} of ${runs} blocks`);
  });

  it('parseFrontmatter (both fast paths) gives the slow path’s value and notes, for every profile', () => {
    fc.assert(
      fc.property(
        fc.oneof(block, mutated),
        fc.constantFrom('musepi', 'xcsh') as fc.Arbitrary<'musepi' | 'xcsh'>,
        (text, profile) => {
          const file = `---\n${text}\n---\nbody`;
          const fastNotes: string[] = [];
          const slowNotes: string[] = [];
          const fast = parseFrontmatter(file, profile, fastNotes);
          assert.deepStrictEqual(fast, parseFrontmatterWithYaml(file, profile, slowNotes), JSON.stringify(file));
          assert.deepStrictEqual(
            keyOrder(fast.frontmatter),
            keyOrder(parseFrontmatterWithYaml(file, profile).frontmatter),
          );
          assert.deepStrictEqual(fastNotes, slowNotes, JSON.stringify(file));
        },
      ),
      { numRuns: 3000, seed: 20261201 },
    );
  });

  it('on real-looking blocks with `: ` in map values: the quoted shortcut takes them, to the slow path’s result', () => {
    const plainWord = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    const text = fc
      .array(fc.oneof(plainWord, fc.constantFrom('"x"', "it's", '(or', 'forms)', 'é', '—', '😀', 'a:b', '-', '?')), {
        minLength: 1,
        maxLength: 6,
      })
      .map((words) => words.join(' '));
    const colonValue = fc.tuple(text, text).map(([a, b]) => `${a}: ${b}`);
    const value = fc.oneof(
      text,
      colonValue,
      colonValue.map((v) => `"${v}"`),
      fc.integer().map(String),
    );
    const realistic = fc
      .tuple(
        fc.uniqueArray(
          plainWord.filter((k) => !['true', 'false', 'null'].includes(k)),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(value, { minLength: 5, maxLength: 5 }),
        fc.array(colonValue, { maxLength: 2 }),
        fc.array(text, { maxLength: 2 }),
        fc.constantFrom('', '  ', ' '),
      )
      .map(([keys, values, nested, items, trailing]) => {
        const lines = keys.map((k, i) => `${k}: ${values[i]}${trailing}`);
        lines.push(`description: Use when: ${values[0]}`);
        if (nested.length > 0) lines.push('metadata:', ...nested.map((v, i) => `  k${i}: ${v}`));
        if (items.length > 0) lines.push('allowed-tools:', ...items.map((t) => `  - ${t}`));
        return lines.join('\n');
      });
    let taken = 0;
    fc.assert(
      fc.property(realistic, (block) => {
        const file = `---\n${block}\n---\n`;
        const notes: string[] = [];
        const slowNotes: string[] = [];
        assert.deepStrictEqual(
          parseFrontmatter(file, 'musepi', notes),
          parseFrontmatterWithYaml(file, 'musepi', slowNotes),
          JSON.stringify(block),
        );
        assert.deepStrictEqual(notes, slowNotes, JSON.stringify(block));
        if (readQuotedSimpleBlock(block) !== undefined) taken++;
      }),
      { numRuns: 500, seed: 20261201 },
    );
    assert.ok(taken > 200, `the quoted shortcut took ${taken} of 500 blocks`);
  });

  it('values holding ": " with indicators, quotes, comments, tabs, colons at the end, continuations: fast = slow', () => {
    // Every piece that could change how YAML reads (or fails on) a value, around a `: `.
    const word = fc.constantFrom('Use', 'when', 'the user asks', 'PDFs', 'a', 'é', '😀', ' ', 'x y');
    const odd = fc.constantFrom(
      ...[' ', ': ', ':', 'a:b', 'end:', '#', ' #', ' # note', '`npm test`', '`', '[x]', '[', ']'],
      ...['{y}', '{', '}', '&a', ' &a', '*a', ' *a', '!t', ' !t', '!!str', '|', '>', '%', '@', '\\', '\\n', '"', "'"],
      ...['?', ' ? ', ',', ' - ', '-', '...', '---', '~', 'null', '1', 'é', '😀', '\t', '\u00a0', '\u2028', '\ud800'],
    );
    const piece = fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: odd });
    const value = fc
      .tuple(word, fc.array(piece, { maxLength: 4 }), fc.array(piece, { maxLength: 4 }))
      .map(([lead, before, after]) => `${lead}${before.join('')}: ${after.join('')}`);
    const line = fc.oneof(
      { weight: 8, arbitrary: value.map((v) => `description: ${v}`) },
      { weight: 4, arbitrary: fc.constantFrom('name: pdf', 'license: MIT', 'version: 2', 'empty:', 'quoted: "a: b"') },
      { weight: 1, arbitrary: value.map((v) => `metadata:\n  note: ${v}\n  owner: me`) },
      { weight: 1, arbitrary: value.map((v) => `allowed-tools:\n  - ${v}`) },
      // A continuation line, a comment line, a trailing space or TAB after the value.
      { weight: 1, arbitrary: value.map((v) => `description: ${v}\n  continued here`) },
      { weight: 1, arbitrary: fc.constantFrom('# a comment', '  ', '') },
      { weight: 1, arbitrary: value.map((v) => `description: ${v} `) },
      { weight: 1, arbitrary: value.map((v) => `description:\t${v}`) },
    );
    const block = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
    let taken = 0;
    let withIndicators = 0;
    fc.assert(
      fc.property(block, fc.constantFrom('musepi', 'xcsh') as fc.Arbitrary<'musepi' | 'xcsh'>, (text, profile) => {
        const file = `---\n${text}\n---\nbody`;
        const notes: string[] = [];
        const slowNotes: string[] = [];
        const fast = parseFrontmatter(file, profile, notes);
        const slow = parseFrontmatterWithYaml(file, profile, slowNotes);
        assert.deepStrictEqual(fast, slow, JSON.stringify(text));
        assert.deepStrictEqual(keyOrder(fast.frontmatter), keyOrder(slow.frontmatter), JSON.stringify(text));
        assert.deepStrictEqual(notes, slowNotes, JSON.stringify(text));
        if (readQuotedSimpleBlock(text) !== undefined) {
          taken++;
          if (/[#`[\]{}|>&*!%@\\]/.test(text)) withIndicators++;
        }
      }),
      { numRuns: 2000, seed: 20261202 },
    );
    // The property says something only if the shortcut takes a share of the blocks, indicators included.
    assert.ok(taken > 150, `the quoted shortcut took ${taken} of 2000 blocks`);
    assert.ok(withIndicators > 50, `the quoted shortcut took ${withIndicators} blocks with indicators`);
  });

  it('a value holding ": " with backticks, `#` or brackets after it is taken; a quote opening after ": " is not', () => {
    const notes = (block: string): { fast: string[]; slow: string[] } => {
      const fast: string[] = [];
      const slow: string[] = [];
      const file = `---\n${block}\n---\n`;
      assert.deepStrictEqual(parseFrontmatter(file, 'musepi', fast), parseFrontmatterWithYaml(file, 'musepi', slow));
      return { fast, slow };
    };
    const taken = 'name: t\ndescription: Use when: the user runs `npm test` # or [x] {y} | a > b & c * d! 100%:';
    assert.deepStrictEqual(readQuotedSimpleBlock(taken), {
      value: { name: 't', description: 'Use when: the user runs `npm test` # or [x] {y} | a > b & c * d! 100%:' },
      line: 2,
    });
    const quoted = notes(taken);
    assert.deepStrictEqual(quoted.fast, quoted.slow);
    // YAML's first error here is the unclosed quote, not the nested mapping: the note must say so.
    const unclosed = "description: Use when: 'it";
    assert.equal(readQuotedSimpleBlock(unclosed), undefined);
    assert.deepStrictEqual(notes(unclosed).fast, [
      'frontmatter is not valid YAML (a quoted scalar is not closed); read again with values containing ": " quoted',
    ]);
    // ` #` before the first ": " starts a comment: the block is valid YAML and the value stops there.
    assert.equal(readQuotedSimpleBlock('description: Use this # note: x'), undefined);
    assert.deepStrictEqual(parseFrontmatter('---\ndescription: Use this # note: x\n---\n', 'musepi').frontmatter, {
      description: 'Use this',
    });
  });

  it('takes `description: Use when: …` blocks on the quoted shortcut, to the slow path’s value and note', () => {
    const text =
      '---\nname: pdf\ndescription: Extract text. Use when: the user asks about "PDFs" (or forms)\n' +
      'allowed-tools:\n  - Read\nmetadata:\n  note: a: b\n  owner: me\n---\nbody';
    const block = text.slice(4, text.indexOf('\n---', 3));
    assert.deepStrictEqual(readQuotedSimpleBlock(block), {
      value: {
        name: 'pdf',
        description: 'Extract text. Use when: the user asks about "PDFs" (or forms)',
        'allowed-tools': ['Read'],
        metadata: { note: 'a: b', owner: 'me' },
      },
      line: 2,
    });
    const notes: string[] = [];
    const slowNotes: string[] = [];
    assert.deepStrictEqual(
      parseFrontmatter(text, 'musepi', notes),
      parseFrontmatterWithYaml(text, 'musepi', slowNotes),
    );
    assert.deepStrictEqual(notes, slowNotes);
    assert.deepStrictEqual(notes, [
      'frontmatter is not valid YAML (line 2 of the block: Nested mappings are not allowed in compact mappings); ' +
        'read again with values containing ": " quoted',
    ]);
    // Not in a sequence (`- a: b` is a valid compact mapping), not with a TAB, not for xcsh (no quoting pass).
    assert.equal(readQuotedSimpleBlock('l:\n  - a: b'), undefined);
    assert.equal(readQuotedSimpleBlock('name: x'), undefined);
  });

  it('on blocks of the shapes real skills have, which it always takes', () => {
    const plainWord = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    const sentence = fc.array(plainWord, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
    const value = fc.oneof(
      sentence,
      sentence.map((s) => `"${s}: ${s}"`),
      fc.integer().map(String),
      fc.boolean().map(String),
    );
    const realistic = fc
      .tuple(
        fc.uniqueArray(
          plainWord.filter((k) => !['true', 'false', 'null'].includes(k)),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(value, { minLength: 6, maxLength: 6 }),
        fc.array(sentence, { maxLength: 3 }),
      )
      .map(([keys, values, tools]) => {
        const lines = keys.map((k, i) => `${k}: ${values[i]}`);
        if (tools.length > 0) lines.push('allowed-tools:', ...tools.map((t) => `  - ${t}`));
        return lines.join('\n');
      });
    fc.assert(
      fc.property(realistic, (text) => {
        assert.ok(assertAgrees(text), JSON.stringify(text));
      }),
      { numRuns: 300, seed: 20261130 },
    );
  });
});
