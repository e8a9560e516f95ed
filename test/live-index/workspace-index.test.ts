import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { discoverSkillChange, discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings, parseSettings } from '../../src/discovery/settings.js';
import type { DiscoveryContext } from '../../src/discovery/types.js';
import { chainedEventId, type IndexEvent, stateEventId } from '../../src/live-index/event-log.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import type { DiscoverFn, WorkspaceIndexOptions } from '../../src/live-index/workspace-index-options.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { agentManifest, entry, registry } from '../helpers/plugin-trees.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** An index over a fresh tree; `cwd` is relative to the tree's root (default `work`, a repository). */
async function openIndex(
  t: TestContext,
  tree: Parameters<typeof writeTree>[1],
  options: Partial<Omit<WorkspaceIndexOptions, 'cwd'>> & { cwd?: string } = {},
): Promise<{ index: WorkspaceIndex; root: string; cwd: string; events: IndexEvent[] }> {
  const { dir: root, cleanup } = await makeTempDir();
  const relativeCwd = options.cwd ?? 'work';
  await writeTree(root, { 'home/.keep': '', ...(options.cwd === undefined ? { 'work/.git/HEAD': 'x' } : {}), ...tree });
  const cwd = `${root}/${relativeCwd}`;
  const index = new WorkspaceIndex({
    home: `${root}/home`,
    env: {},
    settings: defaultSettings(),
    watch: false,
    watcher: { coalesceMs: 10, rereadDelayMs: 40, reconcileIntervalMs: 60_000 },
    ...options,
    cwd,
  });
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  const events: IndexEvent[] = [];
  // The doctor's `diagnostic` events have tests of their own (diagnostic-events.test.ts).
  index.events.subscribe((event) => {
    if (event.type !== 'diagnostic') events.push(event);
  });
  await index.ready;
  return { index, root, cwd, events };
}

