import assert from 'node:assert/strict';
import { rename, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { discoverSkillChange } from '../../src/discovery/pipeline/discover-skills.js';
import { parseSettings } from '../../src/discovery/settings.js';
import { stateEventId } from '../../src/live-index/event-log.js';
import { getJson, startServer, type TestServer } from '../helpers/app-server.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

const PDF_TREE = { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) };

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

/** The id of the default workspace's current state (event-log.ts). */
async function stateId(s: TestServer): Promise<string> {
  const workspace = await s.registry.get();
  await workspace.ready;
  return String(stateEventId(workspace.snapshot!.contentHash));
}

/** Writes files and rebuilds the default workspace at once (deterministic, no watcher involved). */
async function change(s: TestServer, tree: Parameters<typeof writeTree>[1]): Promise<void> {
  await writeTree(s.root, tree);
  await (await s.registry.get()).rebuild();
}

describe('GET /events', () => {
  it('sends hello first, with an id, retry and the current generation', async (t) => {
    const s = await startServer(t, { tree: PDF_TREE });
    const client = await connect(t, `${s.base}/events`);
    assert.equal(client.status, 200);
    assert.equal(client.headers['content-type'], 'text/event-stream');
    assert.equal(client.headers['cache-control'], 'no-cache');
    const hello = await client.next();
    assert.equal(hello.event, 'hello');
    assert.equal(hello.id, await stateId(s));
    assert.equal(hello.retry, 3000);
    assert.deepEqual(data(hello), { generation: 1, skills: 1 });
  });

  it('sends an index event after a real edit of the skill tree', async (t) => {
    const s = await startServer(t, { tree: PDF_TREE, watch: true });
    await (await s.registry.get()).ready;
    const client = await connect(t, `${s.base}/events`);
    await client.next(is('hello'));
    await writeTree(s.root, { 'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }) });
    const added = await client.next(is('index'));
    assert.deepEqual(data(added), { generation: 2, added: ['docx'], removed: [], changed: [] });
    assert.equal(added.id, await stateId(s));
    // Replaced in one rename, as editors save: a plain rewrite is briefly an empty file, which discovery skips.
    await writeAtomically(`${s.cwd}/.musepi/skills/pdf/SKILL.md`, SK({ name: 'pdf', description: 'PDF tools, v2' }));
    const changed = await client.next(is('index'));
    assert.deepEqual(data(changed), { generation: 3, added: [], removed: [], changed: ['pdf'] });
    assert.equal(changed.id, await stateId(s));
    assert.notEqual(changed.id, added.id);
    await rm(`${s.cwd}/.musepi/skills/docx`, { recursive: true });
    const removed = await client.next(is('index'));
    assert.deepEqual(data(removed), { generation: 4, added: [], removed: ['docx'], changed: [] });
    const { body } = await getJson(`${s.base}/skills`);
    assert.equal(body.generation, 4);
  });

  it('sends collision events when a collision appears, changes and is resolved', async (t) => {
    const s = await startServer(t, { tree: PDF_TREE });
    const client = await connect(t, `${s.base}/events`);
    await client.next(is('hello'));
    await change(s, { 'work/.claude/skills/pdf/SKILL.md': SK({ description: 'Claude PDF' }) });
    const native = {
      id: 'native:project',
      provider: 'native',
      providerName: 'MusePi',
      level: 'project',
      path: `${s.cwd}/.musepi/skills/pdf/SKILL.md`,
    };
    const claudePath = `${s.cwd}/.claude/skills/pdf/SKILL.md`;
    const claude = {
      id: 'claude:project',
      provider: 'claude',
      providerName: 'Claude Code',
      level: 'project',
      path: claudePath,
    };
    const collision = {
      name: 'pdf',
      winner: { filePath: native.path, source: native },
      shadowed: [{ filePath: claudePath, source: claude, reason: 'precedence' }],
    };
    const index = await client.next(is('index'));
    assert.deepEqual(data(index), { generation: 2, added: [], removed: [], changed: [] });
    const appeared = await client.next();
    assert.equal(appeared.event, 'collision');
    assert.deepEqual(data(appeared), { name: 'pdf', state: 'new', collision });
    await change(s, { 'work/.agents/skills/pdf/SKILL.md': SK({ description: 'Agents PDF' }) });
    const changedEvent = await client.next(is('collision'));
    const agentsPath = `${s.cwd}/.agents/skills/pdf/SKILL.md`;
    assert.deepEqual(data(changedEvent), {
      name: 'pdf',
      state: 'changed',
      collision: {
        ...collision,
        shadowed: [
          ...collision.shadowed,
          {
            filePath: agentsPath,
            source: {
              id: 'agents:project',
              provider: 'agents',
              providerName: 'Agent Dirs (.agent/.agents)',
              level: 'project',
              path: agentsPath,
            },
            reason: 'precedence',
          },
        ],
      },
    });
    await rm(`${s.cwd}/.claude`, { recursive: true });
    await rm(`${s.cwd}/.agents`, { recursive: true });
    await (await s.registry.get()).rebuild();
    const resolved = await client.next(is('collision'));
    assert.equal((data(resolved) as { state: string }).state, 'resolved');
    assert.equal((data(resolved) as { name: string }).name, 'pdf');
  });

  it('sends a warning event when a new reference warning appears (docs/discovery.md §11 ex. 8)', async (t) => {
    const s = await startServer(t, {
      tree: { 'c1/same-name/SKILL.md': SK({ description: 'd' }), 'c2/.keep': '' },
      settings: { skills: { customDirectories: ['../c1', '../c2'] } },
    });
    const client = await connect(t, `${s.base}/events`);
    await client.next(is('hello'));
    await change(s, { 'c2/same-name/SKILL.md': SK({ description: 'd' }) });
    const warning = await client.next(is('warning'));
    // Relative custom directories stay relative in the warning (docs/discovery.md §5 step 4).
    assert.deepEqual(data(warning), {
      skillPath: '../c2/same-name/SKILL.md',
      message: 'name collision: "same-name" already loaded from ../c1/same-name/SKILL.md, skipping this one',
    });
    // The same warning on later rebuilds is not new: a warning of the second rebuild would arrive before the
    // third rebuild's index event.
    await change(s, { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF' }) });
    await change(s, { 'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }) });
    assert.deepEqual(data(await client.next((event) => event.event === 'index' && event.data.includes('docx'))), {
      generation: 4,
      added: ['docx'],
      removed: [],
      changed: [],
    });
    assert.equal(client.events.filter(is('warning')).length, 1);
  });

  it('replays every missed event after Last-Event-ID, with nothing lost across a reconnect', async (t) => {
    const s = await startServer(t, { tree: PDF_TREE });
    const first = await connect(t, `${s.base}/events`);
    await first.next(is('hello'));
    await change(s, { 'work/.musepi/skills/a/SKILL.md': SK({ description: 'A' }) });
    const seen = await first.next(is('index'));
    first.close();
    await change(s, { 'work/.musepi/skills/b/SKILL.md': SK({ description: 'B' }) });
    await change(s, { 'work/.claude/skills/b/SKILL.md': SK({ description: 'B2' }) });
    const second = await connect(t, `${s.base}/events`, { 'last-event-id': seen.id! });
    const hello = await second.next();
    assert.equal(hello.event, 'hello');
    assert.equal(hello.id, seen.id);
    assert.deepEqual(data(hello), { generation: 4, skills: 3 });
    const replayed = [await second.next(), await second.next(), await second.next()];
    assert.deepEqual(
      replayed.map((event) => [event.event, data(event)]),
      [
        ['index', { generation: 3, added: ['b'], removed: [], changed: [] }],
        ['index', { generation: 4, added: [], removed: [], changed: [] }],
        [
          'collision',
          { name: 'b', state: 'new', collision: (await getJson(`${s.base}/collisions`)).body.collisions[0] },
        ],
      ],
    );
    // The last event of the change to the current state carries that state's id; the others are distinct.
    const ids = replayed.map((event) => event.id);
    assert.equal(new Set([seen.id, ...ids]).size, 4);
    assert.equal(ids[2], await stateId(s));
    // Live events follow the replay.
    await change(s, { 'work/.musepi/skills/c/SKILL.md': SK({ description: 'C' }) });
    const live = await second.next(is('index'));
    assert.deepEqual(data(live), { generation: 5, added: ['c'], removed: [], changed: [] });
    assert.equal(live.id, await stateId(s));
    // The query parameter works like the header.
    const third = await connect(t, `${s.base}/events?lastEventId=${seen.id}`);
    await third.next(is('hello'));
    assert.deepEqual(data(await third.next()), { generation: 3, added: ['b'], removed: [], changed: [] });
  });

  it('sends reset when the id names a state that was evicted, never held, or is not an id', async (t) => {
    const s = await startServer(t, { tree: PDF_TREE, registry: { eventLogCapacity: 2 } });
    const states = [await stateId(s)];
    for (const name of ['a', 'b', 'c']) {
      await change(s, { [`work/.musepi/skills/${name}/SKILL.md`]: SK({ description: name }) });
      states.push(await stateId(s));
    }
    // Three changes were logged and the first was evicted: resuming from the first state would miss it.
    for (const lastEventId of [states[0]!, '99', 'not-a-number']) {
      const client = await connect(t, `${s.base}/events`, { 'last-event-id': lastEventId });
      const hello = await client.next();
      assert.equal(hello.event, 'hello');
      assert.equal(hello.id, states[3]);
      const reset = await client.next();
      assert.equal(reset.event, 'reset', lastEventId);
      assert.deepEqual(data(reset), { generation: 4 });
      // A client that resumes from the reset's id after refetching `/skills` continues from the current state.
      assert.equal(reset.id, states[3]);
      client.close();
    }
    // The state the evicted change led to: a client that saw it misses nothing.
    const ok = await connect(t, `${s.base}/events`, { 'last-event-id': states[1]! });
    await ok.next(is('hello'));
    assert.deepEqual(data(await ok.next()), { generation: 3, added: ['b'], removed: [], changed: [] });
    assert.deepEqual(data(await ok.next()), { generation: 4, added: ['c'], removed: [], changed: [] });
  });

  it('limits the event types with types=', async (t) => {
    const s = await startServer(t, { tree: PDF_TREE });
    const client = await connect(t, `${s.base}/events?types=collision,warning`);
    const hello = await client.next();
    assert.equal(hello.event, 'hello');
    await change(s, { 'work/.claude/skills/pdf/SKILL.md': SK({ description: 'C' }) });
    await change(s, { 'work/.musepi/skills/x/SKILL.md': SK({ description: 'x' }) });
    await change(s, { 'work/.agents/skills/x/SKILL.md': SK({ description: 'x' }) });
    const first = await client.next();
    const second = await client.next();
    assert.deepEqual(
      [first.event, (data(first) as { name: string }).name, second.event, (data(second) as { name: string }).name],
      ['collision', 'pdf', 'collision', 'x'],
    );
    assert.equal(client.events.some(is('index')), false);
  });

  it('keeps the events of each workspace (?cwd=) apart', async (t) => {
    const s = await startServer(t, { tree: { ...PDF_TREE, 'other/.keep': '' }, watch: true });
    const otherCwd = `${s.root}/other`;
    const main = await connect(t, `${s.base}/events`);
    const other = await connect(t, `${s.base}/events?cwd=${encodeURIComponent(otherCwd)}`);
    assert.deepEqual(data(await main.next(is('hello'))), { generation: 1, skills: 1 });
    assert.deepEqual(data(await other.next(is('hello'))), { generation: 1, skills: 0 });
    await (await s.registry.get(otherCwd)).ready;
    await writeTree(s.root, { 'other/.musepi/skills/only-other/SKILL.md': SK({ description: 'O' }) });
    assert.deepEqual(data(await other.next(is('index'))), {
      generation: 2,
      added: ['only-other'],
      removed: [],
      changed: [],
    });
    await writeTree(s.root, { 'work/.musepi/skills/only-main/SKILL.md': SK({ description: 'M' }) });
    assert.deepEqual(data(await main.next(is('index'))), {
      generation: 2,
      added: ['only-main'],
      removed: [],
      changed: [],
    });
    assert.deepEqual(
      main.events.filter(is('index')).map((event) => (data(event) as { added: string[] }).added),
      [['only-main']],
    );
    assert.deepEqual(
      other.events.filter(is('index')).map((event) => (data(event) as { added: string[] }).added),
      [['only-other']],
    );
  });

  it('sends settings and settings-error events to every workspace stream', async (t) => {
    const s = await startServer(t, { tree: { ...PDF_TREE, 'other/.keep': '' } });
    const main = await connect(t, `${s.base}/events`);
    const other = await connect(t, `${s.base}/events?cwd=${encodeURIComponent(`${s.root}/other`)}`);
    await main.next(is('hello'));
    await other.next(is('hello'));
    await s.registry.applySettings(parseSettings({ skills: { enablePiProject: false } }), '/etc/skillsd.json');
    assert.deepEqual(data(await main.next(is('index'))), { generation: 2, added: [], removed: ['pdf'], changed: [] });
    assert.deepEqual(data(await main.next(is('settings'))), { source: '/etc/skillsd.json', generation: 2 });
    assert.deepEqual(data(await other.next(is('settings'))), { source: '/etc/skillsd.json', generation: 1 });
    s.registry.reportSettingsError('/etc/skillsd.json', 'unknown setting "profil"');
    for (const client of [main, other]) {
      assert.deepEqual(data(await client.next(is('settings-error'))), {
        source: '/etc/skillsd.json',
        message: 'unknown setting "profil"',
      });
    }
    assert.equal((await getJson(`${s.base}/skills`)).body.skills.length, 0);
  });

  it('sends : ping comments at the heartbeat interval', async (t) => {
    const s = await startServer(t, { app: { heartbeatMs: 30 } });
    const client = await connect(t, `${s.base}/events`);
    await client.next(is('hello'));
    assert.equal(await client.nextComment(), 'ping');
  });

  it('ends open streams when the app closes, without hanging', async (t) => {
    const s = await startServer(t);
    const client = await connect(t, `${s.base}/events`);
    await client.next(is('hello'));
    await s.app.close();
    await client.closedByServer();
  });

  it('leaves no subscription behind for a client gone before its stream started', async (t) => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const s = await startServer(t, {
      ready: false,
      app: { readyWaitMs: 10_000 },
      registry: {
        discover: async (ctx, options) => {
          await gate;
          return discoverSkillChange(ctx, options);
        },
      },
    });
    const arrived = new Promise<void>((resolve) => s.app.server.once('request', () => resolve()));
    const req = request(`${s.base}/events`, { agent: false });
    req.on('error', () => {});
    req.end();
    await arrived;
    req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const workspace = await s.registry.get();
    await workspace.ready;
    // The handler has run to its end once another request has been answered after the index was ready.
    assert.equal((await getJson(`${s.base}/health`)).body.status, 'ok');
    assert.equal(workspace.events.subscriberCount, 0);
    assert.equal(s.app.eventStreams.size, 0);
  });

  it('answers 406 in the error shape to a client that refuses text/event-stream', async (t) => {
    const s = await startServer(t);
    const { status, body } = await getJson(`${s.base}/events`, { headers: { accept: 'application/json' } });
    assert.equal(status, 406);
    assert.deepEqual(body, {
      statusCode: 406,
      code: 'NotAcceptable',
      error: 'Not Acceptable',
      message: "This endpoint only produces 'text/event-stream'.",
    });
  });

  const bad: Array<[string, string]> = [
    [
      'types=index,nope',
      'querystring/types must be a comma-separated list of hello, index, collision, warning, settings, settings-error, reset, diagnostic',
    ],
    ['lastEventId=abc', 'querystring/lastEventId must match pattern'],
    ['cwd=relative', 'cwd must be an absolute path: relative'],
  ];
  for (const [query, message] of bad) {
    it(`refuses ?${query} with 400 BadRequest`, async (t) => {
      const s = await startServer(t);
      const { status, body } = await getJson(`${s.base}/events?${query}`);
      assert.equal(status, 400);
      assert.equal(body.code, 'BadRequest');
      assert.equal(body.message.startsWith(message), true, body.message);
      // A list of words is answered with the words, not with the regular expression that checks them.
      if (query.startsWith('types=')) assert.equal(body.message, message);
    });
  }
});

async function writeAtomically(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}
