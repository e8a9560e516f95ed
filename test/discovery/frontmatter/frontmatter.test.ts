import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import matter from 'gray-matter';
import {
  MAX_YAML_BLOCK_CHARACTERS,
  type ParsedFrontmatter,
  parseFrontmatter,
} from '../../../src/discovery/frontmatter/frontmatter.js';
import type { Profile } from '../../../src/discovery/types.js';
import { makeTempDir } from '../../helpers/temp-tree.js';

interface Case {
  label: string;
  text: string;
  profile?: Profile;
  /** Whether the reading is every dialect's is asserted in skill-file-cache-dialect.test.ts. */
  expected: Omit<ParsedFrontmatter, 'anyDialect'>;
}

function withoutDialect({ anyDialect: _, ...read }: ParsedFrontmatter): Omit<ParsedFrontmatter, 'anyDialect'> {
  return read;
}

function none(text: string): Omit<ParsedFrontmatter, 'anyDialect'> {
  return { frontmatter: {}, body: text.trim(), hasFrontmatter: false };
}

function block(frontmatter: Record<string, unknown>, body = ''): Omit<ParsedFrontmatter, 'anyDialect'> {
  return { frontmatter, body, hasFrontmatter: true };
}

const BROKEN =
  "---\nname: x\ncount: 3\nflag: true\ntags: [a, b]\nempty:\nquoted: 'q'\nmap: {a: 1}\n" +
  'allowed-tools: Read Grep\ndescription: "a": b\n  stray: indented\n---\nB';

const REPAIRABLE = '---\ndescription: Use when: the user asks\nhide: true\ntags: [a, b]\nmeta:\n  note: a: b\n---\nB';

