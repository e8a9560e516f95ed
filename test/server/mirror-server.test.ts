// A host name bound on each of its addresses (`localhost` is 127.0.0.1 and ::1 on a dual-stack machine): the second
// address answers exactly as the first, behind the same guards (Host allow-list, clientError answers, connection
// cap, accept failures), and closes with the daemon. The resolver is given to `listenDaemon`, since this machine's
// `localhost` may resolve to one address only; the sockets, the server and the clients are real.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { listenAddresses, listenDaemon } from '../../src/cli/listen-daemon.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { WorkspaceRegistry } from '../../src/live-index/workspace-registry.js';
import { defaultConnectionLimits } from '../../src/server/connection-limits.js';
import { buildApp } from '../../src/server/listen.js';
import { connectionShare, createMirrorServer } from '../../src/server/mirror-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { rawRequest } from '../helpers/raw-http.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

interface Daemon {
  app: FastifyInstance;
  lines: Array<{ level: number; msg: string }>;
}

/** The app the daemon builds, over a one-skill workspace, not yet listening; closed after the test. */
async function unlistenedApp(t: TestContext, maxConnections?: number): Promise<Daemon> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-mirror-');
  await writeTree(root, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  });
  const registry = new WorkspaceRegistry({
    home: `${root}/home`,
    env: {},
    defaultCwd: `${root}/work`,
    settings: defaultSettings(),
    watch: false,
  });
  const lines: Daemon['lines'] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await buildApp({
    registry,
    getSettings: () => registry.settings,
    logger: pino({ level: 'info' }, sink),
    security: { bindHost: 'localhost', getServerSettings: () => defaultSettings().server },
    pressure: { maxEventLoopDelayMs: 0 },
    ...(maxConnections === undefined ? {} : { connections: { maxConnections } }),
  });
  t.after(async () => {
    await app.close();
    await registry.close();
    await cleanup();
  });
  await registry.defaultWorkspace.ready;
  return { app, lines };
}

const bothLoopbacks = async (): Promise<string[]> => ['127.0.0.1', '::1'];

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function get(port: number, address: string, target: string, headers: string[] = []) {
  return rawRequest(port, [`GET ${target} HTTP/1.1`, `Host: localhost:${port}`, ...headers], '', address);
}

/** An idle connection once the daemon's side has it (connected and not closed by the cap right away). */
function openIdle(port: number, address: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, address);
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return new Promise((resolve) => socket.once('connect', () => resolve({ socket, closed })));
}

describe('listenAddresses', () => {
  it('binds an address as given and a name on each address it resolves to, once each, in order', async () => {
    const never = async (): Promise<string[]> => assert.fail('an address is not resolved');
    assert.deepEqual(await listenAddresses('127.0.0.1', never), ['127.0.0.1']);
    assert.deepEqual(await listenAddresses('::1', never), ['::1']);
    assert.deepEqual(await listenAddresses('0.0.0.0', never), ['0.0.0.0']);
    assert.deepEqual(await listenAddresses('box', async () => ['127.0.0.1', '::1', '127.0.0.1']), ['127.0.0.1', '::1']);
    assert.deepEqual(await listenAddresses('box', async () => []), ['box']);
  });
});

