// The local peer check inside the app, with the real socket tables: the daemon is told it serves another uid than
// this test process's, so every client here is "another local user". The refusal is the same on the poll fast path
// and through Fastify, and the tables are read once per connection, however many requests it carries.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { openPeerTables, type PeerTables } from '../../src/server/peer-uid.js';
import { startServer } from '../helpers/app-server.js';
import { rawRequest } from '../helpers/raw-http.js';
import { SK } from '../helpers/temp-tree.js';

const linux = process.platform === 'linux' ? false : 'the socket tables are Linux-only';
const OWN_UID = process.getuid?.() ?? 0;
const SERVED_UID = OWN_UID + 4242;

/** The real tables, counting lookups. */
function countingTables(): PeerTables & { lookups: number } {
  const tables = openPeerTables();
  assert.ok(tables !== undefined);
  const counted = {
    lookups: 0,
    ownerOf: (ends: Parameters<PeerTables['ownerOf']>[0]) => {
      counted.lookups++;
      return tables.ownerOf(ends);
    },
    close: () => tables.close(),
  };
  return counted;
}

async function server(t: Parameters<typeof startServer>[0], uid: number, tables: PeerTables) {
  const s = await startServer(t, {
    tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) },
    app: {
      security: { bindHost: '127.0.0.1', getServerSettings: () => s.registry.settings.server, peerTables: tables, uid },
    },
  });
  t.after(() => tables.close());
  await (await s.registry.get()).ready;
  return s;
}

describe('the local peer check in the app', { skip: linux }, () => {
  it('refuses another uid with the same 403 on the fast path and through Fastify', async (t) => {
    const s = await server(t, SERVED_UID, countingTables());
    const expected = {
      statusCode: 403,
      code: 'ForbiddenPeer',
      error: 'Forbidden',
      message: `Connections from other local users are refused: this one belongs to uid ${OWN_UID}, the daemon serves uid ${SERVED_UID}`,
    };
    const fast = await rawRequest(s.port, ['GET /skills HTTP/1.1', `Host: 127.0.0.1:${s.port}`]);
    const routed = await rawRequest(s.port, ['GET /skills? HTTP/1.1', `Host: 127.0.0.1:${s.port}`]);
    for (const answer of [fast, routed]) {
      assert.equal(answer.status, 403);
      assert.deepEqual(JSON.parse(answer.body), expected);
    }
    assert.equal(s.app.pollFastPath?.answered, 0);
  });

  it('lets server.localPeers: any through, read live', async (t) => {
    const s = await server(t, SERVED_UID, countingTables());
    await s.registry.applySettings(
      { ...s.registry.settings, server: { ...s.registry.settings.server, localPeers: 'any' } },
      'test',
    );
    const answer = await rawRequest(s.port, ['GET /skills HTTP/1.1', `Host: 127.0.0.1:${s.port}`]);
    assert.equal(answer.status, 200);
  });

  it('reads the tables once per connection', async (t) => {
    const tables = countingTables();
    const s = await server(t, OWN_UID, tables);
    const before = tables.lookups;
    // Five requests on one keep-alive connection: fast path and Fastify alternately.
    const targets = ['/skills', '/skills?', '/health', '/skills', '/skill/pdf'];
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(s.port, '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
      socket.write(
        targets
          .map(
            (target, index) =>
              `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n${index === targets.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
          )
          .join(''),
      );
    });
    assert.equal(text.match(/HTTP\/1\.1 200 OK\r\n/g)?.length, targets.length);
    assert.equal(tables.lookups - before, 1);
  });
});
