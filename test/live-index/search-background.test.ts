// When the search index is built (docs/api.md §GET /search): a live workspace of 50 skills or more builds it after
// its first index, with no search asked, in slices that leave the event loop turning; a first search during that
// build waits for it rather than starting another. A smaller live workspace, and a workspace indexed once, build it
// on their first search. Real WorkspaceIndex instances on temp dirs.

import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { holdBackground } from '../../src/discovery/time-slices.js';
import { BUILD_AHEAD_SKILLS } from '../../src/live-index/search-index.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { waitUntil } from '../helpers/deadlines.js';
import { mainThreadCpuMs } from '../helpers/main-thread-cpu.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

/**
 * A build that held the loop (the whole build: seconds) is far past it. Counted in CPU time of the main thread
 * between two turns (test/helpers/main-thread-cpu.ts): a wall-clock bound failed once next to a busy loop, the suite
 * and a clean-clone run at once (a turn of 362 ms), while a process left without a core for as long uses none.
 */
const MAX_TURN_MS = 250;

const WORDS = ['parse', 'render', 'deploy', 'archive', 'compress', 'measure', 'convert', 'publish', 'inspect', 'merge'];

/**
 * A word only skill `i` holds: `k` and three consonants. Four letters match no other word by a typo, and as a last
 * word its prefix matches only itself (every code has four letters); no stemming rule applies to it.
 */
function code(i: number): string {
  const letters = 'bcdfghjklmnpqrtvwxz';
  const n = letters.length;
  return `k${letters[Math.floor(i / (n * n)) % n]}${letters[Math.floor(i / n) % n]}${letters[i % n]}`;
}

/** `count` skills, each body a few KiB of prose, skill `i` also holding the word `code(i)`. */
function skills(count: number): Record<string, string> {
  const tree: Record<string, string> = { 'home/.keep': '', 'work/.git/HEAD': 'ref: refs/heads/main\n' };
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    const lines: string[] = [];
    for (let line = 0; line < 40; line++) {
      lines.push(
        Array.from({ length: 12 }, (_, w) => `${WORDS[(i + line + w) % WORDS.length]}${(line * 12 + w) % 97}`).join(
          ' ',
        ),
      );
    }
    tree[`work/.claude/skills/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: Tool number ${i}\n---\n\n${lines.join('\n')}\n${code(i)}\n`;
  }
  return tree;
}

async function openIndex(
  t: TestContext,
  count: number,
  options: { watch: boolean; armAfter?: Promise<unknown> },
): Promise<WorkspaceIndex> {
  const { dir, cleanup } = await makeTempDir('skillsd-search-bg-');
  await writeTree(dir, skills(count));
  const index = new WorkspaceIndex({
    home: `${dir}/home`,
    cwd: `${dir}/work`,
    env: {},
    settings: defaultSettings(),
    watch: options.watch,
    // Nothing but the search index runs on the loop meanwhile: the live doctor is off, the watcher arms when told.
    diagnosticsMaxSkills: 0,
    ...(options.armAfter === undefined ? {} : { armAfter: options.armAfter }),
  });
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  return index;
}

/**
 * The longest stretch between two turns of the event loop (setImmediate to setImmediate) until `stop()`, in CPU time
 * of the main thread (its wall time where /proc is missing).
 */
function probeTurns(): { stop: () => number } {
  let longest = 0;
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    const wall = now - last;
    longest = Math.max(longest, cpu === undefined || lastCpu === undefined ? wall : Math.min(wall, cpu - lastCpu));
    last = now;
    lastCpu = cpu;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      return longest;
    },
  };
}

describe('the search index of a live workspace', () => {
  it('is built after the first index with no search asked, and the event loop keeps turning meanwhile', async (t) => {
    let armWatcher: () => void = () => {};
    const armAfter = new Promise<void>((resolve) => {
      armWatcher = resolve;
    });
    const index = await openIndex(t, 3000, { watch: true, armAfter });
    await index.firstIndex;
    const probe = probeTurns();
    assert.equal(index.searchBuilt, false);
    await waitUntil('the search index built', () => index.searchBuilt);
    const longest = probe.stop();
    armWatcher();
    assert.ok(
      longest < MAX_TURN_MS,
      `the main thread ran ${longest.toFixed(1)} ms between two turns of the event loop`,
    );

    const { answer, etag } = await index.searchAnswer(code(2999), 10);
    assert.deepEqual(
      answer.results.map((result) => [result.name, result.matched]),
      [['skill-2999', ['body']]],
    );
    // One update changed the index: the build (`s1`).
    assert.match(etag, /-s1-[0-9a-f]{12}"$/);
  });

  it('answers a first search asked during the build once that build is done, without starting another', async (t) => {
    let armWatcher: () => void = () => {};
    const armAfter = new Promise<void>((resolve) => {
      armWatcher = resolve;
    });
    t.after(() => armWatcher());
    const index = await openIndex(t, 600, { watch: true, armAfter });
    await index.firstIndex;
    assert.equal(index.searchBuilt, false);
    const { answer, etag } = await index.searchAnswer(code(599), 10);
    assert.deepEqual(
      answer.results.map((result) => result.name),
      ['skill-0599'],
    );
    assert.match(etag, /-s1-[0-9a-f]{12}"$/);
    assert.equal(index.searchBuilt, true);
  });

  it('gives way while the first views are computed, unless a search waits for it', async (t) => {
    let armWatcher: () => void = () => {};
    const armAfter = new Promise<void>((resolve) => {
      armWatcher = resolve;
    });
    t.after(() => armWatcher());
    // What the first views of a workspace take while they are computed (workspace-agent-views.ts).
    let release = holdBackground();
    t.after(() => release());
    const index = await openIndex(t, 600, { watch: true, armAfter });
    await index.firstIndex;
    // Held: many turns of the event loop and not one body added.
    for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(index.searchSize, 0);
    release();
    await waitUntil('the search index built', () => index.searchBuilt);
    assert.equal(index.searchSize, 600);

    // A search asked while held is not kept waiting: the build goes on for it.
    const other = await openIndex(t, 600, { watch: true, armAfter });
    release = holdBackground();
    await other.firstIndex;
    const { answer } = await other.searchAnswer(code(599), 10);
    assert.deepEqual(
      answer.results.map((result) => result.name),
      ['skill-0599'],
    );
  });

  it(`waits for a first search under ${BUILD_AHEAD_SKILLS} skills`, async (t) => {
    const index = await openIndex(t, BUILD_AHEAD_SKILLS - 1, { watch: true });
    // `ready`: the first index, the watcher armed and the re-check after it: every build of the start is done.
    await index.ready;
    assert.equal(index.searchBuilt, false);
    const { answer } = await index.searchAnswer(code(48), 10);
    assert.deepEqual(
      answer.results.map((result) => result.name),
      ['skill-0048'],
    );
    assert.equal(index.searchBuilt, true);
  });

  it('is built on the first search of a workspace indexed once (the in-process CLI), however large', async (t) => {
    const index = await openIndex(t, BUILD_AHEAD_SKILLS, { watch: false });
    await index.ready;
    assert.equal(index.searchBuilt, false);
    const { answer } = await index.searchAnswer(code(0), 10);
    assert.deepEqual(
      answer.results.map((result) => result.name),
      ['skill-0000'],
    );
    assert.equal(index.searchBuilt, true);
  });
});