/** Waits until `predicate` holds, polling; fails after `timeoutMs`. */
async function until(predicate: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('WorkspaceIndex', () => {
  it('builds generation 1 from discovery and logs no event for it', async (t) => {
    const { index, root, cwd, events } = await openIndex(t, {
      'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
    });
    const snapshot = index.snapshot!;
    assert.equal(snapshot.generation, 1);
    const ctx: DiscoveryContext = { home: `${root}/home`, cwd, env: {}, settings: defaultSettings() };
    const expected = await discoverSkills(ctx);
    assert.deepEqual([...snapshot.skills], expected.skills);
    assert.deepEqual([...snapshot.scannedDirs], expected.scannedDirs);
    assert.equal(snapshot.repoRoot, cwd);
    assert.deepEqual(events, []);
    assert.equal(index.isReady, true);
  });

  it('keeps the generation when a rebuild finds the same answer, and moves it when the answer changes', async (t) => {
    const { index, root, events } = await openIndex(t, {
      'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
    });
    const first = index.snapshot!;
    await index.rebuild();
    assert.equal(index.snapshot!.generation, 1);
    assert.equal(index.snapshot!.etag, first.etag);
    assert.notEqual(index.snapshot, first);
    await writeTree(root, { 'work/.claude/skills/pdf/SKILL.md': SK({ description: 'Claude PDF' }) });
    await index.rebuild();
    assert.equal(index.snapshot!.generation, 2);
    // The change's first event chains from the state before it; its last names the state it leads to.
    const indexId = chainedEventId(stateEventId(first.contentHash), 'index', events[0]!.json);
    assert.deepEqual(
      events.map((event) => [event.id, event.type, (event.data as { name?: string; state?: string }).state ?? null]),
      [
        [indexId, 'index', null],
        [stateEventId(index.snapshot!.contentHash), 'collision', 'new'],
      ],
    );
    assert.deepEqual(events[0]!.data, { generation: 2, added: [], removed: [], changed: [] });
  });

  it('coalesces concurrent rebuilds: one running and one queued', async (t) => {
    let calls = 0;
    const counting: DiscoverFn = (ctx, options) => {
      calls++;
      return discoverSkillChange(ctx, options);
    };
    const { index } = await openIndex(t, {}, { discover: counting });
    calls = 0;
    await Promise.all([index.rebuild(), index.rebuild(), index.rebuild(), index.rebuild()]);
    assert.equal(calls, 2);
  });

  it('rebuilds after real edits seen by the watcher', async (t) => {
    const { index, cwd, events } = await openIndex(
      t,
      { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) },
      { watch: true },
    );
    assert.equal(index.watcherStatus() !== undefined, true);
    await writeTree(cwd, { '.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }) });
    await until(() => index.snapshot!.generation === 2);
    assert.deepEqual(events.at(-1)?.data, { generation: 2, added: ['docx'], removed: [], changed: [] });
    // Replaced in one rename, as editors save: a plain rewrite is briefly an empty file, which discovery skips.
    await writeAtomically(`${cwd}/.musepi/skills/docx/SKILL.md`, SK({ description: 'Word documents' }));
    await until(() => index.snapshot!.generation === 3);
    assert.equal(index.snapshot!.skill('docx')?.description, 'Word documents');
    await rm(`${cwd}/.musepi/skills/pdf`, { recursive: true });
    await until(() => index.snapshot!.generation === 4);
    assert.deepEqual(events.at(-1)?.data, { generation: 4, added: [], removed: ['pdf'], changed: [] });
  });

  it('reports a SKILL.md rewritten in place (truncated, then written) as changed, not removed and added', async (t) => {
    const { index, cwd, events } = await openIndex(
      t,
      { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) },
      { watch: true },
    );
    const file = `${cwd}/.musepi/skills/pdf/SKILL.md`;
    // What `writeFile` does in two steps, with time between them for the watcher to report the truncation.
    await writeFile(file, '');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await writeFile(file, SK({ description: 'PDF documents' }));
    await until(() => index.snapshot!.skill('pdf')?.description === 'PDF documents');
    assert.deepEqual(
      events.map((event) => event.data),
      [{ generation: 2, added: [], removed: [], changed: ['pdf'] }],
    );
  });

  it('watches skills directories that do not exist yet, and a .git appearing that moves REPO', async (t) => {
    const { index, root } = await openIndex(
      t,
      { 'outer/.claude/skills/far/SKILL.md': SK({ description: 'Far' }), 'outer/inner/.keep': '' },
      { watch: true, cwd: 'outer/inner' },
    );
    const names = () => index.snapshot!.skills.map((skill) => skill.name);
    assert.deepEqual(names(), ['far']);
    await writeTree(root, { 'outer/inner/.musepi/skills/near/SKILL.md': SK({ description: 'Near' }) });
    await until(() => index.snapshot!.generation === 2);
    assert.deepEqual(names(), ['far', 'near']);
    // A repository root at CWD stops the project walk there: the skill above it is out (docs/discovery.md §0).
    await writeTree(root, { 'outer/inner/.git/HEAD': 'ref: refs/heads/main\n' });
    await until(() => index.snapshot!.generation === 3);
    assert.deepEqual(names(), ['near']);
    assert.equal(index.snapshot!.repoRoot, `${root}/outer/inner`);
  });

  it('applies new settings with a rebuild, then logs a settings event', async (t) => {
    const { index, events } = await openIndex(t, {
      'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
    });
    await index.applySettings(parseSettings({ skills: { enablePiProject: false } }), '/cfg.yaml');
    assert.equal(index.snapshot!.generation, 2);
    assert.equal(index.snapshot!.settings.skills.enablePiProject, false);
    assert.deepEqual(
      events.map((event) => [event.type, event.data]),
      [
        ['index', { generation: 2, added: [], removed: ['pdf'], changed: [] }],
        ['settings', { source: '/cfg.yaml', generation: 2 }],
      ],
    );
    // Settings that change nothing in the answer keep the generation but are in force.
    await index.applySettings(parseSettings({ skills: { enablePiProject: false }, symlinks: 'follow' }), '/cfg.yaml');
    assert.equal(index.snapshot!.generation, 2);
    assert.equal(index.snapshot!.settings.symlinks, 'follow');
    index.reportSettingsError('/cfg.yaml', 'bad');
    assert.deepEqual(events.at(-1)?.data, { source: '/cfg.yaml', message: 'bad' });
  });

  it('answers NotReady while the first build runs, and closes cleanly mid-build', async (t) => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    const index = new WorkspaceIndex({
      home: dir,
      cwd: dir,
      env: {},
      settings: defaultSettings(),
      watch: false,
      discover: async (ctx, options) => {
        await gate;
        return discoverSkillChange(ctx, options);
      },
    });
    await assert.rejects(index.whenReady(0), { name: 'SkillsdError', code: 'NotReady' });
    await assert.rejects(index.whenReady(20), {
      code: 'NotReady',
      message: `The skill index of ${dir} is still being built`,
    });
    let closed = false;
    index.onClose(() => {
      closed = true;
    });
    const closing = index.close();
    release();
    await closing;
    assert.equal(closed, true);
    assert.equal(index.closed, true);
    assert.equal(index.snapshot, undefined);
  });

  it('retries a first discovery that throws', async (t) => {
    let calls = 0;
    const { index } = await openIndex(
      t,
      {},
      {
        retryDelayMs: 5,
        discover: async (ctx, options) => {
          calls++;
          if (calls === 1) throw new Error('disk on fire');
          return discoverSkillChange(ctx, options);
        },
      },
    );
    assert.equal(calls, 2);
    assert.equal(index.snapshot!.generation, 1);
  });
});

