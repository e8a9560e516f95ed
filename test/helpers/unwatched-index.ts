// A live index without a watcher of `<root>/work` with HOME `<root>/home`, closed when the test ends: the tests that
// report their own changes (`rebuildFor`) start from it.

import type { TestContext } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';

export async function openUnwatchedIndex(t: TestContext, root: string): Promise<WorkspaceIndex> {
  const index = new WorkspaceIndex({
    home: `${root}/home`,
    cwd: `${root}/work`,
    env: {},
    settings: defaultSettings(),
    watch: false,
  });
  t.after(() => index.close());
  await index.ready;
  return index;
}
