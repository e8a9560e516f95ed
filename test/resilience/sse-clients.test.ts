// Event-stream clients that misbehave: hundreds that vanish without closing, and one that never reads. The server
// must release every stream of a vanished client, and cut off a client that stopped reading once its backlog passes
// a bound, while a well-behaved client on the same server keeps up (docs/api.md §GET /events).

import assert from 'node:assert/strict';
import { rename } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getJson, startServer } from '../helpers/app-server.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK, type TreeEntry } from '../helpers/temp-tree.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Opens `GET /events` on a raw socket and resolves once the `hello` event arrived. */
function openRawStream(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.includes('event: hello')) {
        socket.off('data', onData);
        socket.pause();
        resolve(socket);
      }
    };
    socket.on('data', onData);
    socket.on('error', reject);
    socket.write('GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n');
  });
}

async function until(label: string, predicate: () => boolean | Promise<boolean>, deadlineMs = WAIT_MS): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await predicate())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /events with misbehaving clients', () => {
  it('releases the streams of 200 clients that vanish without closing, round after round', async (t) => {
    const s = await startServer(t, { tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF' }) } });
    const workspace = await s.registry.get();
    const heap: number[] = [];
    for (let round = 0; round < 3; round++) {
      const sockets = await Promise.all(Array.from({ length: 200 }, () => openRawStream(s.port)));
      assert.equal(s.app.eventStreams.size, 200);
      assert.equal(workspace.events.subscriberCount, 200);
      // Half close with a FIN, half vanish with a RST, as a killed process or a dropped network would.
      sockets.forEach((socket, index) => {
        if (index % 2 === 0) socket.destroy();
        else socket.resetAndDestroy();
      });
      await until('every stream released', async () => (await getJson(`${s.base}/health`)).body.eventStreams === 0);
      assert.equal(workspace.events.subscriberCount, 0);
      gc();
      heap.push(process.memoryUsage().heapUsed);
    }
    // 200 streams cost far less than this; a leak of each would show as growth round after round.
    const growth = heap[2]! - heap[0]!;
    assert.ok(growth < 4 * 1024 * 1024, `heap grew ${growth} bytes over two rounds of 200 clients`);
  });

  it('cuts off a client that never reads, and a reading client keeps up', async (t) => {
    // Long names make every index event big: toggling the whole directory gives ~66 KB per event.
    const tree: Record<string, TreeEntry> = {};
    const names: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const name = `skill-${String(i).padStart(4, '0')}-${'x'.repeat(52)}`;
      names.push(name);
      tree[`work/.musepi/skills/${name}/SKILL.md`] = SK({ description: 'd' });
    }
    const s = await startServer(t, { tree });
    const workspace = await s.registry.get();
    await workspace.ready;

    // A stalled stream must not grow anything per event but its bounded buffer (no listener per pending write).
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    t.after(() => process.off('warning', onWarning));

    const slow = await openRawStream(s.port);
    t.after(() => slow.destroy());
    const reader = await SseClient.connect(`${s.base}/events?types=index`);
    t.after(() => reader.close());
    await reader.next((event) => event.event === 'hello');
    assert.equal(s.app.eventStreams.size, 2);

    const skills = join(s.cwd, '.musepi', 'skills');
    const parked = join(s.cwd, '.musepi', 'parked');
    let sent = 0;
    let toggles = 0;
    // Far more than the kernel's socket buffers plus the server's 1 MiB allowance.
    while (s.app.eventStreams.size === 2 && toggles < 400) {
      await rename(toggles % 2 === 0 ? skills : parked, toggles % 2 === 0 ? parked : skills);
      await workspace.rebuild();
      toggles++;
      // The reading client receives each event before the next edit.
      const event = await reader.next((e) => e.event === 'index', 2000);
      const change = JSON.parse(event.data) as { added: string[]; removed: string[] };
      assert.deepEqual(toggles % 2 === 1 ? change.removed : change.added, names);
      sent += event.data.length;
    }
    assert.equal(s.app.eventStreams.size, 1, `the slow client is still connected after ${toggles} events`);
    assert.deepEqual(warnings, []);
    const health = await getJson(`${s.base}/health`);
    assert.equal(health.body.eventStreams, 1);
    t.diagnostic(`slow client cut off after ${toggles} events (${Math.round(sent / 1024)} KiB of event data)`);

    // The reader stays live after the cut.
    await rename(toggles % 2 === 0 ? skills : parked, toggles % 2 === 0 ? parked : skills);
    await workspace.rebuild();
    await reader.next((e) => e.event === 'index', 2000);

    // What the slow client gets when it reads at last: what was buffered, then the end of the stream.
    let received = 0;
    slow.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    const ended = new Promise((resolve) => slow.once('close', resolve));
    slow.resume();
    await ended;
    assert.ok(received < sent, `the slow client received ${received} of ${sent} bytes`);
  });
});
