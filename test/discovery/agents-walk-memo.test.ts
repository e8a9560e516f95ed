// The root walks kept between builds (docs/agents.md "Live"): a change reported under one root re-walks that root
// only; a link's target outside its root counts as part of the root; a full build walks everything again.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { computeAgentViews } from '../../src/discovery/agents/compute-views.js';
import { AgentFileTexts } from '../../src/discovery/agents/file-texts.js';
import { RootWalkMemo } from '../../src/discovery/agents/walk-memo.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

test('an edit under one root re-walks that root alone; the views still follow it', async (t) => {
  const { dir: T, cleanup } = await makeTempDir('skillsd-walks-');
  t.after(cleanup);
  const H = join(T, 'home');
  const P = join(H, 'work', 'proj');
  await writeTree(T, {
    'home/work/proj/.git/HEAD': 'ref: refs/heads/main\n',
    'home/work/proj/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'goose only' }),
    'home/work/proj/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: 's' }),
    'home/.claude/skills/linked': { symlink: join(T, 'store', 'linked') },
    'store/linked/SKILL.md': SK({ name: 'linked', description: 'l' }),
  });
  const walks = new RootWalkMemo();
  const texts = new AgentFileTexts();
  const compute = () =>
    computeAgentViews({
      home: H,
      cwd: P,
      env: {},
      texts,
      walks,
      symlinks: 'follow',
      discoverProfile: (profile) =>
        discoverSkills({ home: H, cwd: P, env: {}, settings: { ...defaultSettings(), profile } }),
    });
  const first = await compute();
  const everyRoot = [...walks.walked];
  assert.ok(everyRoot.length > 10, `every root walked first (${everyRoot.length})`);
  assert.ok(walks.walked.includes(join(P, '.goose', 'skills')));

  // Unrelated to every other agent: only Goose's project root is walked again.
  const added = join(P, '.goose', 'skills', 'gz2', 'SKILL.md');
  await writeTree(T, { 'home/work/proj/.goose/skills/gz2/SKILL.md': SK({ name: 'gz2', description: 'two' }) });
  await walks.invalidate([join(P, '.goose', 'skills', 'gz2'), added]);
  const second = await compute();
  assert.deepEqual(walks.walked, [join(P, '.goose', 'skills')]);
  assert.deepEqual(
    second.views
      .get('goose')
      ?.skills.map((s) => s.name)
      .sort(),
    ['gz', 'gz2', 'linked', 'shared'],
  );
  assert.deepEqual(
    second.views.get('codex')?.skills.map((s) => s.name),
    first.views.get('codex')?.skills.map((s) => s.name),
  );

  // A change inside a link's target, outside every root: the roots that reached it through the link, only.
  await writeFile(join(T, 'store', 'linked', 'notes.md'), 'n\n');
  await walks.invalidate([join(T, 'store', 'linked', 'notes.md')]);
  await compute();
  assert.deepEqual([...new Set(walks.walked)], [join(H, '.claude', 'skills')]);

  // Nothing reported: nothing walked.
  await compute();
  assert.deepEqual(walks.walked, []);

  walks.clear();
  await compute();
  // The same roots again; the agents place and walk theirs side by side, so the order is the disk's, not fixed.
  assert.deepEqual([...walks.walked].sort(), [...everyRoot].sort());
});
