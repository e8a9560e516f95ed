// `GET /events` of the built daemon over real sockets (docs/api.md §GET /events): the order and ids of events (derived from
// content: docs/index-and-events.md §Event ids), resuming
// with `Last-Event-ID` across a reconnect without losing an event, `reset`, the `types` filter, one stream per
// workspace with `?cwd=`, and SIGTERM ending open streams. One daemon serves the file; the last test stops it.

import assert from 'node:assert/strict';
import { rename, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient, type SseEvent } from '../helpers/sse-client.js';
import { addSkillFolder, makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const is =
  (type: string) =>
  (event: SseEvent): boolean =>
    event.event === type;

function data(event: SseEvent): unknown {
  return JSON.parse(event.data);
}

/** Ids are decimal integers below 2^52, and every position of a stream has its own. */
function assertDistinctIds(events: SseEvent[]): void {
  const ids = events.map((event) => event.id ?? '');
  for (const id of ids) assert.ok(/^[0-9]{1,16}$/.test(id) && Number(id) < 2 ** 52, `id ${id}`);
  assert.equal(new Set(ids).size, ids.length, `distinct ids: ${ids.join(', ')}`);
}

/** A raw TCP connection to the daemon; `closed` resolves when the server (or anyone) ends it. */
async function openSocket(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.resume();
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve())) };
}