const cases: Case[] = [
  {
    label: 'a plain block and body (worked example SK)',
    text: '---\nname: pdf\ndescription: PDF tools\n---\n\n# Body\n',
    expected: block({ name: 'pdf', description: 'PDF tools' }, '# Body'),
  },
  {
    label: 'CRLF line breaks',
    text: '---\r\nname: a\r\ndescription: b\r\n---\r\n\r\nBody\r\nline 2\r\n',
    expected: block({ name: 'a', description: 'b' }, 'Body\nline 2'),
  },
  {
    label: 'lone CR line breaks',
    text: '---\rname: a\r---\rBody\rline 2',
    expected: block({ name: 'a' }, 'Body\nline 2'),
  },
  {
    label: 'a leading BOM is dropped before looking for the fence',
    text: '\uFEFF---\nname: a\n---\nBody',
    expected: block({ name: 'a' }, 'Body'),
  },
  {
    label: 'only one leading BOM is dropped',
    text: '\uFEFF\uFEFF---\nname: a\n---\nBody',
    expected: none('\uFEFF---\nname: a\n---\nBody'),
  },
  { label: 'a blank line before the fence', text: '\n---\nname: a\n---\nB', expected: none('---\nname: a\n---\nB') },
  { label: 'a space before the fence', text: ' ---\nname: a\n---\nB', expected: none('---\nname: a\n---\nB') },
  { label: 'no closing fence', text: '---\nname: a\nBody', expected: none('---\nname: a\nBody') },
  { label: 'only an opening fence', text: '---', expected: none('---') },
  { label: 'no fence at all', text: '  # Title\n\ntext  \n', expected: none('# Title\n\ntext') },
  { label: 'an empty block', text: '---\n---\nBody', expected: block({}, 'Body') },
  { label: 'a block of comments only', text: '---\n# c\n\n---\nBody', expected: block({}, 'Body') },
  {
    label: 'the block ends at the first \\n--- (the rest of that line starts the body)',
    text: '---\ndescription: a\n---not-the-end\n---\nB',
    expected: block({ description: 'a' }, 'not-the-end\n---\nB'),
  },
  {
    label: 'HTML comments removed inside the block and the body',
    text: '---\nname: a\n<!-- description: hidden -->\ndescription: shown\n---\nB <!-- x\ny -->C',
    expected: block({ name: 'a', description: 'shown' }, 'B C'),
  },
  {
    label: 'an HTML comment before the fence is removed first',
    text: '<!-- licence\nheader -->---\nname: a\n---\nB',
    expected: block({ name: 'a' }, 'B'),
  },
  {
    label: 'an unclosed HTML comment is kept',
    text: '---\nname: a\n---\nB <!-- open',
    expected: block({ name: 'a' }, 'B <!-- open'),
  },
  {
    label: 'TABs in the block become two spaces',
    text: '---\nname: a\nmeta:\n\tkey: v\n\tother:\tw\n---\n',
    expected: block({ name: 'a', meta: { key: 'v', other: 'w' } }),
  },
  { label: 'a YAML null is {}', text: '---\n~\n---\nB', expected: block({}, 'B') },
  { label: 'a YAML scalar is {}', text: '---\njust text\n---\nB', expected: block({}, 'B') },
  { label: 'a YAML list is {}', text: '---\n- a\n- b\n---\nB', expected: block({}, 'B') },
  {
    label: 'YAML 1.2 core: yes/no/on/off are strings',
    text: '---\na: yes\nb: no\nc: on\nd: off\ne: true\nf: 12\ng: null\nh: 0x1F\ni: 1.5\n---',
    expected: block({ a: 'yes', b: 'no', c: 'on', d: 'off', e: true, f: 12, g: null, h: 31, i: 1.5 }),
  },
  {
    label: 'keys normalised recursively (-x becomes X only for a lower-case letter)',
    text:
      '---\nallowed-tools: [x]\ndisable-model-invocation: true\nmeta-data:\n  inner-key:\n    deep-er-key: 1\n' +
      '  list-of:\n    - item-key: v\nX-Upper: 1\nsnake_case: 2\ntrailing-: 3\n---',
    expected: block({
      allowedTools: ['x'],
      disableModelInvocation: true,
      metaData: { innerKey: { deepErKey: 1 }, listOf: [{ itemKey: 'v' }] },
      'X-Upper': 1,
      snake_case: 2,
      'trailing-': 3,
    }),
  },
  {
    label: 'repair pass: values containing ": " are quoted (nested lines too)',
    text: REPAIRABLE,
    expected: block(
      { description: 'Use when: the user asks', hide: true, tags: ['a', 'b'], meta: { note: 'a: b' } },
      'B',
    ),
  },
  {
    label: 'xcsh: no repair pass, the line fallback keeps raw text',
    text: REPAIRABLE,
    profile: 'xcsh',
    expected: block({ description: 'Use when: the user asks', hide: 'true', tags: '[a, b]', meta: '' }, 'B'),
  },
  {
    label: 'line fallback: scalars and lists kept, maps and nulls as raw text, indented lines ignored',
    text: BROKEN,
    expected: block(
      {
        name: 'x',
        count: 3,
        flag: true,
        tags: ['a', 'b'],
        empty: '',
        quoted: 'q',
        map: '{a: 1}',
        allowedTools: 'Read Grep',
        description: '"a": b',
      },
      'B',
    ),
  },
  {
    label: 'xcsh line fallback: raw text only',
    text: BROKEN,
    profile: 'xcsh',
    expected: block(
      {
        name: 'x',
        count: '3',
        flag: 'true',
        tags: '[a, b]',
        empty: '',
        quoted: "'q'",
        map: '{a: 1}',
        allowedTools: 'Read Grep',
        description: '"a": b',
      },
      'B',
    ),
  },
  {
    label: 'duplicate keys are legal: the last one wins',
    text: '---\nname: a\nname: b\n---',
    expected: block({ name: 'b' }),
  },
  {
    label: 'a nested duplicate key is legal: the last one wins',
    text: '---\nmeta:\n  k: 1\n  k: 2\nname: x\n---',
    expected: block({ meta: { k: 2 }, name: 'x' }),
  },
  {
    label: '---yaml: the block starts at offset 4 (`aml` then a key: a YAML error, read line by line)',
    text: '---yaml\nname: a\n---\nB',
    expected: block({ name: 'a' }, 'B'),
  },
  { label: '--- with trailing spaces is YAML', text: '---  \nname: a\n---\nB', expected: block({ name: 'a' }, 'B') },
  {
    label: 'a four-dash fence: the rest of the fence line belongs to the block',
    text: '----\nname: four-dash\ndescription: d\n---\nB',
    expected: block({ name: 'four-dash', description: 'd' }, 'B'),
  },
  {
    label: 'text after the fence on its line: the block starts at offset 4',
    text: '---name: x\ndescription: d\n---\nB',
    expected: block({ ame: 'x', description: 'd' }, 'B'),
  },
  {
    label: 'a block starting with --- (a seven-dash fence) is read as YAML, not cut again',
    text: '-------\nname: a\n---\nB',
    expected: block({ name: 'a' }, 'B'),
  },
  {
    label: '---json: never run as JSON; its block read as YAML yields no keys',
    text: '---json\n{"name": "a"}\n---\nB',
    expected: block({}, 'B'),
  },
];

