// Two daemons over the same files, as the replicas of a team server behind one Service (docs/deploy.md §Replicas):
// with `server.generation: content` they answer byte-identical `/skills` bodies and ETags, and an event id of one
// resumes on the other — replayed when the other went through that state, `reset` when it did not, never a wrong
// replay. Rebuilds are driven by hand, so each replica's history is exactly what the test says.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentGeneration } from '../../src/live-index/snapshot-generation.js';
import { startServer, type TestServer } from '../helpers/app-server.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

const TREE = { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) };
const SETTINGS = { server: { generation: 'content' } };
/** Load shedding on event-loop lag kept out (a loaded machine trips it; it is not what this file tests). */
const APP = { pressure: { maxEventLoopDelayMs: 60_000 } };

async function replicas(t: Parameters<typeof startServer>[0]): Promise<[TestServer, TestServer]> {
  const a = await startServer(t, { tree: TREE, settings: SETTINGS, app: APP });
  const b = await startServer(t, { sharedRoot: a.root, settings: SETTINGS, app: APP });
  await Promise.all([(await a.registry.get()).ready, (await b.registry.get()).ready]);
  return [a, b];
}

async function rebuild(s: TestServer): Promise<void> {
  await (await s.registry.get()).rebuild();
}

async function skills(s: TestServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${s.base}/skills`, { headers });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}

async function connect(t: { after: (fn: () => void) => void }, url: string, headers: Record<string, string> = {}) {
  const client = await SseClient.connect(url, headers);
  t.after(() => client.close());
  return client;
}

/** The events up to and including the stream's `hello` and whatever directly follows it (`reset`, a replay). */
async function opening(client: SseClient, count: number): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for (let i = 0; i < count; i++) out.push(await client.next());
  return out;
}

describe('replicas over the same files', () => {
  it('answer byte-identical /skills bodies and ETags, and each answers 304 to the other tag', async (t) => {
    const [a, b] = await replicas(t);
    // A goes through an extra state that B never sees: counters would now disagree, content generations do not.
    await writeTree(a.root, { 'work/.musepi/skills/tmp/SKILL.md': SK({ description: 'Temporary' }) });
    await rebuild(a);
    await writeTree(a.root, { 'work/.musepi/skills/tmp/SKILL.md': SK({ description: 'Temporary, v2' }) });
    await rebuild(a);
    await rebuild(b);
    const [fromA, fromB] = await Promise.all([skills(a), skills(b)]);
    assert.equal(fromA.status, 200);
    assert.equal(fromA.body, fromB.body);
    assert.equal(fromA.etag, fromB.etag);
    const generation = JSON.parse(fromA.body).generation;
    assert.equal(generation, contentGeneration((await a.registry.get()).snapshot!.contentHash));
    assert.equal(Number.isSafeInteger(generation), true);
    assert.deepEqual(await skills(b, { 'if-none-match': fromA.etag! }), { status: 304, etag: fromA.etag, body: '' });
    assert.deepEqual(await skills(a, { 'if-none-match': fromB.etag! }), { status: 304, etag: fromB.etag, body: '' });
  });

  it('resume on one replica from an id of the other: replay from a shared state, reset from an unknown one', async (t) => {
    const [a, b] = await replicas(t);
    const onA = await connect(t, `${a.base}/events`);
    const [helloA] = await opening(onA, 1);
    const onB = await connect(t, `${b.base}/events`);
    const [helloB] = await opening(onB, 1);
    // Same files, same state, same id.
    assert.equal(helloA!.id, helloB!.id);
    assert.equal(helloA!.data, helloB!.data);

    // A sees two edits one by one; B rebuilds once, after both (its watcher coalesced them).
    await writeTree(a.root, { 'work/.musepi/skills/one/SKILL.md': SK({ description: 'One' }) });
    await rebuild(a);
    const middle = await onA.next((event) => event.event === 'index');
    await writeTree(a.root, { 'work/.musepi/skills/two/SKILL.md': SK({ description: 'Two' }) });
    await rebuild(a);
    const last = await onA.next((event) => event.event === 'index');
    await rebuild(b);
    const onlyB = await onB.next((event) => event.event === 'index');
    assert.deepEqual(JSON.parse(onlyB.data).added, ['one', 'two']);
    // Both ended in the same state: its id is the same on both.
    assert.equal(last.id, onlyB.id);
    assert.equal(last.data, onlyB.data.replace('"added":["one","two"]', '"added":["two"]'));

    // From the state both started in: B replays its own change to the current state.
    const fromStart = await connect(t, `${b.base}/events`, { 'last-event-id': helloA!.id! });
    const [hello, replayed] = await opening(fromStart, 2);
    assert.equal(hello!.id, helloA!.id);
    assert.deepEqual([replayed!.event, replayed!.id, replayed!.data], ['index', onlyB.id, onlyB.data]);
    // From A's current state: B is there too, nothing to replay; the next change arrives once.
    const fromLast = await connect(t, `${b.base}/events`, { 'last-event-id': last.id! });
    const [helloLast] = await opening(fromLast, 1);
    assert.equal(helloLast!.id, last.id);
    // From the state only A went through: B cannot know what the client saw, so it says reset.
    const fromMiddle = await connect(t, `${b.base}/events`, { 'last-event-id': middle.id! });
    const [helloMiddle, reset] = await opening(fromMiddle, 2);
    assert.deepEqual(
      [helloMiddle!.id, reset!.event, JSON.parse(reset!.data)],
      [onlyB.id, 'reset', { generation: JSON.parse(onlyB.data).generation }],
    );

    await writeTree(a.root, { 'work/.musepi/skills/three/SKILL.md': SK({ description: 'Three' }) });
    await Promise.all([rebuild(a), rebuild(b)]);
    const [liveA, liveB] = await Promise.all([
      onA.next((event) => event.event === 'index'),
      fromLast.next((event) => event.event === 'index'),
    ]);
    assert.deepEqual([liveB.id, liveB.data], [liveA.id, liveA.data]);
    assert.deepEqual(
      fromLast.events.map((event) => event.event),
      ['hello', 'index'],
    );
  });
});
