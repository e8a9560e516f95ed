import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LinkWatches } from '../../src/watch/link-watches.js';
import { PresenceWatcher } from '../../src/watch/watch-presence.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

describe('LinkWatches', () => {
  it('says it is current after a sync, and not once a watched target directory went or all were closed', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-link-watches-');
    t.after(cleanup);
    await writeTree(dir, { 'real/one/SKILL.md': SK({ description: 'one' }) });
    const presence = new PresenceWatcher({ mode: 'events', pollIntervalMs: 1000, onError: () => {} });
    t.after(() => presence.close());
    const told = new Set<string>();
    let wake = (): void => {};
    const links = new LinkWatches((entryPaths) => {
      for (const path of entryPaths) told.add(path);
      // Told of the file's removal first, maybe; then of the directory's, which ends the watch.
      if (!links.current) wake();
    });
    const targets = [{ dir: join(dir, 'real/one'), name: 'SKILL.md', entryPath: join(dir, 'skills/linked') }];
    assert.equal(links.current, false);
    links.sync(targets, presence);
    assert.equal(links.current, true);

    // The target's directory removed: its watch is gone, and the entry is told.
    const gone = new Promise<void>((resolve) => {
      wake = resolve;
    });
    await rm(join(dir, 'real/one'), { recursive: true });
    await gone;
    assert.deepEqual([...told], [join(dir, 'skills/linked')]);
    assert.equal(links.current, false);

    // Back, and synced again: current until all are closed.
    await mkdir(join(dir, 'real/one'));
    links.sync(targets, presence);
    assert.equal(links.current, true);
    links.close();
    assert.equal(links.current, false);
  });
});