describe('parseFrontmatter (docs/discovery.md §2)', () => {
  for (const { label, text, profile = 'musepi', expected } of cases) {
    it(label, () => {
      assert.deepEqual(withoutDialect(parseFrontmatter(text, profile)), expected);
    });
  }

  it('gives the same result for omp as for musepi', () => {
    for (const { text, profile } of cases) {
      if (profile === undefined) assert.deepEqual(parseFrontmatter(text, 'omp'), parseFrontmatter(text, 'musepi'));
    }
  });

  it('returns frozen frontmatter objects', () => {
    const { frontmatter } = parseFrontmatter('---\nmeta:\n  list: [1]\n---', 'musepi');
    const meta = frontmatter.meta as { list: number[] };
    assert.equal(Object.isFrozen(frontmatter), true);
    assert.equal(Object.isFrozen(meta), true);
    assert.equal(Object.isFrozen(meta.list), true);
  });

  it('keeps a __proto__ key as a plain own property (no prototype change)', () => {
    for (const profile of ['musepi', 'xcsh'] as const) {
      for (const text of [
        '---\n__proto__: {polluted: 1}\nname: a\n---',
        '---\n__proto__: [1]\nname: a\nbad: a: b\n---',
      ]) {
        const { frontmatter } = parseFrontmatter(text, profile);
        assert.equal(Object.getPrototypeOf(frontmatter), Object.prototype);
        assert.equal(Object.hasOwn(frontmatter, '__proto__'), true);
        assert.equal(frontmatter.name, 'a');
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      }
    }
  });
});

describe('parseFrontmatter never executes a fence language (docs/discovery.md §2 rule 6)', () => {
  const engines = ['js', 'javascript', 'coffee', 'coffeescript', 'constructor', 'JS', 'yaml2'];

  // A payload that, if evaluated, sets a global and writes a file.
  function payload(global: string, file: string): string {
    return `{ name: (globalThis[${JSON.stringify(global)}] = 'ran', require('fs').writeFileSync(${JSON.stringify(file)}, 'ran'), 'pwned') }`;
  }

  it('the payload is live: gray-matter with its default engines runs it', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    const global = '__skillsdControlRan';
    const file = join(dir, 'control');
    const text = `---js\n${payload(global, file)}\n---\nBody`;
    const result = matter(text, {});
    assert.deepEqual(result.data, { name: 'pwned' });
    assert.equal((globalThis as Record<string, unknown>)[global], 'ran');
    assert.equal(existsSync(file), true);
    delete (globalThis as Record<string, unknown>)[global];
  });

  for (const engine of engines) {
    it(`---${engine}: never run; the block yields no keys`, async (t) => {
      const { dir, cleanup } = await makeTempDir();
      t.after(cleanup);
      const global = `__skillsdRan_${engine}`;
      const file = join(dir, 'ran');
      const text = `---${engine}\n${payload(global, file)}\n---\nBody`;
      for (const profile of ['musepi', 'xcsh'] as const) {
        assert.deepEqual(withoutDialect(parseFrontmatter(text, profile)), block({}, 'Body'));
      }
      assert.equal((globalThis as Record<string, unknown>)[global], undefined);
      assert.equal(existsSync(file), false);
    });
  }

  it('never fills gray-matter’s string cache', () => {
    for (let i = 0; i < 50; i++) parseFrontmatter(`---\nname: n${i}\n---\nbody ${i}`, 'musepi');
    // `cache` exists at runtime (gray-matter 4.0.3 index.js) but not in its type declarations.
    assert.deepEqual(Object.keys((matter as unknown as { cache: object }).cache), []);
  });
});

