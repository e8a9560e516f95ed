// The session table's rules on their own, on a clock the test moves: what a full table evicts, what expires. A
// request's answer is anything with a `close` event (Node's response over HTTP; test/mcp/session-bounds.test.ts).

import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { SessionTable } from '../../src/mcp/session-table.js';

function table(maxSessions: number, idleTimeoutMs = 1000) {
  let clock = 0;
  const ended: string[] = [];
  const sessions = new SessionTable<string>({
    limits: () => ({ maxSessions, idleTimeoutMs }),
    end: (slot, reason) => ended.push(`${slot.id} ${reason}`),
    now: () => clock,
    sweepIntervalMs: 3_600_000,
  });
  const open = (id: string) => {
    const answer = new EventEmitter();
    const slot = sessions.reserve(id, answer);
    if (slot !== undefined) slot.value = id;
    answer.emit('close');
    return slot;
  };
  return { sessions, ended, open, advance: (ms: number) => (clock += ms) };
}

describe('SessionTable', () => {
  it('evicts the least recently used idle session, never one in flight or streaming', () => {
    const { sessions, ended, open } = table(3);
    const a = open('a')!;
    open('b');
    const c = open('c')!;
    const stream = new EventEmitter();
    sessions.stream(c, stream);
    const request = new EventEmitter();
    sessions.request(a, request);
    // a answers a request, c streams: b is the only one that can go.
    assert.ok(open('d'));
    assert.deepEqual(ended, ['b evicted']);
    // d is idle now (its initialize answered): it goes next, then nothing can.
    assert.ok(open('e'));
    assert.deepEqual(ended, ['b evicted', 'd evicted']);
    assert.equal(sessions.busy, 2);
    const e = sessions.get('e')!;
    sessions.request(e, new EventEmitter());
    assert.equal(open('f'), undefined);
    assert.equal(sessions.size, 3);
    // The request of a ends: a is the least recently used idle one again.
    request.emit('close');
    assert.ok(open('g'));
    assert.deepEqual(ended, ['b evicted', 'd evicted', 'a evicted']);
    assert.equal(sessions.peak, 3);
    sessions.close();
  });

  it('expires a session idle for the timeout, its open stream included, but not one answering a request', () => {
    const { sessions, ended, open, advance } = table(4, 1000);
    const streaming = open('streaming')!;
    sessions.stream(streaming, new EventEmitter());
    const busy = open('busy')!;
    const request = new EventEmitter();
    sessions.request(busy, request);
    open('quiet');
    advance(999);
    sessions.sweep();
    assert.deepEqual(ended, []);
    advance(1);
    sessions.sweep();
    assert.deepEqual(ended, ['streaming expired', 'quiet expired']);
    // The end of a request is activity: the timeout starts again from there.
    request.emit('close');
    advance(999);
    sessions.sweep();
    assert.equal(sessions.size, 1);
    advance(1);
    sessions.sweep();
    assert.deepEqual(ended, ['streaming expired', 'quiet expired', 'busy expired']);
    sessions.close();
  });
});