async function writeAtomically(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

describe('WorkspaceIndex.firstIndex', () => {
  it('resolves with the first snapshot, before the watcher is armed; a skill directory added then is indexed during the arming', async (t) => {
    const { dir: root, cleanup } = await makeTempDir();
    // Enough entries that chokidar's arming spans thousands of fs callbacks, while the kernel's notice of the new
    // directory takes one turn of the loop.
    const tree: Parameters<typeof writeTree>[1] = { 'home/.keep': '', 'work/.git/HEAD': 'x' };
    for (let i = 0; i < 1500; i++) tree[`work/.musepi/skills/s${i}/SKILL.md`] = SK({ description: `skill ${i}` });
    await writeTree(root, tree);
    let indexRef: WorkspaceIndex | undefined;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every discovery started once the watcher is armed (the re-check) waits for the test: only a build started
    // during the arming can bring the new skill in before the release.
    const discover: DiscoverFn = async (ctx, options) => {
      if (indexRef?.watcherStatus() !== undefined) await held;
      return discoverSkillChange(ctx, options);
    };
    const index = new WorkspaceIndex({
      home: `${root}/home`,
      cwd: `${root}/work`,
      env: {},
      settings: defaultSettings(),
      watcher: { coalesceMs: 10, rereadDelayMs: 40, reconcileIntervalMs: 60_000 },
      discover,
    });
    indexRef = index;
    t.after(async () => {
      release();
      await index.close();
      await cleanup();
    });
    let readyDone = false;
    index.ready.then(() => {
      readyDone = true;
    });
    const added = new Promise<IndexEvent>((resolve) => {
      index.events.subscribe((event) => {
        if (event.type === 'index' && (event.data as { added: string[] }).added.includes('late')) resolve(event);
      });
    });
    await index.firstIndex;
    assert.equal(index.snapshot?.skills.length, 1500);
    assert.equal(index.watcherStatus(), undefined, 'the watcher is not armed yet');
    await writeTree(root, { 'work/.musepi/skills/late/SKILL.md': SK({ description: 'added right away' }) });
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no index event for the new skill before the re-check')), WAIT_MS);
    });
    await Promise.race([added, bound]).finally(() => clearTimeout(timer));
    assert.equal(index.snapshot?.skill('late')?.description, 'added right away');
    release();
    await index.ready;
    assert.equal(readyDone, true);
  });
});

