// An edit of a SKILL.md the views read is told first to the views a patch of the kept runs can take (edited-views.ts,
// docs/agents.md "Live"), then the whole update tells the rest: the other profiles, the doctor's findings, and any
// view whose files' fates the edit changed. Each stream ends at the id of its view's state, and every view equals a
// computation from nothing.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { VIEW_IDS } from '../../src/discovery/agents/agents.js';
import type { AgentView, ViewId } from '../../src/discovery/agents/types.js';
import { type IndexEvent, stateEventId } from '../../src/live-index/event-log.js';
import { viewHash } from '../../src/live-index/view-comparison.js';
import type { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';
import { openUnwatchedIndex } from '../helpers/unwatched-index.js';

const WAIT = 60_000;
type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };

/**
 * The views that load from `work/.agents/skills` in a git workspace (Gemini CLI does not: the workspace is not trusted),
 * the agents' first, then the daemon's profile.
 */
const AGENTS_FIRST: ViewId[] = ['codex', 'opencode', 'copilot-cli', 'vscode', 'goose', 'musepi'];
/** The other profiles, whose discoveries the whole update runs. */
const PROFILES_AFTER: ViewId[] = ['omp', 'xcsh'];

interface Heard {
  view: ViewId | 'default';
  type: string;
  data: Record<string, unknown>;
}

/** Every view's stream and the default stream followed, in one list in the order the events were logged. */
async function follow(t: TestContext, index: WorkspaceIndex): Promise<Heard[]> {
  const heard: Heard[] = [];
  const push = (view: Heard['view']) => (event: IndexEvent) =>
    heard.push({ view, type: event.type, data: event.data as Record<string, unknown> });
  t.after(index.events.subscribe(push('default')));
  for (const id of VIEW_IDS) {
    const { log } = await index.agentEvents(id, WAIT);
    t.after(log.subscribe(push(id)));
  }
  return heard;
}

async function edit(index: WorkspaceIndex, path: string, text: string): Promise<void> {
  await writeFile(path, text);
  await (index as unknown as Reported).rebuildFor([path]);
  await index.agentViewsSettled();
}

/** What a view answers: the parts its answers and its hash are made of. */
function answerOf(view: AgentView | undefined): string {
  assert.ok(view !== undefined);
  const { skills, warnings, collisions, diagnostics, rootOrder } = view;
  return JSON.stringify({ skills, warnings, collisions, diagnostics, rootOrder });
}

/** Every view equals the one a new index computes from nothing, and each stream's last id is its view's state. */
async function assertCurrent(t: TestContext, index: WorkspaceIndex, root: string): Promise<void> {
  const views = (await index.agentViews(WAIT)).views.views;
  const fresh = (await (await openUnwatchedIndex(t, root)).agentViews(WAIT)).views.views;
  for (const id of VIEW_IDS) {
    assert.equal(answerOf(views.get(id)), answerOf(fresh.get(id)), id);
    const { log } = await index.agentEvents(id, WAIT);
    assert.equal(log.headId, stateEventId(viewHash(views.get(id) as AgentView)), id);
  }
}

async function workspace(t: TestContext): Promise<{ root: string; index: WorkspaceIndex; shared: string }> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-edited-first-');
  t.after(cleanup);
  await writeTree(root, {
    'home/.keep': '',
    'work/.git/HEAD': 'x',
    'work/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: '"Read by many: before"' }),
    'work/.agents/skills/other/SKILL.md': SK({ name: 'other', description: 'Another skill' }),
    'work/.claude/skills/claude-only/SKILL.md': SK({ name: 'claude-only', description: 'Claude Code alone' }),
  });
  const index = await openUnwatchedIndex(t, root);
  return { root, index, shared: `${root}/work/.agents/skills/shared/SKILL.md` };
}

