// What a query costs (docs/api.md §GET /search): its canonical form (words lower-cased, each once, whole words in an
// order of their own, the last word apart, at most 16), one computation per canonical query while the index stays as
// it is, shared by identical requests at once and stopped when they all go away; the answers remembered within a
// bound of entries and bytes. A real WorkspaceIndex on a temp dir gives the snapshots; the SkillSearchIndex under test
// follows them as the live index does.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { canonicalQuery, createSkillSearch, MAX_QUERY_TERMS, searchSkills } from '../../src/discovery/skill-search.js';
import { SearchAnswerCache } from '../../src/live-index/search-answer-cache.js';
import { SkillSearchIndex } from '../../src/live-index/search-index.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

function skill(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

async function openSearch(t: TestContext) {
  const { dir, cleanup } = await makeTempDir('skillsd-search-cache-');
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'x',
    'work/.claude/skills/pdf/SKILL.md': skill('pdf', 'PDF tools', 'Extract tables with pdfplumber.'),
    'work/.claude/skills/docx/SKILL.md': skill('docx', 'Word documents', 'The tables of a document.'),
    'work/.claude/skills/xlsx/SKILL.md': skill('xlsx', 'Spreadsheets', 'Workbooks with openpyxl.'),
  });
  const index = new WorkspaceIndex({
    home: `${dir}/home`,
    cwd: `${dir}/work`,
    env: {},
    settings: defaultSettings(),
    watch: false,
  });
  const search = new SkillSearchIndex();
  t.after(async () => {
    search.close();
    await index.close();
    await cleanup();
  });
  await index.ready;
  const follow = (full: boolean, paths: string[] = []) =>
    search.follow(index.snapshot!, { full, paths: new Set(paths) });
  follow(true);
  await search.settled();
  return { index, search, follow, skills: `${dir}/work/.claude/skills` };
}

describe('canonicalQuery', () => {
  const cases: Array<[string, string, string]> = [
    [
      'lower-cases, drops function words, sorts whole words by stem, keeps the last apart',
      'Extract the TABLES from PDF',
      'extract~ tabl~ |pdf',
    ],
    ['the same words in another order before the same last word', 'tables, extract: pdf!', 'extract~ tabl~ |pdf'],
    ['another last word is another query', 'pdf tables extract', 'pdf tabl~ |extract'],
    ['a word given twice, or in two forms, counts once', 'table tables table docx', 'tabl~ |docx'],
    ['an earlier word the last one matches is dropped', 'pdf PDF pdf', '|pdf'],
    ['an earlier word matched with a typo that the last one would not allow is kept', 'tables tabl', 'tabl~ |tabl'],
    ['function words only', 'the from with', ''],
    ['a word over 40 characters is dropped', `${'x'.repeat(41)} pdf`, '|pdf'],
  ];
  for (const [label, query, key] of cases) {
    it(label, () => assert.equal(canonicalQuery(query).key, key));
  }

  it(`keeps the last word and the first ${MAX_QUERY_TERMS - 1} other distinct words`, () => {
    assert.equal(MAX_QUERY_TERMS, 16);
    const words = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    const { terms, key } = canonicalQuery(words.join(' '));
    assert.equal(terms.length, 16);
    assert.equal(key, `${words.slice(0, 15).join(' ')} |w39`);
  });
});

describe('scoring word by word', () => {
  it('gives the scores and the order of one MiniSearch OR query over the same words', () => {
    const search = createSkillSearch();
    search.addAll([
      { id: '/pdf', name: 'pdf', description: 'PDF tools', body: 'Extract tables with pdfplumber.' },
      { id: '/docx', name: 'docx', description: 'Word documents', body: 'The tables of a document.' },
      { id: '/xlsx', name: 'xlsx', description: 'Spreadsheets', body: 'Workbooks with openpyxl.' },
    ]);
    const whole = search
      .search(
        {
          combineWith: 'OR',
          queries: [
            { queries: ['document'], prefix: false, fuzzy: 1 },
            { queries: ['tables'], processTerm: (term) => term.toLowerCase(), prefix: true, fuzzy: false },
            { queries: ['tables'], prefix: false, fuzzy: 1 },
          ],
        },
        { boost: { name: 4, description: 2, body: 1 }, maxFuzzy: 1 },
      )
      .map((result) => [result.id, Math.round(result.score * 1000) / 1000]);
    assert.deepEqual(whole, [
      ['/docx', 9.753],
      ['/pdf', 0.705],
    ]);
    assert.deepEqual(
      searchSkills(search, 'document tables', 10).map((hit) => [hit.id, hit.score]),
      whole,
    );
  });
});

