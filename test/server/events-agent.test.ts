// `GET /events?agent=<id>`: one agent view's stream over real HTTP (docs/api.md §GET /events, "Agent views"): its
// `hello`, its `index` and `collision` events, resume by id, `types=`, the refusal of an unknown agent, and the
// default stream naming the views that changed.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { getJson, startServer, type TestServer } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

// `.goose/skills` is read by Goose only (docs/agents.md "Goose"); `.musepi/skills` by the default view.
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'work/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'goose only' }),
};
const KNOWN = 'claude-code, codex, opencode, gemini-cli, copilot-cli, vscode, goose, musepi, omp, xcsh';

async function connect(t: { after: (fn: () => void) => void }, url: string, headers: Record<string, string> = {}) {
  const client = await SseClient.connect(url, headers);
  t.after(() => client.close());
  return client;
}

const is =
  (type: string) =>
  (event: SseEvent): boolean =>
    event.event === type;

function data(event: SseEvent): unknown {
  return JSON.parse(event.data);
}

/** Writes files and rebuilds the default workspace at once (deterministic, no watcher involved). */
async function change(s: TestServer, tree: Parameters<typeof writeTree>[1]): Promise<void> {
  await writeTree(s.root, tree);
  const workspace = await s.registry.get();
  await workspace.rebuild();
  // The views follow the build beside it: their update is part of the change.
  await workspace.agentViewsSettled();
}