describe('GET /events (built daemon, real sockets)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let project: string;
  let other: string;
  let lastIdBeforeStop = Number.NaN;
  let firstSeenId = '';
  const clients: SseClient[] = [];

  async function connect(path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = await SseClient.connect(`${daemon.url}${path}`, headers);
    clients.push(client);
    assert.equal(client.status, 200);
    return client;
  }

  /** Adds a project skill to `workspace` (no collision, no warning: exactly one `index` event). */
  async function addSkill(workspace: string, name: string): Promise<void> {
    await addSkillFolder(`${workspace}/.musepi/skills/${name}`, SK({ description: `Skill ${name}` }), root);
  }

  async function generationOf(cwd?: string): Promise<number> {
    const query = cwd === undefined ? '' : `?cwd=${encodeURIComponent(cwd)}`;
    return ((await (await fetch(`${daemon.url}/skills${query}`)).json()) as { generation: number }).generation;
  }

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-e2e-events-'));
    project = `${root}/project`;
    other = `${root}/other`;
    await writeTree(root, {
      'home/.keep': '',
      'project/.git': { dir: true },
      'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'project/.musepi/skills/docx/SKILL.md': SK({ name: 'docx', description: 'Word' }),
      'other/.git': { dir: true },
      'other/.musepi/skills/only-there/SKILL.md': SK({ description: 'Other workspace' }),
    });
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home: `${root}/home` });
  });
  after(async () => {
    for (const client of clients) client.close();
    await daemon?.process.kill();
    await cleanup?.();
  });

  it('sends hello first with { generation, skills }, retry once, as text/event-stream', async () => {
    const client = await connect('/events');
    assert.equal(client.headers['content-type'], 'text/event-stream');
    const hello = await client.next();
    assert.equal(hello.event, 'hello');
    assert.deepEqual(data(hello), { generation: 1, skills: 2 });
    assert.equal(hello.retry, 3000);
    assert.match(hello.id ?? '', /^[0-9]+$/);
    client.close();
  });

  it('sends index events with distinct ids, and resumes after a reconnect with exactly the missed events', async () => {
    const first = await connect('/events');
    const hello = await first.next(is('hello'));
    await addSkill(project, 'one');
    const seen = await first.next(is('index'));
    assert.deepEqual(data(seen), { generation: 2, added: ['one'], removed: [], changed: [] });
    assertDistinctIds([hello, seen]);
    first.close();

    // Three changes while disconnected, each indexed before the next (so each is its own event).
    for (const [index, name] of ['two', 'three', 'four'].entries()) {
      await addSkill(project, name);
      const deadline = Date.now() + 5000;
      while ((await generationOf()) !== 3 + index && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(await generationOf(), 3 + index);
    }

    const resumed = await connect('/events', { 'last-event-id': seen.id! });
    const again = await resumed.next();
    assert.equal(again.event, 'hello');
    assert.equal(again.id, seen.id);
    assert.deepEqual(data(again), { generation: 5, skills: 6 });
    const replayed = [await resumed.next(), await resumed.next(), await resumed.next()];
    assert.deepEqual(
      replayed.map((event) => [event.event, data(event)]),
      [
        ['index', { generation: 3, added: ['two'], removed: [], changed: [] }],
        ['index', { generation: 4, added: ['three'], removed: [], changed: [] }],
        ['index', { generation: 5, added: ['four'], removed: [], changed: [] }],
      ],
    );
    // Then live events, after the replay.
    await addSkill(project, 'five');
    const live = await resumed.next();
    assert.deepEqual([live.event, data(live)], ['index', { generation: 6, added: ['five'], removed: [], changed: [] }]);
    assertDistinctIds([again, ...replayed, live]);
    firstSeenId = seen.id!;

    // `?lastEventId=` is the same as the header.
    const byQuery = await connect(`/events?lastEventId=${seen.id}`);
    const queried = [await byQuery.next(), await byQuery.next(), await byQuery.next(), await byQuery.next()];
    assert.deepEqual(
      queried.map((event) => event.id),
      [seen.id, ...replayed.map((event) => event.id)],
    );
    const fourth = await byQuery.next();
    assert.equal(fourth.id, live.id);
    // Resuming from the latest id replays nothing and repeats nothing.
    const current = await connect('/events', { 'last-event-id': live.id! });
    assert.equal((await current.next()).id, live.id);
    await addSkill(project, 'six');
    const next = await current.next();
    assert.deepEqual(data(next), { generation: 7, added: ['six'], removed: [], changed: [] });
    assertDistinctIds([live, next]);
    for (const client of [resumed, byQuery, current]) client.close();
  });

  it('sends reset after hello when the id is too old (header or query), from the future or malformed', async () => {
    const generation = await generationOf();
    for (const [path, headers] of [
      ['/events', { 'last-event-id': '1' }],
      ['/events?lastEventId=1', {}],
      // From the future (another daemon run) or malformed: the client cannot be caught up either.
      ['/events', { 'last-event-id': '99999999999999' }],
      ['/events', { 'last-event-id': 'abc' }],
    ] as const) {
      const client = await connect(path, headers);
      const hello = await client.next();
      const reset = await client.next();
      assert.equal(hello.event, 'hello');
      assert.deepEqual([reset.event, data(reset)], ['reset', { generation }]);
      // Both name the current position: resuming from it after refetching `/skills` misses nothing.
      assert.equal(reset.id, hello.id);
      client.close();
    }
  });

  it('types=index leaves collision events out', async () => {
    const all = await connect('/events');
    const onlyIndex = await connect('/events?types=index');
    await all.next(is('hello'));
    await onlyIndex.next(is('hello'));
    // A lower-priority duplicate of pdf: the answer changes (a new collision) but no skill does.
    const claudePdf = `${project}/.claude/skills/pdf`;
    await addSkillFolder(claudePdf, SK({ name: 'pdf', description: 'Claude PDF' }), root);
    const index = await all.next();
    const collision = await all.next();
    assert.equal(index.event, 'index');
    assert.deepEqual(
      [collision.event, (data(collision) as { name: string; state: string }).state],
      ['collision', 'new'],
    );
    assert.equal((await onlyIndex.next()).id, index.id);
    // Rename it away: the collision resolves; the filtered stream again sees the index event only.
    await rename(claudePdf, `${project}/.claude/skills/.pdf-off`);
    const resolvedIndex = await all.next();
    const resolved = await all.next();
    assert.deepEqual([resolved.event, (data(resolved) as { state: string }).state], ['collision', 'resolved']);
    const filtered = await onlyIndex.next();
    assert.equal(filtered.id, resolvedIndex.id);
    assert.deepEqual(
      onlyIndex.events.map((event) => event.event),
      ['hello', 'index', 'index'],
    );
    all.close();
    onlyIndex.close();
  });

  it('?cwd= streams the events of that workspace only', async () => {
    const mine = await connect('/events');
    const theirs = await connect(`/events?cwd=${encodeURIComponent(other)}`);
    assert.deepEqual(data(await theirs.next(is('hello'))), { generation: 1, skills: 1 });
    const myHello = await mine.next(is('hello'));

    // Saved by rename, as editors do: a rewrite in place is briefly an empty file.
    await writeFile(`${root}/pdf.tmp`, SK({ name: 'pdf', description: 'PDF tools v2' }));
    await rename(`${root}/pdf.tmp`, `${project}/.musepi/skills/pdf/SKILL.md`);
    const mineChanged = await mine.next(is('index'));
    assert.deepEqual((data(mineChanged) as { changed: string[] }).changed, ['pdf']);

    await addSkill(other, 'other-two');
    const theirsAdded = await theirs.next();
    assert.deepEqual(data(theirsAdded), { generation: 2, added: ['other-two'], removed: [], changed: [] });
    // Nothing of the other workspace reached either stream.
    assert.deepEqual(
      theirs.events.map((event) => event.event),
      ['hello', 'index'],
    );
    await addSkill(project, 'seven');
    const mineAdded = await mine.next();
    assert.deepEqual((data(mineAdded) as { added: string[] }).added, ['seven']);
    assert.deepEqual(
      mine.events.map((event) => event.event),
      ['hello', 'index', 'index'],
    );
    assertDistinctIds([myHello, mineChanged, mineAdded]);
    // Each workspace answers its own skills.
    const theirSkills = (await (await fetch(`${daemon.url}/skills?cwd=${encodeURIComponent(other)}`)).json()) as {
      cwd: string;
      skills: Array<{ name: string }>;
    };
    assert.equal(theirSkills.cwd, other);
    assert.deepEqual(
      theirSkills.skills.map((skill) => skill.name),
      ['only-there', 'other-two'],
    );
    // A user-level skill belongs to both: each stream hears of it, with its own workspace's generation.
    await addSkillFolder(`${root}/home/.claude/skills/shared`, SK({ description: 'Shared' }), root);
    assert.deepEqual(data(await theirs.next()), { generation: 3, added: ['shared'], removed: [], changed: [] });
    // The default workspace is at its twelfth answer by now: eleven changes made by the tests above.
    assert.deepEqual(data(await mine.next()), { generation: 12, added: ['shared'], removed: [], changed: [] });
    mine.close();
    theirs.close();
  });

  it('SIGTERM with two open streams (and idle or half-sent connections): all end, exit 0 within 5 s', async () => {
    const a = await connect('/events');
    const b = await connect(`/events?cwd=${encodeURIComponent(other)}`);
    await a.next(is('hello'));
    await b.next(is('hello'));
    // A connection that never sends a request, and one stuck halfway through its head.
    const idle = await openSocket(daemon.port);
    const half = await openSocket(daemon.port);
    half.socket.write('GET /skills HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    daemon.process.child.kill('SIGTERM');
    await Promise.all([a.closedByServer(), b.closedByServer(), idle.closed, half.closed]);
    // Exit code 0 is the proof of the 5 s bound: past it, the daemon's shutdown guard exits 1 on its own clock.
    assert.deepEqual(await daemon.process.waitForExit(), { code: 0, signal: null });
    assert.ok(daemon.process.logs.some((line) => line.msg === 'skillsd stopped'));
    lastIdBeforeStop = Number(a.events.at(-1)?.id);
  });

  it('after a restart over the same files, the last id resumes with nothing to replay; an older one gets reset', async () => {
    assert.ok(Number.isSafeInteger(lastIdBeforeStop));
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home: `${root}/home` });
    // The same files, so the same state and the same id: the client is up to date.
    const resumed = await connect('/events', { 'last-event-id': String(lastIdBeforeStop) });
    const hello = await resumed.next();
    assert.deepEqual([hello.event, hello.id], ['hello', String(lastIdBeforeStop)]);
    await addSkill(project, 'eight');
    // The live doctor may report a finding about the half-written folder first (on a loaded machine the SKILL.md can
    // come more than its quiet time after the folder): that is news of this run, not a replay, so it is passed over.
    const live = await resumed.next((event) => event.event !== 'diagnostic');
    assert.deepEqual([live.event, (data(live) as { added: string[] }).added], ['index', ['eight']]);
    // A state of the previous run that this run never held: the client must refetch, which reset tells it.
    const stale = await connect('/events', { 'last-event-id': firstSeenId });
    const staleHello = await stale.next();
    const reset = await stale.next();
    assert.equal(staleHello.event, 'hello');
    assert.deepEqual([reset.event, data(reset)], ['reset', { generation: 2 }]);
    assert.deepEqual([staleHello.id, reset.id], [live.id, live.id]);
    for (const client of [resumed, stale]) client.close();
  });
});
