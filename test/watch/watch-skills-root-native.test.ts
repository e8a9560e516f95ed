import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { SkillsRootWatch } from '../../src/watch/watch-skills-root.js';
import { watchSkillsRootNative } from '../../src/watch/watch-skills-root-native.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** The events of one root watch, and a way to wait for one. */
class Events {
  readonly seen: Array<[string, string]> = [];
  private wake: (() => void) | null = null;

  readonly onEvent = (event: string, path: string): void => {
    this.seen.push([event, path]);
    this.wake?.();
  };

  mark(): number {
    return this.seen.length;
  }

  /** Waits until `[event, path]` (one of `event`'s names) was seen after `mark`, within the test deadline. */
  async waitFor(mark: number, event: string | string[], path: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    const names = typeof event === 'string' ? [event] : event;
    const found = (): boolean => this.seen.slice(mark).some(([e, p]) => names.includes(e) && p === path);
    while (!found()) {
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`no ${names.join('/')} ${path}; seen: ${JSON.stringify(this.seen.slice(mark))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}

async function watchRoot(
  t: TestContext,
  entries: Parameters<typeof writeTree>[1],
): Promise<{ root: string; watch: SkillsRootWatch; events: Events }> {
  const { dir, cleanup } = await makeTempDir('skillsd-native-root-');
  const root = join(dir, 'skills');
  await mkdir(root);
  await writeTree(root, entries);
  const events = new Events();
  const watch = await watchSkillsRootNative({
    root,
    onEvent: events.onEvent,
    onError: (error) => assert.fail(error),
  });
  t.after(async () => {
    await watch.close();
    await cleanup();
  });
  return { root, watch, events };
}

describe('watchSkillsRootNative: one kernel watch per skills directory and per entry', () => {
  it('watches the root and each entry directory, not dot entries, files or links', async (t) => {
    const { watch } = await watchRoot(t, {
      'a/SKILL.md': SK({ description: 'a' }),
      'a/references/deep/x.md': 'x\n',
      'b/SKILL.md': SK({ description: 'b' }),
      '.hidden/SKILL.md': SK({ description: 'hidden' }),
      'loose.md': 'not an entry\n',
      linked: { symlink: 'a' },
    });
    assert.equal(watch.watchedPaths(), 3);
  });

  it('reports SKILL.md written, and not the other files of an entry', async (t) => {
    const { root, events } = await watchRoot(t, { 'a/SKILL.md': SK({ description: 'a' }) });
    const mark = events.mark();
    await writeFile(join(root, 'a', 'notes.txt'), 'not read by discovery\n');
    await writeFile(join(root, 'a', 'SKILL.md'), SK({ description: 'edited' }));
    await events.waitFor(mark, 'change', join(root, 'a', 'SKILL.md'));
    assert.deepEqual(
      events.seen.slice(mark).filter(([, path]) => !path.endsWith('SKILL.md')),
      [],
      'notes.txt is not reported',
    );
  });

  it('reports entries added, renamed and removed, and watches and drops their directories', async (t) => {
    const { root, watch, events } = await watchRoot(t, { 'a/SKILL.md': SK({ description: 'a' }) });
    let mark = events.mark();
    await mkdir(join(root, 'b'));
    await events.waitFor(mark, 'addDir', join(root, 'b'));
    assert.equal(watch.watchedPaths(), 3);
    // The new entry is watched: its SKILL.md appearing is reported.
    mark = events.mark();
    await writeFile(join(root, 'b', 'SKILL.md'), SK({ description: 'b' }));
    await events.waitFor(mark, 'change', join(root, 'b', 'SKILL.md'));

    mark = events.mark();
    await rename(join(root, 'b'), join(root, 'c'));
    await events.waitFor(mark, 'unlinkDir', join(root, 'b'));
    await events.waitFor(mark, 'addDir', join(root, 'c'));
    mark = events.mark();
    await writeFile(join(root, 'c', 'SKILL.md'), SK({ description: 'c' }));
    await events.waitFor(mark, 'change', join(root, 'c', 'SKILL.md'));

    mark = events.mark();
    await rm(join(root, 'c'), { recursive: true });
    await events.waitFor(mark, 'unlinkDir', join(root, 'c'));
    assert.equal(watch.watchedPaths(), 2);
  });

  it('follows an entry replaced under the same name: edits of the new directory are reported', async (t) => {
    const { root, events } = await watchRoot(t, { 'a/SKILL.md': SK({ description: 'a' }) });
    for (let round = 0; round < 5; round++) {
      // Another directory takes the name in two renames made before the event loop runs again: the watch on `a` must
      // move to the new directory (the old one, now `old-<round>`, keeps its inode and would keep the watch).
      mkdirSync(join(root, `next-${round}`));
      writeFileSync(join(root, `next-${round}`, 'SKILL.md'), SK({ description: `next ${round}` }));
      let mark = events.mark();
      renameSync(join(root, 'a'), join(root, `old-${round}`));
      renameSync(join(root, `next-${round}`), join(root, 'a'));
      await events.waitFor(mark, ['addDir', 'change'], join(root, 'a'));
      mark = events.mark();
      await writeFile(join(root, 'a', 'SKILL.md'), SK({ description: `round ${round}` }));
      await events.waitFor(mark, 'change', join(root, 'a', 'SKILL.md'));
    }
  });

  it('follows an entry deleted and recreated under the same name', async (t) => {
    const { root, events } = await watchRoot(t, { 'a/SKILL.md': SK({ description: 'a' }) });
    // The kernel may give the new directory the inode number of the old one at once.
    for (let round = 0; round < 5; round++) {
      let mark = events.mark();
      rmSync(join(root, 'a'), { recursive: true });
      mkdirSync(join(root, 'a'));
      // `unlinkDir` then `addDir` when the entry was looked at in between, else one `change`: a directory either way.
      await events.waitFor(mark, ['addDir', 'change'], join(root, 'a'));
      mark = events.mark();
      await writeFile(join(root, 'a', 'SKILL.md'), SK({ description: `round ${round}` }));
      await events.waitFor(mark, 'change', join(root, 'a', 'SKILL.md'));
    }
  });

  it('reports a SKILL.md written into an entry recreated under the same name before its new watch opened', async (t) => {
    // The old directory holds no SKILL.md, so its own watch says nothing when it goes: only the new watch, opened
    // after the file is already there, can tell of it (`rm -r a && cp -r new a`).
    const { root, events } = await watchRoot(t, { 'a/notes.txt': 'no skill yet\n' });
    for (let round = 0; round < 5; round++) {
      const mark = events.mark();
      rmSync(join(root, 'a'), { recursive: true });
      mkdirSync(join(root, 'a'));
      writeFileSync(join(root, 'a', 'SKILL.md'), SK({ description: `round ${round}` }));
      await events.waitFor(mark, 'change', join(root, 'a', 'SKILL.md'));
      rmSync(join(root, 'a', 'SKILL.md'));
      writeFileSync(join(root, 'a', 'notes.txt'), 'no skill yet\n');
      // The new watch is live: an edit after it is reported too.
      const edit = events.mark();
      writeFileSync(join(root, 'a', 'SKILL.md'), SK({ description: `edit ${round}` }));
      await events.waitFor(edit, 'change', join(root, 'a', 'SKILL.md'));
      rmSync(join(root, 'a', 'SKILL.md'));
    }
  });

  it('reports a symlinked entry coming and going without watching it', async (t) => {
    const { root, watch, events } = await watchRoot(t, { 'a/SKILL.md': SK({ description: 'a' }) });
    let mark = events.mark();
    await symlink('a', join(root, 'linked'));
    await events.waitFor(mark, 'add', join(root, 'linked'));
    assert.equal(watch.watchedPaths(), 2);
    mark = events.mark();
    await rm(join(root, 'linked'));
    await events.waitFor(mark, 'unlink', join(root, 'linked'));
  });

  it('close() releases every watch', async (t) => {
    const { root, watch, events } = await watchRoot(t, { 'a/SKILL.md': SK({ description: 'a' }) });
    await watch.close();
    assert.equal(watch.watchedPaths(), 0);
    const mark = events.mark();
    await writeFile(join(root, 'a', 'SKILL.md'), SK({ description: 'after close' }));
    await mkdir(join(root, 'b'));
    // A sync point: every watch of this process reads one inotify queue, in order, so once a later event reaches a
    // second watch, anything the closed one was still owed would have reached it first.
    const probeEvents = new Events();
    const probe = await watchSkillsRootNative({
      root,
      onEvent: probeEvents.onEvent,
      onError: (error) => assert.fail(error),
    });
    t.after(() => probe.close());
    await mkdir(join(root, 'sync-point'));
    await probeEvents.waitFor(0, 'addDir', join(root, 'sync-point'));
    assert.deepEqual(events.seen.slice(mark), []);
  });
});