describe('WorkspaceIndex: armAfter (a server sends its first answers before the watcher arms)', () => {
  async function heldIndex(t: TestContext) {
    const { dir: root, cleanup } = await makeTempDir();
    await writeTree(root, {
      'home/.keep': '',
      'work/.git/HEAD': 'x',
      'work/.musepi/skills/a/SKILL.md': SK({ description: 'first' }),
    });
    let release: () => void = () => {};
    const armAfter = new Promise<void>((resolve) => {
      release = resolve;
    });
    const index = new WorkspaceIndex({
      home: `${root}/home`,
      cwd: `${root}/work`,
      env: {},
      settings: defaultSettings(),
      watcher: { coalesceMs: 10, rereadDelayMs: 40, reconcileIntervalMs: 60_000 },
      blockingFirstIndex: true,
      armAfter,
    });
    t.after(async () => {
      release();
      await index.close();
      await cleanup();
    });
    return { index, root, release };
  }

  it('arms once it resolves; a skill directory added before is indexed, an edit inside one made before is seen', async (t) => {
    const { index, root, release } = await heldIndex(t);
    await index.firstIndex;
    assert.equal(index.snapshot?.skill('a')?.description, 'first');
    assert.equal(index.watchMode(), 'events', 'being armed, as the health route says');
    await writeTree(root, { 'work/.musepi/skills/late/SKILL.md': SK({ description: 'added while held' }) });
    // The skills directories' listings are watched from the first index on.
    await until(() => index.snapshot?.skill('late') !== undefined);
    assert.equal(index.watcherStatus(), undefined, 'not armed before armAfter resolves');
    // An edit inside a skill directory has no watcher yet: a rebuild for another new directory does not see it.
    await writeFile(`${root}/work/.musepi/skills/a/SKILL.md`, SK({ description: 'edited while held' }));
    await writeTree(root, { 'work/.musepi/skills/later/SKILL.md': SK({ description: 'added after the edit' }) });
    await until(() => index.snapshot?.skill('later') !== undefined);
    assert.equal(index.snapshot?.skill('a')?.description, 'first');
    assert.equal(index.watcherStatus(), undefined);
    release();
    await index.ready;
    assert.notEqual(index.watcherStatus(), undefined);
    // The re-check after the arming saw the edit that no watcher could.
    assert.equal(index.snapshot?.skill('a')?.description, 'edited while held');
    assert.equal(index.snapshot?.skill('late')?.description, 'added while held');
  });

  it('closing while held ends the start without arming', async (t) => {
    const { index } = await heldIndex(t);
    await index.firstIndex;
    await index.close();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('ready never settled after close')), WAIT_MS);
    });
    await Promise.race([index.ready, bound]).finally(() => clearTimeout(timer));
    assert.equal(index.watcherStatus(), undefined);
    assert.equal(index.watching, false);
  });
});

describe('WorkspaceIndex: an index event comes after the watcher follows the new answer', () => {
  it('a plugin manifest edited as soon as its skill is announced is seen', async (t) => {
    const { index, root, events } = await openIndex(
      t,
      {
        'plugins/ap/plugin.json': agentManifest('ap'),
        'plugins/ap/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'Alpha' }),
      },
      { watch: true },
    );
    const manifest = `${root}/plugins/ap/plugin.json`;
    // A client that reacts to the event at once: the manifest the new answer depends on is edited before the event's
    // listeners return.
    index.events.subscribe((event) => {
      if (event.type === 'index' && (event.data as { added: string[] }).added.includes('alpha')) {
        writeFileSync(manifest, agentManifest('Bad Name'));
      }
    });
    await writeTree(root, {
      'home/.claude/plugins/installed_plugins.json': registry({ 'ap@m': [entry(`${root}/plugins/ap`)] }),
    });
    await until(() =>
      events.some((e) => e.type === 'index' && (e.data as { removed: string[] }).removed.includes('alpha')),
    );
    assert.equal(index.snapshot?.skill('alpha'), undefined);
  });
});
