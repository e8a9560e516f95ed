// Once the first views are computed, the watcher follows the roots only they read; what it then reports is what
// changed since the views read it, not every directory it starts to watch (docs/agents.md "Live"): before, a
// workspace's agent-only roots were all reported once armed and the views walked and read them all a second time.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { fsClockPast } from '../helpers/fs-clock.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };

describe('the watcher after the first views', () => {
  it('reports none of the roots only the views read when nothing changed since they read them', async (t) => {
    const { dir: root, cleanup } = await makeTempDir('skillsd-views-read-at-');
    t.after(cleanup);
    const tree: Parameters<typeof writeTree>[1] = { 'home/.keep': '', 'work/.git/HEAD': 'x' };
    for (let i = 0; i < 5; i++) {
      tree[`work/.goose/skills/g${i}/SKILL.md`] = SK({ name: `g${i}`, description: 'goose' });
      tree[`home/.copilot/skills/c${i}/SKILL.md`] = SK({ name: `c${i}`, description: 'copilot' });
    }
    await writeTree(root, tree);
    await fsClockPast(root);
    const index = new WorkspaceIndex({
      home: `${root}/home`,
      cwd: `${root}/work`,
      env: {},
      settings: defaultSettings(),
      watcher: { readAtSlackMs: 0, reconcileIntervalMs: 3_600_000 },
    });
    t.after(() => index.close());
    await index.ready;
    const reports: string[][] = [];
    const reported = index as unknown as Reported;
    const rebuildFor = reported.rebuildFor.bind(index);
    reported.rebuildFor = (paths) => {
      reports.push([...paths]);
      return rebuildFor(paths);
    };
    const views = await index.agentViews(60_000);
    assert.deepEqual(
      views.views.views
        .get('goose')
        ?.skills.map((skill) => skill.name)
        .sort(),
      ['g0', 'g1', 'g2', 'g3', 'g4'],
    );
    // The roots are watched once this resolves (workspace-agent-views.ts `idle`).
    await index.agentViewsSettled();
    // Nothing inside the tree is reported. Paths outside it may be, rightly: Gemini CLI's `.env` files are looked for
    // in every ancestor, and a shared `/tmp` changes all the time.
    assert.deepEqual(
      reports.flat().filter((path) => path.startsWith(`${root}/`)),
      [],
    );

    // Watched: an edit there is seen and reaches the view.
    await writeFile(`${root}/work/.goose/skills/g2/SKILL.md`, SK({ name: 'g2', description: 'edited' }));
    for (;;) {
      await index.agentViewsSettled();
      const now = await index.agentViews(60_000);
      const g2 = now.views.views.get('goose')?.skills.find((skill) => skill.name === 'g2');
      if (g2?.description === 'edited') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok((reports as string[][]).some((paths) => paths.includes(`${root}/work/.goose/skills/g2/SKILL.md`)));
  });
});
