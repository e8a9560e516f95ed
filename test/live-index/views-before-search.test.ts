// The order of the work after an edit (docs/agents.md "Live"): the views' streams hear of the edit before the search
// index takes it, and a search asked meanwhile still answers from the edited skill.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';
import { openUnwatchedIndex } from '../helpers/unwatched-index.js';

const WAIT = 60_000;
type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };

describe('the search index after the views', () => {
  it('takes an edit only once the views an edit patches were told, and a search waits for it', async (t) => {
    const { dir: root, cleanup } = await makeTempDir('skillsd-views-search-');
    t.after(cleanup);
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const tree: Record<string, string> = { 'home/.keep': '', 'work/.git/HEAD': 'x' };
    for (const name of names) tree[`work/.agents/skills/${name}/SKILL.md`] = SK({ name, description: `About ${name}` });
    await writeTree(root, tree);
    const index = await openUnwatchedIndex(t, root);
    // The search index built: its first update compared every record.
    assert.equal((await index.searchAnswer('bravo', 10)).answer.results[0]?.name, 'bravo');
    assert.equal(index.searchLastUpdateVisited, names.length);
    const { log } = await index.agentEvents('codex', WAIT);
    const seen: Array<{ changed: unknown; visited: number }> = [];
    t.after(
      log.subscribe((event) => {
        seen.push({ changed: (event.data as { changed: unknown }).changed, visited: index.searchLastUpdateVisited });
      }),
    );

    const path = `${root}/work/.agents/skills/charlie/SKILL.md`;
    await writeFile(path, SK({ name: 'charlie', description: 'Zygomorphic flowers' }));
    await (index as unknown as Reported).rebuildFor([path]);
    // Asked once the build's event is out, before the views are up to date: answered from the edited skill.
    const searched = index.searchAnswer('zygomorphic', 10);
    await index.agentViewsSettled();
    assert.deepEqual(
      (await searched).answer.results.map((result) => result.name),
      ['charlie'],
    );
    // Codex heard of the edit while the search index still held its first update; the edit's update then compared
    // the edited name's records alone (one in the new answer, one in the last, one read again).
    assert.deepEqual(seen, [{ changed: ['charlie'], visited: names.length }]);
    assert.equal(index.searchLastUpdateVisited, 3);
  });
});
