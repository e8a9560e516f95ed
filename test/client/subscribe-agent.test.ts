// The typed client's subscription to one agent's view (`subscribe({ agent })`, `GET /events?agent=`) against a real
// app on a real port: the view's `hello` and `index` events, resume across a dropped connection, and the daemon's
// refusal of an unknown agent handed to `onDisconnect` as it is.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HelloEventData, IndexEventData, SkillsdEvent } from '../../src/client/api-types.js';
import { SkillsdApiError } from '../../src/client/errors.js';
import { SkillsdClient } from '../../src/client/skillsd-client.js';
import { startServer } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

// `.goose/skills` is read by Goose only (docs/agents.md "Goose").
const TREE = { 'work/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'goose only' }) };

describe('SkillsdClient.subscribe({ agent })', () => {
  it('follows the view, resuming after a dropped connection with the view’s ids', async (t) => {
    const server = await startServer(t, { tree: TREE });
    const client = new SkillsdClient({ url: server.base });
    const events: SkillsdEvent[] = [];
    const drops: unknown[] = [];
    const subscription = client.subscribe({
      agent: 'goose',
      retryMs: 10,
      maxRetryMs: 10,
      onEvent: (event) => events.push(event),
      onDisconnect: (error) => drops.push(error),
    });
    t.after(() => subscription.close());
    await waitUntil('hello', () => events.length === 1);
    const hello: HelloEventData = events[0]?.data as HelloEventData;
    assert.deepEqual(hello, { generation: 1, skills: 1, agent: 'goose' });
    const workspace = await server.registry.get();
    await writeTree(server.root, { 'work/.goose/skills/a/SKILL.md': SK({ name: 'a', description: 'A' }) });
    await workspace.rebuild();
    await waitUntil('index a', () => events.some((event) => event.event === 'index'));
    // Every connection cut: the client comes back with the last id it saw, and misses nothing.
    server.app.server.closeAllConnections();
    await writeTree(server.root, { 'work/.goose/skills/b/SKILL.md': SK({ name: 'b', description: 'B' }) });
    await workspace.rebuild();
    await waitUntil('index b', () => events.filter((event) => event.event === 'index').length === 2);
    subscription.close();
    await subscription.done;
    assert.equal(drops.length, 1);
    const index = events.filter((event) => event.event === 'index');
    assert.deepEqual(
      index.map((event) => event.data as IndexEventData),
      [
        { generation: 2, added: ['a'], removed: [], changed: [] },
        { generation: 3, added: ['b'], removed: [], changed: [] },
      ],
    );
    assert.deepEqual(
      events.map((event) => event.event),
      ['hello', 'index', 'hello', 'index'],
    );
    // The second `hello` continues from the id the client sent back (whether `b` came before it or after).
    assert.equal(events[2]?.id, index[0]?.id);
    assert.equal((events[2]?.data as HelloEventData | undefined)?.agent, 'goose');
    assert.equal(subscription.lastEventId, index[1]?.id);
  });

  it('hands an unknown agent’s refusal to onDisconnect', async (t) => {
    const server = await startServer(t, { tree: TREE });
    const client = new SkillsdClient({ url: server.base });
    const drops: unknown[] = [];
    const subscription = client.subscribe({
      agent: 'cursor',
      retryMs: 60_000,
      onEvent: () => assert.fail('no event expected'),
      onDisconnect: (error) => drops.push(error),
    });
    t.after(() => subscription.close());
    await waitUntil('refused', () => drops.length === 1);
    subscription.close();
    await subscription.done;
    const error = drops[0];
    assert.ok(error instanceof SkillsdApiError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'UnknownAgent');
  });
});
