// The per-agent views as the live index keeps them (docs/agents.md "Live"): brought current after each build of the
// default view, each with its own event log; a change names the views it changed on the default stream; idle views
// are dropped and come back the same.

import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { VIEW_IDS as ALL_VIEW_IDS } from '../../src/discovery/agents/agents.js';
import type { AgentView, ViewId } from '../../src/discovery/agents/types.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { IndexEvent } from '../../src/live-index/event-log.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import type { WorkspaceIndexOptions } from '../../src/live-index/workspace-index-options.js';
import { makeTempDir, replaceFile, SK, writeTree } from '../helpers/temp-tree.js';

const VIEW_IDS: readonly ViewId[] = ALL_VIEW_IDS;
const WAIT = 60_000;

type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };

async function openIndex(
  t: TestContext,
  tree: Parameters<typeof writeTree>[1],
  options: Partial<WorkspaceIndexOptions> = {},
): Promise<{ index: WorkspaceIndex; root: string; cwd: string; events: IndexEvent[] }> {
  const { dir: root, cleanup } = await makeTempDir();
  await writeTree(root, { 'home/.keep': '', 'work/.git/HEAD': 'x', ...tree });
  const cwd = `${root}/work`;
  const index = new WorkspaceIndex({
    home: `${root}/home`,
    cwd,
    env: {},
    settings: defaultSettings(),
    watch: false,
    ...options,
  });
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  const events: IndexEvent[] = [];
  index.events.subscribe((event) => events.push(event));
  await index.ready;
  return { index, root, cwd, events };
}

/** The parts of a view its answers are made of. */
function answerOf(view: AgentView | undefined): string {
  assert.ok(view !== undefined);
  const { skills, warnings, collisions, diagnostics, rootOrder } = view;
  return JSON.stringify({ skills, warnings, collisions, diagnostics, rootOrder });
}

describe('the per-agent views of a live index', () => {
  it('an edit under a root only Goose reads changes the Goose view and its stream, and no other', async (t) => {
    const { index, cwd, events } = await openIndex(t, {
      'work/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'before' }),
      'work/.agents/skills/shared/SKILL.md': SK({ name: 'shared', description: 'read by many' }),
    });
    const streams = new Map<ViewId, IndexEvent[]>();
    for (const id of VIEW_IDS) {
      const { log } = await index.agentEvents(id, WAIT);
      const got: IndexEvent[] = [];
      log.subscribe((event) => got.push(event));
      streams.set(id, got);
    }
    const path = `${cwd}/.goose/skills/gz/SKILL.md`;
    await writeFile(path, SK({ name: 'gz', description: 'after' }));
    await (index as unknown as Reported).rebuildFor([path]);
    await index.agentViewsSettled();

    const generation = index.snapshot?.generation as number;
    assert.deepEqual(
      events.map((event) => [event.type, event.data]),
      [['index', { generation, added: [], removed: [], changed: [], views: ['goose'] }]],
    );
    for (const id of VIEW_IDS) {
      const expected =
        id === 'goose' ? [['index', { generation, added: [], removed: [], changed: ['gz'] }]] : ([] as unknown[]);
      assert.deepEqual(
        streams.get(id)?.map((event) => [event.type, event.data]),
        expected,
        id,
      );
    }
    const state = await index.agentViews(WAIT);
    assert.equal(state.generation, generation);
    assert.equal(state.views.views.get('goose')?.skills.find((skill) => skill.name === 'gz')?.description, 'after');
  });

  it('a read of a view once the default event is out already sees the edit', async (t) => {
    const { index, cwd } = await openIndex(t, {
      'work/.agents/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'one' }),
    });
    await index.agentViews(WAIT);
    const path = `${cwd}/.agents/skills/pdf/SKILL.md`;
    const reads: Array<Promise<string | undefined>> = [];
    // Read as soon as each edit's default-view event is logged, before anything else runs.
    const stop = index.events.subscribe((event) => {
      if (event.type !== 'index' || (event.data as { views?: unknown }).views !== undefined) return;
      reads.push(index.agentViews(WAIT).then((state) => state.views.views.get('codex')?.skills[0]?.description));
    });
    t.after(stop);
    const edits = ['two', 'three', 'four'];
    for (const description of edits) {
      // Replaced in one step (a rename): an update still reading the previous edit never sees an empty file.
      await replaceFile(path, SK({ name: 'pdf', description }));
      await (index as unknown as Reported).rebuildFor([path]);
    }
    // Each read saw its edit or a later one (the next edit may be in by the time the views are current).
    const seen = await Promise.all(reads);
    assert.equal(seen.length, 3);
    seen.forEach((description, k) => {
      assert.ok(edits.indexOf(description as string) >= k, `read ${k} saw ${description}`);
    });
    await index.agentViewsSettled();
    assert.equal((await index.agentViews(WAIT)).views.views.get('codex')?.skills[0]?.description, 'four');
  });

  it('views stay current through a burst of 500 edits', async (t) => {
    const { index, cwd } = await openIndex(t, {
      'work/.agents/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'start' }),
    });
    const first = await index.agentViews(WAIT);
    const readers = VIEW_IDS.filter((id) => first.views.views.get(id)?.skills.some((skill) => skill.name === 'pdf'));
    assert.deepEqual(readers, ['codex', 'opencode', 'copilot-cli', 'vscode', 'goose', 'musepi', 'omp', 'xcsh']);
    const path = `${cwd}/.agents/skills/pdf/SKILL.md`;
    const builds: Array<Promise<void>> = [];
    for (let i = 1; i <= 500; i++) {
      await writeFile(path, SK({ name: 'pdf', description: `edit ${i}` }));
      builds.push((index as unknown as Reported).rebuildFor([path]));
    }
    await Promise.all(builds);
    const state = await index.agentViews(WAIT);
    for (const id of readers) assert.equal(state.views.views.get(id)?.skills[0]?.description, 'edit 500', id);
    assert.equal(state.generation, index.snapshot?.generation);
  });

  it('views unused past the idle time are dropped, then come back identical; a stream keeps them', async (t) => {
    const { index, cwd } = await openIndex(
      t,
      {
        'work/.agents/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'work/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Claude copy' }),
        'home/.gemini/skills/bad/SKILL.md': 'no frontmatter',
      },
      { agentViewsIdleMs: 0 },
    );
    const first = await index.agentViews(WAIT);
    const before = VIEW_IDS.map((id) => answerOf(first.views.views.get(id)));
    const path = `${cwd}/.agents/skills/pdf/SKILL.md`;
    // Held by a stream: kept current across a build.
    const release = index.holdViews();
    assert.equal(index.agentViewsKept, true);
    await (index as unknown as Reported).rebuildFor([path]);
    assert.equal(index.agentViewsKept, true);
    release();
    // Unused (idle time 0): the next build drops them.
    await (index as unknown as Reported).rebuildFor([path]);
    assert.equal(index.agentViewsKept, false);
    const again = await index.agentViews(WAIT);
    assert.notEqual(again, first);
    assert.deepEqual(
      VIEW_IDS.map((id) => answerOf(again.views.views.get(id))),
      before,
    );
    assert.equal(JSON.stringify((await again.views.matrix()).rows), JSON.stringify((await first.views.matrix()).rows));
  });
});

