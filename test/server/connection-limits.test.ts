// Bounded connection times (SECURITY.md §4, exhaustion), with small limits so that nothing waits long:
// a socket that sends nothing and a body that trickles are closed with 408; an `/events` stream is exempt from the
// idle timeout that closes quiet sockets. Every wait is on a socket event; the bounds are safety nets only.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { connectionCap, descriptorLimit } from '../../src/server/connection-limits.js';
import { startServer } from '../helpers/app-server.js';
import { SseClient } from '../helpers/sse-client.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const SAFETY_MS = 20_000;

/** Everything the server sends on `socket` until it closes the connection. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`still open; received ${JSON.stringify(text)}`)), SAFETY_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

function opened(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

const TIMEOUT_BODY = JSON.stringify({
  statusCode: 408,
  code: 'BadRequest',
  error: 'Request Timeout',
  message: 'The request was not received in time',
});

describe('connection times', () => {
  it('closes a socket that never sends a request, with 408', async (t) => {
    const s = await startServer(t, { app: { connections: { headersTimeoutMs: 200, checkIntervalMs: 50 } } });
    const socket = await opened(s.port);
    const received = await untilClosed(socket);
    assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.ok(received.endsWith(`\r\n\r\n${TIMEOUT_BODY}`), received);
  });

  it('closes a request whose body trickles, with 408', async (t) => {
    const s = await startServer(t, {
      app: { connections: { headersTimeoutMs: 200, requestTimeoutMs: 400, checkIntervalMs: 50 } },
    });
    const socket = await opened(s.port);
    const closed = untilClosed(socket);
    socket.write(
      `POST /invocations HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"text":"`,
    );
    // One byte at a time, for as long as the connection stays open.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('a');
    }, 20);
    try {
      const received = await closed;
      assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes a quiet socket, but not an /events stream that was quiet for longer', async (t) => {
    const s = await startServer(t, {
      app: { connections: { idleTimeoutMs: 150, keepAliveTimeoutMs: 60_000 }, heartbeatMs: 60_000 },
    });
    const stream = await SseClient.connect(`${s.base}/events`);
    t.after(() => stream.close());
    assert.equal(stream.status, 200);
    await stream.next((event) => event.event === 'hello');

    // Opened after the stream's last byte: its quiet time is shorter than the stream's when the idle timeout closes
    // it (the head deadline is far off: this is the idle timeout at work, which drops the socket without an answer).
    const socket = await opened(s.port);
    assert.equal(await untilClosed(socket), '');

    assert.equal(s.app.eventStreams.size, 1);
    // Still delivering.
    s.registry.reportSettingsError('/etc/skillsd.yaml', 'invalid YAML');
    await stream.next((event) => event.event === 'settings-error');
  });
});

describe('the connection cap', () => {
  it('is max(16, floor(limit × 3/4) − 64)', () => {
    const table = [
      { limit: 64, cap: 16 },
      { limit: 256, cap: 128 },
      { limit: 1024, cap: 704 },
      { limit: 65_536, cap: 49_088 },
    ];
    for (const { limit, cap } of table) assert.equal(connectionCap(limit), cap, `limit ${limit}`);
  });

  it('reads the soft descriptor limit from a limits file', async (t) => {
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    const file = `${dir}/limits`;
    await writeFile(
      file,
      'Limit                     Soft Limit           Hard Limit           Units     \n' +
        'Max open files            256                  4096                 files     \n',
    );
    assert.equal(descriptorLimit(file), 256);
    assert.equal(descriptorLimit(`${dir}/missing`), undefined);
    assert.equal(typeof descriptorLimit(), 'number');
  });

  it('is set on the server', async (t) => {
    const s = await startServer(t, { app: { connections: { maxConnections: 42 } } });
    assert.equal(s.app.server.maxConnections, 42);
  });
});
