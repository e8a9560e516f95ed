// SSE `diagnostic` events: a doctor finding that appears or goes while the daemon runs is sent once (and logged once).

import assert from 'node:assert/strict';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/app-server.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK } from '../helpers/temp-tree.js';

describe('diagnostic events', () => {
  it('a skill.md of the wrong case dropped in is reported new, and resolved once renamed', async (t) => {
    const server = await startServer(t, {
      watch: true,
      tree: { 'work/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) },
    });
    const workspace = await server.registry.get();
    await workspace.ready;
    await workspace.diagnosticsIdle();
    const stream = await SseClient.connect(`${server.base}/events?types=diagnostic`);
    t.after(() => stream.close());
    await stream.next((event) => event.event === 'hello');
    // Built aside and moved in whole, so that the watcher never sees a half-made folder.
    const staging = `${server.root}/staging/lower`;
    await mkdir(staging, { recursive: true });
    await writeFile(`${staging}/skill.md`, SK({ name: 'lower', description: 'd' }));
    const folder = `${server.cwd}/.claude/skills/lower`;
    await rename(staging, folder);
    const appeared = await stream.next((event) => event.event === 'diagnostic', 30_000);
    assert.deepEqual(JSON.parse(appeared.data), {
      state: 'new',
      finding: {
        rule: 'wrong-case-skill-md',
        severity: 'error',
        path: `${folder}/skill.md`,
        message: 'the file is named skill.md: only SKILL.md, in exactly that case, is read',
        hint: `rename it to ${folder}/SKILL.md`,
      },
    });
    await rename(`${folder}/skill.md`, `${folder}/SKILL.md`);
    const resolved = await stream.next((event) => event.event === 'diagnostic', 30_000);
    assert.equal(JSON.parse(resolved.data).state, 'resolved');
    assert.equal(JSON.parse(resolved.data).finding.rule, 'wrong-case-skill-md');
  });
});
