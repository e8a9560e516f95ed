// One read per file for every view (docs/agents.md "Live"): a SKILL.md that several agents read is read from disk
// once; an update reads again only the files a change was reported for.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { computeAgentViews } from '../../src/discovery/agents/compute-views.js';
import { AgentFileTexts } from '../../src/discovery/agents/file-texts.js';
import { RootWalkMemo } from '../../src/discovery/agents/walk-memo.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

test('a SKILL.md read by several agents is read once; an update reads only the reported file', async (t) => {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'x',
    'work/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: 'read by many' }),
    'work/.claude/skills/own/SKILL.md': SK({ name: 'own', description: 'Claude only' }),
  });
  const home = `${dir}/home`;
  const cwd = `${dir}/work`;
  const texts = new AgentFileTexts();
  const walks = new RootWalkMemo();
  const compute = () =>
    computeAgentViews({
      home,
      cwd,
      env: {},
      texts,
      walks,
      symlinks: 'follow',
      discoverProfile: (profile) => discoverSkills({ home, cwd, env: {}, settings: { ...defaultSettings(), profile } }),
    });
  const views = await compute();
  const readers = [...views.views.values()]
    .filter((view) => !['musepi', 'omp', 'xcsh'].includes(view.agent.id))
    .filter((view) => view.skills.some((skill) => skill.name === 'shared'))
    .map((view) => view.agent.id);
  assert.deepEqual(readers, ['codex', 'opencode', 'copilot-cli', 'vscode', 'goose']);
  // Two files, each read once by the seven agents' readers together.
  assert.equal(texts.diskReads, 2);

  // Nothing reported: nothing read again.
  await compute();
  assert.equal(texts.diskReads, 2);

  const shared = `${cwd}/.agents/skills/shared/SKILL.md`;
  await writeFile(shared, SK({ name: 'shared', description: 'edited' }));
  texts.invalidate(false, [shared]);
  await walks.invalidate([shared]);
  const after = await compute();
  assert.equal(texts.diskReads, 3);
  // Only the reported file was asked for by the agents: every view was patched from its last run, the other file's
  // text taken as it was, without a look at each file the views hold.
  assert.deepEqual([...texts.reads().keys()], [shared]);
  // An edit of a known SKILL.md changes no walk: no root was walked again.
  assert.deepEqual(walks.walked, []);
  assert.equal(after.views.get('codex')?.skills.find((skill) => skill.name === 'shared')?.description, 'edited');
});