describe('listenDaemon on a name with two addresses', () => {
  it('answers on ::1 exactly as on 127.0.0.1: same body and tag, the poll fast path, the Host guard', async (t) => {
    const { app, lines } = await unlistenedApp(t);
    const url = await listenDaemon(app, 'localhost', 0, bothLoopbacks);
    const port = portOf(url);
    assert.equal(url, `http://127.0.0.1:${port}`);
    const messages = lines.map((line) => line.msg);
    assert.ok(messages.includes(`skillsd listening on http://127.0.0.1:${port}`), messages.join('\n'));
    assert.ok(messages.includes(`skillsd reachable at http://[::1]:${port}`), messages.join('\n'));

    const v4 = await get(port, '127.0.0.1', '/skills');
    const v6 = await get(port, '::1', '/skills');
    assert.equal(v6.status, 200);
    assert.equal(v6.body, v4.body);
    assert.equal(JSON.parse(v6.body).skills[0].name, 'pdf');
    assert.equal(v6.headers.etag, v4.headers.etag);
    assert.equal(v6.headers['x-content-type-options'], 'nosniff');

    const answered = app.pollFastPath?.answered ?? 0;
    const again = await get(port, '::1', '/skills', [`If-None-Match: ${v4.headers.etag}`]);
    assert.equal(again.status, 304);
    assert.equal(app.pollFastPath?.answered, answered + 1);

    const foreign = await rawRequest(port, ['GET /skills HTTP/1.1', 'Host: evil.example'], '', '::1');
    assert.equal(foreign.status, 403);
    assert.equal(JSON.parse(foreign.body).code, 'ForbiddenHost');
    const limits = defaultConnectionLimits();
    assert.equal(app.server.maxConnections, connectionShare(limits.maxConnections, 2));
  });

  it('answers a malformed request on ::1 with the error JSON of the contract', async (t) => {
    const { app } = await unlistenedApp(t);
    const port = portOf(await listenDaemon(app, 'localhost', 0, bothLoopbacks));
    const answer = await rawRequest(port, ['GET /skills HTTP/1.1', 'Host: localhost', 'Bad Header: x'], '', '::1');
    assert.equal(answer.status, 400);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(Object.keys(JSON.parse(answer.body)), ['statusCode', 'code', 'error', 'message']);
    assert.equal(JSON.parse(answer.body).code, 'BadRequest');
  });

  it('splits the connection cap between the two addresses; a full ::1 refuses while 127.0.0.1 answers', async (t) => {
    const { app, lines } = await unlistenedApp(t, 4);
    const port = portOf(await listenDaemon(app, 'localhost', 0, bothLoopbacks));
    assert.equal(app.server.maxConnections, 2);
    const held = [await openIdle(port, '::1'), await openIdle(port, '::1')];
    const refused = await openIdle(port, '::1');
    await refused.closed;
    await waitUntil('the refusal is logged', () =>
      lines.some((line) => line.msg === 'refusing connections: 2 are open, the most this daemon accepts'),
    );
    assert.equal((await get(port, '127.0.0.1', '/health')).status, 200);
    // The first address has its share too, and says so when it is full.
    const heldV4 = [await openIdle(port, '127.0.0.1'), await openIdle(port, '127.0.0.1')];
    const refusedV4 = await openIdle(port, '127.0.0.1');
    await refusedV4.closed;
    await waitUntil(
      'the first address logs its own refusal',
      () => lines.filter((line) => line.msg.startsWith('refusing connections: ')).length === 2,
    );
    assert.deepEqual(
      lines.filter((line) => line.msg.startsWith('refusing connections: ')).map((line) => line.msg),
      [
        'refusing connections: 2 are open, the most this daemon accepts',
        'refusing connections: 2 are open, the most this daemon accepts',
      ],
    );
    for (const { socket, closed } of [...held, ...heldV4]) {
      socket.destroy();
      await closed;
    }
    // Room again on ::1 once its connections are gone.
    await waitUntil(
      '::1 answers again',
      async () => (await get(port, '::1', '/health').catch(() => undefined))?.status === 200,
    );
  });

  it('keeps serving on the first address when another address of the name cannot be bound', async (t) => {
    const { app, lines } = await unlistenedApp(t);
    // 192.0.2.0/24 is reserved for documentation: no machine has it, so binding it fails with EADDRNOTAVAIL.
    const url = await listenDaemon(app, 'box', 0, async () => ['127.0.0.1', '192.0.2.7']);
    const warning = lines.find((line) => line.msg.startsWith('not listening on 192.0.2.7'));
    assert.ok(warning !== undefined, lines.map((line) => line.msg).join('\n'));
    assert.match(warning.msg, /^not listening on 192\.0\.2\.7, an address of box: listen EADDRNOTAVAIL/);
    assert.equal(warning.level, 40);
    assert.equal((await get(portOf(url), '127.0.0.1', '/health')).status, 200);
  });

  it('stops listening on ::1 when the daemon closes', async (t) => {
    const { app } = await unlistenedApp(t);
    const port = portOf(await listenDaemon(app, 'localhost', 0, bothLoopbacks));
    const idle = await openIdle(port, '::1');
    await app.close();
    await idle.closed;
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '::1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    assert.equal(refused, 'ECONNREFUSED');
  });
});

describe('createMirrorServer', () => {
  it('survives a failed accept (EMFILE) on the mirror, logs it once, and keeps answering', async (t) => {
    const main: Server = createServer((_request, response) => response.end('main handler'));
    const warnings: string[] = [];
    let shortages = 0;
    const mirror = createMirrorServer(main, {
      limits: defaultConnectionLimits(),
      maxConnections: 8,
      log: { warn: (_fields, message) => warnings.push(message), info: () => undefined },
      onShortage: () => shortages++,
    });
    await new Promise<void>((resolve) => mirror.listen(0, '::1', resolve));
    t.after(() => new Promise((resolve) => mirror.close(resolve)));
    const { port } = mirror.address() as { port: number };
    // As Node raises a failed accept: the listening server's `error` event (without a listener, the process ends).
    mirror.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', errno: -24, syscall: 'accept' }));
    assert.equal(shortages, 1);
    assert.deepEqual(warnings, ['out of file descriptors: a connection could not be accepted']);
    const answer = await rawRequest(port, ['GET / HTTP/1.1', 'Host: localhost'], '', '::1');
    assert.equal(answer.body, 'main handler');
  });
});
