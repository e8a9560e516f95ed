// The drain that ends libuv's accept loop once its own spare descriptor is lost (descriptor-drain.ts). That state
// comes from a race between threads and cannot be produced on demand, so the accept failures are raised here as Node
// raises them (the server's `error` event with code EMFILE, while listening) on a real server with real connections.

import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { descriptorDrain } from '../../src/server/descriptor-drain.js';
import { guardServer } from '../../src/server/guard-server.js';
import { waitUntil } from '../helpers/deadlines.js';

function devNullDescriptors(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === '/dev/null') count++;
    } catch {
      // Closed meanwhile.
    }
  }
  return count;
}

async function listening(): Promise<{ server: Server; port: number; accepted: Socket[] }> {
  const server = createServer((_request, response) => response.end('ok'));
  const accepted: Socket[] = [];
  server.on('connection', (socket: Socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { server, port: address.port, accepted };
}

/** A client connection, once the server holds its end; `closed` settles when the server closes it. */
async function client(
  port: number,
  accepted: Socket[],
  send?: string,
): Promise<{ socket: Socket; closed: Promise<void> }> {
  const before = accepted.length;
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (send !== undefined) socket.write(send);
  await waitUntil(
    'the server holds the connection',
    () => accepted.length > before && (send === undefined || accepted[before]!.bytesRead > 0),
  );
  return { socket, closed };
}

function emfile(): NodeJS.ErrnoException {
  return Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', errno: -24, syscall: 'accept' });
}

/** Closes the server and every connection it still holds. */
function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('descriptor drain', () => {
  it('gives up its spare first, then the oldest silent connections, then the oldest; restores the cap and the spare', async (t) => {
    const { server, port, accepted } = await listening();
    t.after(() => closeServer(server));
    server.maxConnections = 50;
    const spares = devNullDescriptors();
    const drain = descriptorDrain(server);
    assert.equal(drain.holdsSpare, true);
    assert.equal(devNullDescriptors(), spares + 1);

    const talking = await client(port, accepted, 'GET / HTTP/1.1\r\nHost: x\r\n');
    const silentOld = await client(port, accepted);
    const silentNew = await client(port, accepted);
    t.after(() => {
      for (const { socket } of [talking, silentOld, silentNew]) socket.destroy();
    });
    // The server's ends, in the order they were accepted.
    const destroyed = () => accepted.map((socket) => socket.destroyed);

    // All in one turn of the event loop, as libuv calls back.
    drain.release();
    assert.equal(drain.draining, true);
    assert.equal(server.maxConnections, 1);
    assert.equal(drain.holdsSpare, false);
    assert.equal(devNullDescriptors(), spares);
    assert.deepEqual(destroyed(), [false, false, false]);
    drain.release();
    assert.deepEqual(destroyed(), [false, true, false]);
    drain.release();
    assert.deepEqual(destroyed(), [false, true, true]);
    drain.release();
    assert.deepEqual(destroyed(), [true, true, true]);
    assert.equal(drain.connectionsClosed, 3);
    // Nothing is left to close: releasing again frees nothing and throws nothing.
    drain.release();
    assert.equal(drain.connectionsClosed, 3);
    await Promise.all([talking.closed, silentOld.closed, silentNew.closed]);

    await nextTurn();
    assert.equal(drain.draining, false);
    assert.equal(server.maxConnections, 50);
    assert.equal(drain.holdsSpare, true);
    assert.equal(devNullDescriptors(), spares + 1);
  });

  it('closes its spare with the server', async () => {
    const { server } = await listening();
    const spares = devNullDescriptors();
    const drain = descriptorDrain(server);
    assert.equal(devNullDescriptors(), spares + 1);
    await closeServer(server);
    assert.equal(drain.holdsSpare, false);
    assert.equal(devNullDescriptors(), spares);
  });
});

describe('guardServer on a failed accept', () => {
  it('reports the shortage each time, logs once per drain, frees a descriptor, and does not count drained connections as refusals', async (t) => {
    const { server, port, accepted } = await listening();
    t.after(() => closeServer(server));
    const warnings: string[] = [];
    let shortages = 0;
    guardServer(server, {
      maxConnections: 40,
      log: { warn: (_fields, message) => warnings.push(message), info: () => undefined },
      onShortage: () => shortages++,
    });
    const silent = await client(port, accepted);
    t.after(() => silent.socket.destroy());

    // As libuv calls back: the same turn, again and again until an accept succeeds.
    server.emit('error', emfile());
    server.emit('error', emfile());
    assert.equal(shortages, 2);
    assert.deepEqual(warnings, ['out of file descriptors: a connection could not be accepted']);
    assert.equal(server.maxConnections, 1);
    // A drop during the drain is not the cap refusing.
    server.emit('drop', { localAddress: '127.0.0.1' });
    // The first failure used the spare; the second closed the silent connection.
    await silent.closed;
    await nextTurn();
    assert.equal(server.maxConnections, 40);
    // No "refusing connections" line.
    assert.deepEqual(warnings, ['out of file descriptors: a connection could not be accepted']);

    // The next failure, in a later turn, is a new drain with its own line.
    server.emit('error', emfile());
    assert.equal(warnings.length, 2);
    await nextTurn();
    assert.equal(server.maxConnections, 40);
  });
});