describe('an edit told first to the views a patch takes', () => {
  it('a description edit: the agents and the daemon profile first, the other profiles after, once each', async (t) => {
    const { root, index, shared } = await workspace(t);
    const heard = await follow(t, index);
    const before = index.snapshot?.generation as number;

    await edit(index, shared, SK({ name: 'shared', description: '"Read by many: after"' }));

    const views = heard.filter((event) => event.view === 'default' && event.data.views !== undefined);
    assert.deepEqual(
      views.map((event) => event.data.views),
      [AGENTS_FIRST, PROFILES_AFTER],
    );
    const [first, second] = views.map((event) => event.data.generation as number);
    assert.ok((first as number) > before && (second as number) > (first as number));
    // Each view reading the file hears of it once, with the generation its views event gave; Claude Code not at all.
    const perView = heard.filter((event) => event.view !== 'default');
    assert.deepEqual(
      perView.map((event) => [event.view, event.type, event.data]),
      [...AGENTS_FIRST, ...PROFILES_AFTER].map((id) => [
        id,
        'index',
        { generation: AGENTS_FIRST.includes(id) ? first : second, added: [], removed: [], changed: ['shared'] },
      ]),
    );
    const codex = (await index.agentViews(WAIT)).views.views.get('codex');
    assert.equal(codex?.skills.find((skill) => skill.name === 'shared')?.description, 'Read by many: after');
    await assertCurrent(t, index, root);
  });

  it('an edit that changes a name is left to the whole update where it changes the fold', async (t) => {
    const { root, index, shared } = await workspace(t);
    const heard = await follow(t, index);

    await edit(index, shared, SK({ name: 'renamed', description: 'Read by many' }));

    // VS Code names a skill after its folder: the edit changes its description there, told first. Every other view
    // loads it under the new name, which only the whole update tells; it tells VS Code again, with the doctor's new
    // finding (the name no longer matches the folder).
    const views = heard.filter((event) => event.view === 'default' && event.data.views !== undefined);
    assert.deepEqual(
      views.map((event) => event.data.views),
      [['vscode'], [...AGENTS_FIRST, ...PROFILES_AFTER]],
    );
    const perView = heard.filter((event) => event.view !== 'default');
    assert.deepEqual(
      perView.map((event) => [event.view, event.data.added, event.data.removed, event.data.changed]),
      [
        ['vscode', [], [], ['shared']],
        ...[...AGENTS_FIRST, ...PROFILES_AFTER].map((id) =>
          id === 'vscode' ? [id, [], [], []] : [id, ['renamed'], ['shared'], []],
        ),
      ],
    );
    await assertCurrent(t, index, root);
  });

  it("a body edit that changes only the doctor's findings is told once, by the whole update", async (t) => {
    const { root, index, shared } = await workspace(t);
    const heard = await follow(t, index);
    const text = SK({ name: 'shared', description: '"Read by many: before"' });

    await edit(index, shared, `${text}\nRun [the script](scripts/run.sh).\n`);

    const codexEvents = heard.filter((event) => event.view === 'codex');
    assert.deepEqual(
      codexEvents.map((event) => [event.data.added, event.data.removed, event.data.changed]),
      [[[], [], []]],
    );
    const codex = (await index.agentViews(WAIT)).views.views.get('codex');
    assert.deepEqual(
      codex?.diagnostics.filter((finding) => finding.rule === 'missing-referenced-file').map((finding) => finding.path),
      [shared],
    );
    await assertCurrent(t, index, root);
  });

  it("a description edit that also changes the doctor's findings: told first, then again with them", async (t) => {
    const { root, index, shared } = await workspace(t);
    const heard = await follow(t, index);
    const text = SK({ name: 'shared', description: '"Read by many: after"' });

    await edit(index, shared, `${text}\nRun [the script](scripts/run.sh).\n`);

    const codexEvents = heard.filter((event) => event.view === 'codex');
    assert.deepEqual(
      codexEvents.map((event) => [event.data.added, event.data.removed, event.data.changed]),
      [
        [[], [], ['shared']],
        [[], [], []],
      ],
    );
    await assertCurrent(t, index, root);

    // Edited back: the skill's record and its findings as at first, each view told, and current again.
    await edit(index, shared, SK({ name: 'shared', description: '"Read by many: before"' }));
    await assertCurrent(t, index, root);
  });
});
