// An update where only texts changed keeps every view none of whose inputs changed as the very object it was
// (kept-views.ts, docs/agents.md "Live"): nothing of it is made, matched with the doctor or compared again.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { VIEW_IDS } from '../../src/discovery/agents/agents.js';
import type { AgentView, ViewId } from '../../src/discovery/agents/types.js';
import type { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';
import { openUnwatchedIndex } from '../helpers/unwatched-index.js';

type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };
const WAIT = 60_000;

/** Everything a view answers with. */
function answerOf(view: AgentView | undefined): string {
  assert.ok(view !== undefined);
  const { skills, warnings, collisions, diagnostics, rootOrder, records, found } = view;
  return JSON.stringify({
    skills,
    warnings,
    collisions,
    diagnostics,
    rootOrder,
    records: [...records],
    found: [...found],
  });
}

async function viewsOf(index: WorkspaceIndex): Promise<Map<ViewId, AgentView>> {
  return new Map((await index.agentViews(WAIT)).views.views);
}

/** `tree` written under a temp root holding a HOME and a repository, and a live index of it. */
async function openIndex(
  t: TestContext,
  tree: Parameters<typeof writeTree>[1],
): Promise<{ root: string; index: WorkspaceIndex }> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-views-kept-');
  t.after(cleanup);
  await writeTree(root, { 'home/.keep': '', 'work/.git/HEAD': 'x', ...tree });
  return { root, index: await openUnwatchedIndex(t, root) };
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('views an update keeps', () => {
  it('a computation whose matrix was made does not keep the one before it', async (t) => {
    const { root, index } = await openIndex(t, {
      'work/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: 'v0' }),
    });
    // Nothing here keeps the first state: only a weak reference to its views.
    const firstViews = await (async () => {
      const first = await index.agentViews(WAIT);
      await first.views.matrix();
      return new WeakRef(first.views);
    })();
    const path = `${root}/work/.agents/skills/shared/SKILL.md`;
    for (let i = 1; i <= 3; i++) {
      await writeFile(path, SK({ name: 'shared', description: `v${i}` }));
      await (index as unknown as Reported).rebuildFor([path]);
      // Each computation's matrix made: before, its closure held the input, and the input the computation before.
      await (await index.agentViews(WAIT)).views.matrix();
    }
    for (let round = 0; round < 5 && firstViews.deref() !== undefined; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    assert.equal(firstViews.deref(), undefined);
  });

  it('an edit read by Goose alone makes a new Goose view and keeps every other as it was', async (t) => {
    const { root, index } = await openIndex(t, {
      'work/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'before' }),
      'work/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: 'read by many' }),
      // A finding about a file several views read (its name is not its folder's): kept as it was too.
      'work/.claude/skills/odd/SKILL.md': SK({ name: 'Odd Name', description: 'named with a space' }),
    });
    const before = await viewsOf(index);
    const path = `${root}/work/.goose/skills/gz/SKILL.md`;
    await writeFile(path, SK({ name: 'gz', description: 'after' }));
    await (index as unknown as Reported).rebuildFor([path]);
    await index.agentViewsSettled();
    const after = await viewsOf(index);
    const made = VIEW_IDS.filter((id) => after.get(id) !== before.get(id));
    assert.deepEqual(made, ['goose']);
    assert.equal(after.get('goose')?.skills.find((skill) => skill.name === 'gz')?.description, 'after');
    // The kept views still carry the doctor's findings they had.
    assert.deepEqual(
      after.get('claude-code')?.diagnostics.map((finding) => finding.rule),
      before.get('claude-code')?.diagnostics.map((finding) => finding.rule),
    );

    // An edit read by several views makes each of them again, and keeps the rest.
    const shared = `${root}/work/.agents/skills/shared/SKILL.md`;
    await writeFile(shared, SK({ name: 'shared', description: 'edited' }));
    await (index as unknown as Reported).rebuildFor([shared]);
    await index.agentViewsSettled();
    const third = await viewsOf(index);
    const readers = VIEW_IDS.filter((id) => third.get(id)?.skills.some((skill) => skill.description === 'edited'));
    assert.deepEqual(
      VIEW_IDS.filter((id) => third.get(id) !== after.get(id)),
      readers,
    );
    assert.ok(readers.length >= 3, readers.join(','));
    assert.ok(!readers.includes('claude-code'));

    // Kept, patched and matched views answer what views computed from nothing answer.
    const fresh = await openUnwatchedIndex(t, root);
    const scratch = await viewsOf(fresh);
    for (const id of VIEW_IDS) assert.equal(answerOf(third.get(id)), answerOf(scratch.get(id)), id);
  });
});