describe('views updated from what changed equal views computed afresh', () => {
  it('after every step of a sequence of edits, renames, breakages and repairs', async (t) => {
    const { index, root, cwd } = await openIndex(t, {
      'work/.agents/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'first: one' }),
      'work/.agents/skills/beta/SKILL.md': SK({ name: 'beta', description: 'second' }),
      'work/.claude/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'the Claude alpha' }),
      'work/.claude/skills/gamma/SKILL.md': SK({ name: 'gamma', description: 'third' }),
      'home/.agents/skills/beta/SKILL.md': SK({ name: 'beta', description: 'user beta' }),
      'home/.codex/skills/delta/SKILL.md': SK({ name: 'delta', description: 'codex only' }),
      'home/.codex/skills/delta/agents/openai.yaml': 'policy:\n  allow_implicit_invocation: false\n',
      'work/.goose/skills/eps/SKILL.md': SK({ name: 'eps', description: 'goose' }),
    });
    await index.agentViews(WAIT);
    const files = [
      `${cwd}/.agents/skills/alpha/SKILL.md`,
      `${cwd}/.agents/skills/beta/SKILL.md`,
      `${cwd}/.claude/skills/alpha/SKILL.md`,
      `${cwd}/.claude/skills/gamma/SKILL.md`,
      `${root}/home/.agents/skills/beta/SKILL.md`,
      `${root}/home/.codex/skills/delta/SKILL.md`,
      `${cwd}/.goose/skills/eps/SKILL.md`,
    ];
    const texts = (file: string, step: number): string[] => {
      const folder = file.split('/').at(-2) as string;
      return [
        SK({ name: folder, description: `edit ${step}` }),
        SK({ name: folder, description: `Use when: step ${step}` }),
        SK({ name: `${folder}-renamed`, description: `renamed at ${step}` }),
        SK({ name: 'alpha', description: `now alpha at ${step}` }),
        'no frontmatter at all',
        `---\nname: ${folder}\ndescription: [unclosed\n---\nbody`,
        SK({ name: folder, description: `edit ${step}`, unknownField: 'x' }),
        '',
      ];
    };
    // A fixed pseudo-random sequence: the same steps every run.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const roots = [`${cwd}/.agents/skills`, `${cwd}/.claude/skills`, `${root}/home/.codex/skills`];
    const added: string[] = [];
    let structural = 0;
    for (let step = 0; step < 40; step++) {
      // Mostly edits; now and then a skill folder added or removed (the walks and listings change).
      const kind = next(10);
      let reported: string;
      if (kind === 0) {
        const dir = `${roots[next(roots.length)]}/new-${step}`;
        await mkdir(dir, { recursive: true });
        await writeFile(`${dir}/SKILL.md`, SK({ name: `new-${step}`, description: `added at ${step}` }));
        added.push(dir);
        reported = dir;
        structural++;
      } else if (kind === 1 && added.length > 0) {
        const dir = added.splice(next(added.length), 1)[0] as string;
        await rm(dir, { recursive: true });
        reported = dir;
        structural++;
      } else {
        const file = files[next(files.length)] as string;
        const options = texts(file, step);
        await writeFile(file, options[next(options.length)] as string);
        reported = file;
      }
      await (index as unknown as Reported).rebuildFor([reported]);
      const kept = await index.agentViews(WAIT);
      const fresh = new WorkspaceIndex({
        home: `${root}/home`,
        cwd,
        env: {},
        settings: defaultSettings(),
        watch: false,
      });
      try {
        await fresh.ready;
        const afresh = await fresh.agentViews(WAIT);
        for (const id of VIEW_IDS) {
          assert.equal(answerOf(kept.views.views.get(id)), answerOf(afresh.views.views.get(id)), `step ${step}, ${id}`);
        }
        assert.equal(
          JSON.stringify((await kept.views.matrix()).rows),
          JSON.stringify((await afresh.views.matrix()).rows),
          `step ${step}, matrix`,
        );
      } finally {
        await fresh.close();
      }
    }
    // The sequence did add and remove folders, not only edit texts.
    assert.ok(structural >= 3, `${structural} structural steps`);
  });
});
