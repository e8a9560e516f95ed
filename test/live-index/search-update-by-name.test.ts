// The search index updated by what each build changed (src/live-index/search-index.ts, search-touch-keys.ts): a
// reload that says which names it changed costs the records of those names and of the reported files, not a pass over
// every skill, and the index it leaves answers every query as one built from scratch on the same tree. A real
// WorkspaceIndex with its watcher on a temp dir, checked against a second WorkspaceIndex built after each change.

import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { waitUntil } from '../helpers/deadlines.js';
import { addSkillFolder, makeTempDir, replaceFile, writeTree } from '../helpers/temp-tree.js';

const COUNT = 300;

/** A word only skill `i` holds (four letters, no stem, no typo or prefix reaching another). */
function code(i: number): string {
  const letters = 'bcdfghjklmnpqrtvwxz';
  const n = letters.length;
  return `k${letters[Math.floor(i / (n * n)) % n]}${letters[Math.floor(i / n) % n]}${letters[i % n]}`;
}

function skillText(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: "${description}"\n---\n\n${body}\n`;
}

function open(dir: string, watch: boolean): WorkspaceIndex {
  return new WorkspaceIndex({
    home: `${dir}/home`,
    cwd: `${dir}/work`,
    env: {},
    settings: defaultSettings(),
    watch,
  });
}

async function setUp(t: TestContext) {
  const { dir, cleanup } = await makeTempDir('skillsd-search-names-');
  const tree: Parameters<typeof writeTree>[1] = {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    // A skill whose folder is a link: an edit of the real file is reported by its real path.
    'outside/linked/SKILL.md': skillText('linked', 'Linked tool: from elsewhere', `${code(900)} sharedword`),
    'work/.claude/skills/linked': { symlink: '../../../outside/linked' },
  };
  for (let i = 0; i < COUNT; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    tree[`work/.claude/skills/${name}/SKILL.md`] = skillText(name, `Tool number ${i}: a tool`, `${code(i)} sharedword`);
  }
  await writeTree(dir, tree);
  await mkdir(`${dir}/staging`);
  const index = open(dir, true);
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  await index.ready;
  await index.searchSettled();
  return { dir, index, skills: `${dir}/work/.claude/skills`, staging: `${dir}/staging` };
}

async function results(index: WorkspaceIndex, query: string) {
  return (await index.searchAnswer(query, 100)).answer.results;
}

/** Every query answered by `index` as by an index built from scratch on the same tree (the skills and their order). */
async function assertAsFresh(dir: string, index: WorkspaceIndex, queries: readonly string[]): Promise<void> {
  const fresh = open(dir, false);
  try {
    await fresh.ready;
    for (const query of queries) {
      assert.deepEqual(await results(index, query), await results(fresh, query), `query ${query}`);
    }
  } finally {
    await fresh.close();
  }
}

describe('the search index following builds that say what they changed', () => {
  it('reads again only what a change touched, and answers as an index built from scratch', async (t) => {
    const { dir, index, skills, staging } = await setUp(t);
    // Words few skills hold: among equal scores an index orders skills as they were added, which differs between
    // any index that was updated and one built at once, whatever the update visits.
    const queries = [code(7), code(10), code(20), code(30), code(900), 'renamed', 'zebrafish', 'twenty', 'elsewhere'];

    // A body edit: one record compared, the new word found, the old one gone.
    await replaceFile(`${skills}/skill-007/SKILL.md`, skillText('skill-007', 'Tool number 7: a tool', 'zebrafish'));
    await waitUntil('the edited body is searched', async () => (await results(index, 'zebrafish')).length === 1);
    assert.deepEqual(
      (await results(index, 'zebrafish')).map((result) => result.name),
      ['skill-007'],
    );
    assert.deepEqual(await results(index, code(7)), []);
    assert.ok(index.searchLastUpdateVisited <= 3, `visited ${index.searchLastUpdateVisited} of ${COUNT + 1}`);

    // A description edited, a skill renamed, one removed, one added.
    await replaceFile(`${skills}/skill-010/SKILL.md`, skillText('skill-010', 'Renamed purpose', code(10)));
    await waitUntil('the new description is searched', async () =>
      (await results(index, 'purpose')).some((result) => result.name === 'skill-010'),
    );
    await replaceFile(`${skills}/skill-020/SKILL.md`, skillText('renamed-twenty', 'Tool twenty', code(20)));
    await waitUntil('the new name is searched', async () =>
      (await results(index, code(20))).some((result) => result.name === 'renamed-twenty'),
    );
    await rm(`${skills}/skill-030`, { recursive: true });
    await waitUntil('the removed skill leaves', async () => (await results(index, code(30))).length === 0);
    await addSkillFolder(
      `${skills}/skill-999`,
      skillText('skill-999', 'Tool added', `${code(999)} sharedword`),
      staging,
    );
    await waitUntil('the added skill is searched', async () => (await results(index, code(999))).length === 1);
    assert.ok(index.searchLastUpdateVisited <= 3, `visited ${index.searchLastUpdateVisited} of ${COUNT + 1}`);

    // The file behind a link, edited where it really is.
    await replaceFile(`${dir}/outside/linked/SKILL.md`, skillText('linked', 'Linked tool: from elsewhere', 'quokka'));
    await waitUntil('the linked body is searched', async () => (await results(index, 'quokka')).length === 1);
    assert.deepEqual(await results(index, code(900)), []);
    assert.ok(index.searchLastUpdateVisited <= 3, `visited ${index.searchLastUpdateVisited} of ${COUNT + 1}`);

    await assertAsFresh(dir, index, [...queries, code(999), 'purpose', 'quokka']);
  });
});
