// The search index against the live index it follows (src/live-index/search-index.ts): a rebuild with no reported paths
// still sees a body edit (by the file's identity), a removed skill leaves the index, an unchanged build reads nothing.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

function skill(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

async function openIndex(t: TestContext) {
  const { dir, cleanup } = await makeTempDir();
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'x',
    'work/.claude/skills/pdf/SKILL.md': skill('pdf', 'PDF tools', 'Tables come out with pdfplumber.'),
    'work/.claude/skills/xlsx/SKILL.md': skill('xlsx', 'Spreadsheets', 'Workbooks open with openpyxl.'),
  });
  const index = new WorkspaceIndex({
    home: `${dir}/home`,
    cwd: `${dir}/work`,
    env: {},
    settings: defaultSettings(),
    watch: false,
  });
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  await index.ready;
  return { index, skills: `${dir}/work/.claude/skills` };
}

async function names(index: WorkspaceIndex, query: string): Promise<string[]> {
  return (await index.searchAnswer(query, 10)).answer.results.map((result) => result.name);
}

describe('SkillSearchIndex following a WorkspaceIndex', () => {
  it('is built on the first search of an unwatched workspace', async (t) => {
    const { index } = await openIndex(t);
    assert.deepEqual(await names(index, 'openpyxl'), ['xlsx']);
    assert.deepEqual(await names(index, 'pdfplumber'), ['pdf']);
  });

  it('sees a body edit on a rebuild that names no path, and moves the tag without moving the generation', async (t) => {
    const { index, skills } = await openIndex(t);
    const before = await index.searchAnswer('camelot', 10);
    assert.deepEqual(before.answer.results, []);
    await writeFile(`${skills}/pdf/SKILL.md`, skill('pdf', 'PDF tools', 'Tables come out with camelot.'));
    await index.rebuild();
    const after = await index.searchAnswer('camelot', 10);
    assert.deepEqual(
      after.answer.results.map((result) => [result.name, result.matched]),
      [['pdf', ['body']]],
    );
    assert.deepEqual(await names(index, 'pdfplumber'), []);
    assert.equal(after.answer.generation, before.answer.generation);
    assert.notEqual(after.etag, before.etag);
  });

  it('keeps its tag over a rebuild that changed nothing, and drops a removed skill', async (t) => {
    const { index, skills } = await openIndex(t);
    const first = await index.searchAnswer('spreadsheets', 10);
    await index.rebuild();
    assert.equal((await index.searchAnswer('spreadsheets', 10)).etag, first.etag);
    await rm(`${skills}/xlsx`, { recursive: true });
    await index.rebuild();
    const gone = await index.searchAnswer('spreadsheets', 10);
    assert.deepEqual(gone.answer.results, []);
    assert.equal(gone.answer.generation, first.answer.generation + 1);
  });
});