describe('SkillSearchIndex answers', () => {
  it('computes a canonical query once: every spelling of it is then remembered, with the same ranking', async (t) => {
    const { search } = await openSearch(t);
    const first = await search.answer('extract tables pdf', 10);
    assert.deepEqual(
      first.answer.results.map((result) => [result.name, result.score, result.matched]),
      [
        ['pdf', 33.962, ['name', 'description', 'body']],
        ['docx', 0.672, ['body']],
      ],
    );
    const again = await search.answer('TABLES  extract, pdf', 10);
    assert.deepEqual(again.answer.results, first.answer.results);
    assert.equal(again.answer.query, 'TABLES  extract, pdf');
    // Another query text: another tag, as another body (its `query`) goes with it.
    assert.notEqual(again.etag, first.etag);
    const one = await search.answer('extract tables pdf', 1);
    assert.deepEqual(one.answer.results, first.answer.results.slice(0, 1));
    assert.deepEqual(search.answerStats, { computed: 1, remembered: 2, shared: 0, abandoned: 0 });
  });

  it('shares one computation between identical requests at once', async (t) => {
    const { search } = await openSearch(t);
    const answers = await Promise.all(Array.from({ length: 5 }, () => search.answer('openpyxl workbooks', 10)));
    for (const { answer } of answers) assert.deepEqual(answer, answers[0]!.answer);
    assert.deepEqual(
      answers[0]!.answer.results.map((result) => result.name),
      ['xlsx'],
    );
    assert.deepEqual(search.answerStats, { computed: 1, remembered: 0, shared: 4, abandoned: 0 });
  });

  it('forgets its answers when the index changes, and answers from the new one', async (t) => {
    const { search, follow, skills } = await openSearch(t);
    assert.deepEqual((await search.answer('camelot', 10)).answer.results, []);
    await writeFile(`${skills}/pdf/SKILL.md`, skill('pdf', 'PDF tools', 'Extract tables with camelot.'));
    follow(false, [`${skills}/pdf/SKILL.md`]);
    const after = await search.answer('camelot', 10);
    assert.deepEqual(
      after.answer.results.map((result) => result.name),
      ['pdf'],
    );
    assert.deepEqual(search.answerStats, { computed: 2, remembered: 0, shared: 0, abandoned: 0 });
  });

  it('stops a computation every request waiting for it has left, and remembers nothing of it', async (t) => {
    const { search } = await openSearch(t);
    const controller = new AbortController();
    const asked = search.answer('document tables', 10, controller.signal);
    controller.abort(new Error('the client went away'));
    await assert.rejects(asked, { message: 'the client went away' });
    const again = await search.answer('document tables', 10);
    assert.deepEqual(
      again.answer.results.map((result) => result.name),
      ['docx', 'pdf'],
    );
    assert.deepEqual(search.answerStats, { computed: 2, remembered: 0, shared: 0, abandoned: 1 });
  });
});

describe('SearchAnswerCache bounds', () => {
  const value = (bytes: number) => ({ bytes });
  const compute = (bytes: number) => async () => value(bytes);

  it('keeps at most its entries, the least recently used dropped first', async () => {
    const cache = new SearchAnswerCache<{ bytes: number }>(2, 1000);
    await cache.get('a', compute(10));
    await cache.get('b', compute(10));
    await cache.get('a', compute(10));
    await cache.get('c', compute(10));
    assert.equal(cache.size, 2);
    assert.equal(cache.bytes, 20);
    await cache.get('a', compute(10));
    await cache.get('b', compute(10));
    assert.deepEqual(cache.stats, { computed: 4, remembered: 2, shared: 0, abandoned: 0 });
  });

  it('keeps at most its bytes, and never an answer larger than all of them', async () => {
    const cache = new SearchAnswerCache<{ bytes: number }>(10, 100);
    await cache.get('a', compute(60));
    await cache.get('b', compute(30));
    await cache.get('c', compute(30));
    assert.equal(cache.size, 2);
    assert.equal(cache.bytes, 60);
    await cache.get('huge', compute(101));
    assert.equal(cache.size, 2);
    await cache.get('huge', compute(101));
    assert.deepEqual(cache.stats, { computed: 5, remembered: 0, shared: 0, abandoned: 0 });
  });
});
