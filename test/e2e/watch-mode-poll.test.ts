// `--watch-mode poll` (docs/deploy.md §Watching): the built daemon watches by polling, says so on /health and in
// /metrics, and an edit still reaches `/events`. Polling is what file systems without events need (Docker Desktop
// and WSL bind mounts, NFS); here the same code path runs on a local directory.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient } from '../helpers/sse-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

describe('skillsd serve --watch-mode poll', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-poll-'));
    await writeTree(root, {
      'home/.keep': '',
      'work/.git': { dir: true },
      'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    });
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', `${root}/work`, '--watch-mode', 'poll'], {
      home: `${root}/home`,
      env: { SKILLSD_POLL_INTERVAL: '100' },
    });
  });
  after(async () => {
    await daemon?.process.kill();
    await cleanup?.();
  });

  it('reports polling and picks an edit up', async () => {
    const health = (await (await fetch(`${daemon.url}/health`)).json()) as { watchMode: string };
    assert.equal(health.watchMode, 'polling');
    const metrics = await (await fetch(`${daemon.url}/metrics`)).text();
    assert.ok(metrics.includes('skillsd_watch_mode{mode="polling"} 1\n'), metrics);
    const client = await SseClient.connect(`${daemon.url}/events`);
    after(() => client.close());
    await client.next((event) => event.event === 'hello', 20_000);
    await writeTree(root, { 'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }) });
    const index = await client.next((event) => event.event === 'index', 20_000);
    assert.deepEqual(JSON.parse(index.data).added, ['docx']);
  });
});