describe('parseFrontmatter bounds hostile input', () => {
  it('does not expand a YAML alias bomb', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const { frontmatter } = parseFrontmatter(`---\n${lines.join('\n')}\n---\n`, 'musepi');
    // The alias limit rejects the block; the line fallback reads `a` and keeps the alias lines as text.
    assert.deepEqual(frontmatter.a, Array(9).fill('lol'));
    assert.equal(frontmatter.b, `&b [${Array(9).fill('*a').join(',')}]`);
    assert.equal(frontmatter.i, `&i [${Array(9).fill('*h').join(',')}]`);
    assert.ok(JSON.stringify(frontmatter).length < 1000);
  });

  it('does not expand allowed aliases beyond a few times the source size', () => {
    const items = Array(1000).fill('xxxxxxxxxx').join(',');
    const text = `---\nname: big\na: &a [${items}]\nb: [${Array(99).fill('*a').join(',')}]\n---\n`;
    const { frontmatter } = parseFrontmatter(text, 'musepi');
    assert.equal(frontmatter.name, 'big');
    assert.equal((frontmatter.a as string[]).length, 1000);
    assert.equal(frontmatter.b, `[${Array(99).fill('*a').join(',')}]`);
    assert.ok(JSON.stringify(frontmatter).length < 4 * text.length);
  });

  it('accepts a few aliases', () => {
    const text = '---\nbase: &b {x: 1}\none: *b\ntwo: *b\n---';
    assert.deepEqual(parseFrontmatter(text, 'musepi').frontmatter, { base: { x: 1 }, one: { x: 1 }, two: { x: 1 } });
  });

  it('reads a self-referencing anchor as text', () => {
    assert.deepEqual(parseFrontmatter('---\na: &a [*a]\n---', 'musepi').frontmatter, { a: '&a [*a]' });
  });

  it('reads very deep flow nesting as text', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const { frontmatter } = parseFrontmatter(`---\nname: x\nd: ${deep}\n---\n`, 'musepi');
    assert.deepEqual(frontmatter, { name: 'x', d: deep });
  });

  it('survives 200,000 blank lines in the block (gray-matter’s comment regex is quadratic there)', () => {
    const text = `---\nname: x\n${'\n'.repeat(200_000)}description: d\n---\nB`;
    assert.deepEqual(withoutDialect(parseFrontmatter(text, 'musepi')), block({ name: 'x', description: 'd' }, 'B'));
  });

  it('checks duplicate keys among 5,000 keys without comparing every pair', () => {
    // 5,000 lines stay under the block size parsed as YAML (MAX_YAML_BLOCK_CHARACTERS).
    const lines = Array.from({ length: 5_000 }, (_, i) => `k${i}: ${i}`);
    const unique = parseFrontmatter(`---\n${lines.join('\n')}\n---`, 'musepi').frontmatter;
    assert.equal(Object.keys(unique).length, 5_000);
    assert.equal(unique.k4999, 4_999);
    const duplicated = parseFrontmatter(`---\n${lines.join('\n')}\nk0: last\n---`, 'musepi').frontmatter;
    assert.equal(duplicated.k0, 'last');
  });

  it('reads a block over the YAML size limit line by line: 20,000 keys, the first 1,000 values re-read', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`);
    assert.ok(lines.join('\n').length > MAX_YAML_BLOCK_CHARACTERS);
    const { frontmatter } = parseFrontmatter(`---\nk: [1]\n${lines.join('\n')}\n---`, 'musepi');
    assert.equal(Object.keys(frontmatter).length, 20_001);
    assert.deepEqual(frontmatter.k, [1]);
    assert.equal(frontmatter.k998, 998);
    assert.equal(frontmatter.k999, '999');
    assert.equal(frontmatter.k19999, '19999');
  });

  it('the line fallback re-reads the first 1,000 values as YAML and keeps the rest as text', () => {
    const lines = Array.from({ length: 1_001 }, (_, i) => `k${i}: ${i}`);
    const { frontmatter } = parseFrontmatter(`---\n${lines.join('\n')}\nbroken: "a": b\n---`, 'musepi');
    assert.equal(frontmatter.k0, 0);
    assert.equal(frontmatter.k999, 999);
    assert.equal(frontmatter.k1000, '1000');
    assert.equal(frontmatter.broken, '"a": b');
  });

  it('removes 250,000 unclosed comment openers in linear time', () => {
    const text = '<!--'.repeat(250_000);
    assert.deepEqual(withoutDialect(parseFrontmatter(text, 'musepi')), none(text));
  });
});

describe('parseFrontmatter properties', () => {
  // Text made of the pieces that matter to §2, so that fences, breaks, comments and YAML syntax meet often.
  const piece = fc.constantFrom(
    '---',
    '\n',
    '\r\n',
    '\r',
    '\t',
    ' ',
    ': ',
    'name',
    'description',
    'a-b',
    '<!--',
    '-->',
    '"',
    "'",
    '[',
    ']',
    '{',
    '}',
    '&a',
    '*a',
    '#',
    '|',
    '- ',
    'yes',
    '1',
    'js',
    '\uFEFF',
  );
  const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 4 })), { maxLength: 40 }).map((parts) => parts.join(''));
  const profile = fc.constantFrom<Profile>('musepi', 'omp', 'xcsh');

  it('never throws and always gives a frozen plain object and a trimmed body', () => {
    fc.assert(
      fc.property(text, profile, (input, chosen) => {
        const result = parseFrontmatter(input, chosen);
        assert.equal(Object.getPrototypeOf(result.frontmatter), Object.prototype);
        assert.equal(Object.isFrozen(result.frontmatter), true);
        assert.equal(result.body, result.body.trim());
        if (!result.hasFrontmatter) assert.deepEqual(result.frontmatter, {});
      }),
      { numRuns: 400, seed: 20261202 },
    );
  });

  it('reads CRLF, lone CR and LF text alike', () => {
    fc.assert(
      fc.property(text, profile, (input, chosen) => {
        const lf = input.replace(/\r\n?/g, '\n');
        const expected = parseFrontmatter(lf, chosen);
        assert.deepEqual(parseFrontmatter(lf.replace(/\n/g, '\r\n'), chosen), expected);
        assert.deepEqual(parseFrontmatter(lf.replace(/\n/g, '\r'), chosen), expected);
      }),
      { numRuns: 200, seed: 20261203 },
    );
  });

  it('gives omp the same result as musepi', () => {
    fc.assert(
      fc.property(text, (input) => {
        assert.deepEqual(parseFrontmatter(input, 'omp'), parseFrontmatter(input, 'musepi'));
      }),
      { numRuns: 200, seed: 20261204 },
    );
  });
});

/**
 * The agents' reading where a plain YAML 1.2 reader differs (docs/discovery.md §2 rules 2, 3, 4 and 4b): one row per shape,
 * each expected value as the agents give it.
 */
describe('parseFrontmatter: the agents’ reading, shape by shape', () => {
  const rows: Array<{ label: string; text: string; musepi: Record<string, unknown>; xcsh?: Record<string, unknown> }> =
    [
      {
        label: 'a TAB inside a value the quoting pass produces survives',
        text: '---\nname: tab-value\ndescription: x\tof: y\n---\n',
        musepi: { name: 'tab-value', description: 'x\tof: y' },
      },
      {
        label: 'two YAML documents in one block: no keys',
        text: '---\nname: e-name\ndescription: d\n...\nhide: true\n---\n',
        musepi: {},
      },
      {
        label: 'a `...` followed only by a comment is still one document',
        text: '---\nname: one-doc\n... # end\n---\n',
        musepi: { name: 'one-doc' },
      },
      {
        label: 'duplicate keys: the last wins (a block scalar after a plain value)',
        text: '---\nname: dup\ndescription: first\ndescription: |\n  second\n---\n',
        musepi: { name: 'dup', description: 'second\n' },
      },
      {
        label: 'merge key with a flow map',
        text: '---\n<<: {description: merged, hide: true}\nname: merge-map\n---\n',
        musepi: { description: 'merged', hide: true, name: 'merge-map' },
      },
      {
        label: 'merge key with an alias',
        text: '---\nbase: &b {description: aliased}\n<<: *b\n---\n',
        musepi: { base: { description: 'aliased' }, description: 'aliased' },
      },
      {
        label: 'merge key with a list of maps: the first wins, explicit keys win over all',
        text: '---\n<<: [{a: 1, b: 1}, {b: 2, c: 2}, x]\nc: own\n---\n',
        musepi: { a: 1, b: 1, c: 'own' },
      },
      {
        label: 'an explicit key written before the merge key wins',
        text: '---\ndescription: own\n<<: {description: merged}\n---\n',
        musepi: { description: 'own' },
      },
      {
        label: 'a merge key whose value is a scalar stays a plain key',
        text: '---\n<<: text\n---\n',
        musepi: { '<<': 'text' },
      },
      {
        label: 'tags on quoted scalars are ignored',
        text: '---\ndescription: !!bool "true"\nhide: !!bool "true"\ncount: !!int "3"\n---\n',
        musepi: { description: 'true', hide: 'true', count: '3' },
      },
      {
        label: 'tags: !!int on a quoted name, !!binary kept as text',
        text: '---\nname: !!int "7"\ndescription: !!binary aGk=\n---\n',
        musepi: { name: '7', description: 'aGk=' },
      },
      {
        label: 'tags on plain scalars: the untagged value when of the tag’s kind, else text',
        text: '---\na: !!float 1\nb: !!int 0x10\nc: !!bool true\nd: !!null ~\ne: !!int true\nf: !!bool 1\ng: !foo 12\nh: !foo bar\ni: !!str 5\nj: ! true\nk: !!str\nl: !!int\n---\n',
        musepi: {
          a: 1,
          b: 16,
          c: true,
          d: null,
          e: 'true',
          f: '1',
          g: '12',
          h: 'bar',
          i: '5',
          j: 'true',
          k: '',
          l: null,
        },
      },
      {
        label: 'tags on collections are ignored',
        text: '---\ns: !!set {x}\no: !!omap [{a: 1}]\nt: !!str [x]\n---\n',
        musepi: { s: { x: null }, o: [{ a: 1 }], t: ['x'] },
      },
      {
        label: 'a lone surrogate escape is a YAML error: the line fallback keeps the raw text',
        text: '---\nname: surrogate\ndescription: "\\uD800 x"\n---\n',
        musepi: { name: 'surrogate', description: '"\\uD800 x"' },
      },
      {
        label: 'an escaped surrogate pair is one character',
        text: '---\nname: pair\ndescription: "\\uD83D\\uDE00"\n---\n',
        musepi: { name: 'pair', description: '😀' },
      },
      {
        label: 'a flow sequence followed by text is a YAML error',
        text: '---\nname: [x]: suffix\ndescription: d\n---\n',
        musepi: { name: '[x]: suffix', description: 'd' },
      },
      {
        label: 'a flow map followed by text is a YAML error',
        text: '---\nname: flow-map\ndescription: {a}: b\n---\n',
        musepi: { name: 'flow-map', description: '{a}: b' },
      },
      {
        label: 'the quoting pass leaves a key starting with a digit alone (the block stays an error)',
        text: '---\n1key: a: b\nname: key-shape\ndescription: >\n  folded\n---\n',
        musepi: { '1key': 'a: b', name: 'key-shape', description: '' },
        xcsh: { '1key': 'a: b', name: 'key-shape', description: '>' },
      },
      {
        label: 'a plain value starting with a comma is text',
        text: '---\nname: comma\ndescription: ,first\n---\n',
        musepi: { name: 'comma', description: ',first' },
      },
      {
        label: 'a quoted scalar left open at the end of the block is a YAML error',
        text: '---\nname: open-quote\ndescription: "x\\"\n---\n',
        musepi: { name: 'open-quote', description: '"x\\"' },
      },
      {
        label: 'two tags on one node are a YAML error',
        text: '---\nname: two-tags\ndescription: !!bool ! 1\n---\n',
        musepi: { name: 'two-tags', description: '!!bool ! 1' },
      },
      {
        label: 'a leading BOM is dropped',
        text: '\ufeff---\nname: bom\ndescription: d\n---\n',
        musepi: { name: 'bom', description: 'd' },
      },
      {
        label: 'a four-dash fence line belongs to the block',
        text: '----\nname: four-dash\ndescription: d\n---\n',
        musepi: { name: 'four-dash', description: 'd' },
      },
    ];
  for (const { label, text, musepi, xcsh } of rows) {
    it(label, () => {
      assert.deepStrictEqual(parseFrontmatter(text, 'musepi').frontmatter, musepi);
      assert.deepStrictEqual(parseFrontmatter(text, 'omp').frontmatter, musepi);
      assert.deepStrictEqual(parseFrontmatter(text, 'xcsh').frontmatter, xcsh ?? musepi);
    });
  }
});
