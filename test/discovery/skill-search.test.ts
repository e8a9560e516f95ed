// The matching and ranking rules of docs/api.md §GET /search over a MiniSearch index fed directly (no files):
// table-driven.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import {
  createSkillSearch,
  type SearchDocument,
  STOP_WORDS,
  searchSkills,
  skillBody,
} from '../../src/discovery/skill-search.js';

const DOCS: SearchDocument[] = [
  { id: '/a', name: 'git-bisect', description: 'Find the commit that broke the build', body: 'Run git bisect.' },
  { id: '/b', name: 'xlsx', description: 'Read and write spreadsheets', body: 'Workbooks with openpyxl.' },
  { id: '/c', name: 'pdf', description: 'PDF tools', body: 'Extracting tables from PDF files.' },
  { id: '/d', name: 'docx', description: 'Word documents', body: 'The tables of a document.' },
  { id: '/e', name: 'lint', description: 'Check the code style', body: 'Run the checks without network access.' },
  { id: '/f', name: 'chess', description: 'Chess openings', body: 'Play chess through the terminal.' },
];

const search = createSkillSearch();
search.addAll(DOCS);

describe('searchSkills', () => {
  const cases: Array<[string, string, Array<[string, string[]]>]> = [
    ['a prefix of three letters or more', 'bis', [['/a', ['name', 'body']]]],
    ['no prefix under three letters', 'bi', []],
    ['one typo in a word of five letters or more', 'spredsheets', [['/b', ['description']]]],
    ['no typo in a word of four letters (`wird` is one edit from `word`)', 'wird', []],
    ['no typo in a shorter word', 'pdx', []],
    [
      'a stem: extract meets extracting, table meets tables',
      'extract table',
      [
        ['/c', ['body']],
        ['/d', ['body']],
      ],
    ],
    ['the name before the body', 'pdf', [['/c', ['name', 'description', 'body']]]],
    ['stop words alone match nothing', 'the from with', []],
    ['longer stop words too: without, through, should', 'without through should', []],
    ['a stop word among other words is left out', 'chess without', [['/f', ['name', 'description', 'body']]]],
    ['punctuation alone matches nothing', '?! --', []],
    [
      'only the last word is a prefix: `bis` before another word matches exactly',
      'bis pdf',
      [['/c', ['name', 'description', 'body']]],
    ],
    [
      'the last word is a prefix after a stop word',
      'pdf from bis',
      [
        ['/c', ['name', 'description', 'body']],
        ['/a', ['name', 'body']],
      ],
    ],
    [
      'the prefix is the word as typed, not its stem (`ches` stems to `che`, a prefix of `check`)',
      'ches',
      [['/f', ['name', 'description', 'body']]],
    ],
    ['a whole last word still matches by its stem (checks → check)', 'checks', [['/e', ['description', 'body']]]],
  ];
  for (const [label, query, expected] of cases) {
    it(label, () => {
      assert.deepEqual(
        searchSkills(search, query, 10).map((hit) => [hit.id, hit.fields]),
        expected,
      );
    });
  }

  it('keeps the best `limit`', () => {
    const all = searchSkills(search, 'tables documents', 10);
    assert.deepEqual(
      all.map((hit) => hit.id),
      ['/d', '/c'],
    );
    assert.deepEqual(searchSkills(search, 'tables documents', 1), all.slice(0, 1));
  });
});

describe('STOP_WORDS', () => {
  it('is the list docs/api.md §GET /search gives, word for word', async () => {
    const doc = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const listed = /English function words are in no index and are dropped from the query: `([^`]+)`/.exec(doc);
    assert.notEqual(listed, null);
    assert.deepEqual(listed![1]!.split(/\s+/), [...STOP_WORDS]);
    assert.equal(STOP_WORDS.size, 104);
  });
});

describe('skillBody', () => {
  const cases: Array<[string, string, string]> = [
    ['after the frontmatter', '---\nname: x\n---\n\n# Body\n', '\n\n# Body\n'],
    ['the whole text without frontmatter', '# Body\n', '# Body\n'],
    ['the whole text when the block never closes', '---\nname: x\n', '---\nname: x\n'],
    ['past a byte order mark', '\ufeff---\nname: x\n---\nBody', '\nBody'],
  ];
  for (const [label, text, body] of cases) it(label, () => assert.equal(skillBody(text), body));
});