describe('GET /events?agent=', () => {
  it('says hello with the generation, the count of skills in that view and the agent', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const client = await connect(t, `${s.base}/events?agent=goose`);
    assert.equal(client.status, 200);
    assert.equal(client.headers['content-type'], 'text/event-stream');
    const hello = await client.next();
    assert.equal(hello.event, 'hello');
    assert.match(hello.id ?? '', /^[0-9]{1,16}$/);
    assert.equal(hello.retry, 3000);
    assert.deepEqual(data(hello), { generation: 1, skills: 1, agent: 'goose' });
    // The view's own position: not the default stream's.
    const main = await connect(t, `${s.base}/events`);
    const mainHello = await main.next();
    assert.deepEqual(data(mainHello), { generation: 1, skills: 1 });
    assert.notEqual(mainHello.id, hello.id);
    // A second stream of the same view starts at the same position.
    const again = await connect(t, `${s.base}/events?agent=goose`);
    assert.equal((await again.next()).id, hello.id);
  });

  it('sends an index event naming a skill added where only that agent looks, as the watcher sees it', async (t) => {
    const s = await startServer(t, { tree: TREE, watch: true });
    const goose = await connect(t, `${s.base}/events?agent=goose`);
    await goose.next(is('hello'));
    const main = await connect(t, `${s.base}/events`);
    await main.next(is('hello'));
    await writeTree(s.cwd, { '.goose/skills/zip/SKILL.md': SK({ name: 'zip', description: 'Archives' }) });
    const added = await goose.next(is('index'));
    assert.deepEqual(data(added), { generation: 2, added: ['zip'], removed: [], changed: [] });
    // The default stream names the view, and adds nothing of its own.
    const named = await main.next(is('index'));
    assert.deepEqual(data(named), { generation: 2, added: [], removed: [], changed: [], views: ['goose'] });
    const { body } = await getJson(`${s.base}/skills?agent=goose`);
    assert.equal(body.generation, 2);
    assert.deepEqual(
      body.skills.map((skill: { name: string }) => skill.name),
      ['gz', 'zip'],
    );
  });

  it('resumes after Last-Event-ID (header or query) from the view’s log, and resets on an id it does not hold', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const first = await connect(t, `${s.base}/events?agent=goose`);
    const hello = await first.next(is('hello'));
    await change(s, { 'work/.goose/skills/one/SKILL.md': SK({ name: 'one', description: '1' }) });
    const one = await first.next(is('index'));
    assert.deepEqual(data(one), { generation: 2, added: ['one'], removed: [], changed: [] });
    first.close();
    // Missed while disconnected: a change of the view, then one it does not see (the default view's, and the musepi
    // profile's view after it: two generations).
    await change(s, { 'work/.goose/skills/two/SKILL.md': SK({ name: 'two', description: '2' }) });
    await change(s, { 'work/.musepi/skills/docx/SKILL.md': SK({ name: 'docx', description: 'Word' }) });
    assert.equal((await getJson(`${s.base}/skills?agent=goose`)).body.generation, 5);

    const resumed = await connect(t, `${s.base}/events?agent=goose`, { 'Last-Event-ID': one.id as string });
    const resumedHello = await resumed.next();
    assert.equal(resumedHello.event, 'hello');
    assert.equal(resumedHello.id, one.id);
    assert.deepEqual(data(resumedHello), { generation: 5, skills: 3, agent: 'goose' });
    const two = await resumed.next();
    assert.equal(two.event, 'index');
    assert.deepEqual(data(two), { generation: 3, added: ['two'], removed: [], changed: [] });

    // From the first position, by query: both changes again, in order, with the same ids.
    const replayed = await connect(t, `${s.base}/events?agent=goose&lastEventId=${hello.id}`);
    assert.equal((await replayed.next()).id, hello.id);
    const again = [await replayed.next(), await replayed.next()];
    assert.deepEqual(
      again.map((event) => [event.id, event.event]),
      [
        [one.id, 'index'],
        [two.id, 'index'],
      ],
    );

    // The default stream's ids mean nothing in the view's log: `reset`, with the current generation.
    const main = await connect(t, `${s.base}/events`);
    const mainId = (await main.next(is('hello'))).id as string;
    const reset = await connect(t, `${s.base}/events?agent=goose`, { 'Last-Event-ID': mainId });
    const resetHello = await reset.next();
    assert.equal(resetHello.event, 'hello');
    assert.equal(resetHello.id, two.id);
    const resetEvent = await reset.next();
    assert.equal(resetEvent.event, 'reset');
    assert.equal(resetEvent.id, two.id);
    assert.deepEqual(data(resetEvent), { generation: 5 });
  });

  it('sends the view’s collision as GET /skills?agent= shows it, and types= filters', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const collisions = await connect(t, `${s.base}/events?agent=goose&types=collision`);
    assert.equal((await collisions.next()).event, 'hello');
    // A second `gz` where Goose also looks: one of the two wins in Goose's view.
    await change(s, { 'work/.agents/skills/gz/SKILL.md': SK({ name: 'gz', description: 'shared' }) });
    const event = await collisions.next();
    assert.equal(event.event, 'collision');
    const { body } = await getJson(`${s.base}/skills?agent=goose`);
    assert.equal(body.collisions.length, 1);
    assert.deepEqual(data(event), { name: 'gz', state: 'new', collision: body.collisions[0] });
  });

  it('refuses an unknown agent with 400 UnknownAgent, as the other agent routes do (GET and HEAD)', async (t) => {
    const s = await startServer(t);
    const { status, headers, body } = await getJson(`${s.base}/events?agent=cursor`, {
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(status, 400);
    assert.match(headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(body, {
      statusCode: 400,
      code: 'UnknownAgent',
      error: 'Bad Request',
      message: `Unknown agent: cursor. Known agents: ${KNOWN}`,
    });
    const head = await new Promise<number>((resolve, reject) => {
      const req = request(`${s.base}/events?agent=cursor`, { method: 'HEAD', agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(head, 400);
    assert.equal(s.app.eventStreams.size, 0);
  });

  it('keeps its workspace open while it is open, as the default stream does', async (t) => {
    const s = await startServer(t, {
      tree: {
        'other/.git/HEAD': 'ref: refs/heads/main\n',
        'other/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'goose only' }),
        'third/.keep': '',
      },
      registry: { maxWorkspaces: 2 },
    });
    const other = `${s.root}/other`;
    const client = await connect(t, `${s.base}/events?agent=goose&cwd=${encodeURIComponent(other)}`);
    assert.deepEqual(data(await client.next(is('hello'))), { generation: 1, skills: 1, agent: 'goose' });
    // One workspace more than the cap: only a workspace without an open stream could make room for it.
    const third = await getJson(`${s.base}/skills?cwd=${encodeURIComponent(`${s.root}/third`)}`);
    assert.equal(third.status, 400);
    assert.equal(
      third.body.message,
      'Too many open workspaces (2), each with an open event stream; close one and retry',
    );
    await writeTree(other, { '.goose/skills/zip/SKILL.md': SK({ name: 'zip', description: 'Archives' }) });
    await (await s.registry.get(other)).rebuild();
    assert.deepEqual(data(await client.next(is('index'))), { generation: 2, added: ['zip'], removed: [], changed: [] });
    // Once it ends, the workspace is free to go.
    client.close();
    await waitUntil('the workspace makes room', async () => {
      return (await getJson(`${s.base}/skills?cwd=${encodeURIComponent(`${s.root}/third`)}`)).status === 200;
    });
    assert.deepEqual(s.registry.list().sort(), [s.cwd, `${s.root}/third`].sort());
  });

  it('ends with its client: the stream is no longer counted', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const client = await connect(t, `${s.base}/events?agent=codex`);
    assert.deepEqual(data(await client.next(is('hello'))), { generation: 1, skills: 0, agent: 'codex' });
    assert.equal(s.app.eventStreams.size, 1);
    client.close();
    await waitUntil('the stream is closed', () => s.app.eventStreams.size === 0);
  });
});
