import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEventIdSource, EventLog, type IndexEvent } from '../../src/index/event-log.js';

describe('EventLog', () => {
  it('gives growing ids from the shared counter and serialises data once', () => {
    const ids = createEventIdSource(100);
    const a = new EventLog({ ids });
    const b = new EventLog({ ids });
    const first = a.append('index', { generation: 2, added: ['x'], removed: [], changed: [] });
    const second = b.append('warning', { skillPath: '', message: 'm' });
    const third = a.append('settings', { source: 'cfg.json', generation: 2 });
    assert.deepEqual([first.id, second.id, third.id], [101, 102, 103]);
    assert.equal(first.json, '{"generation":2,"added":["x"],"removed":[],"changed":[]}');
    assert.equal(ids.current(), 103);
    assert.equal(a.latestId, 103);
    assert.equal(a.size, 2);
  });

  it('replays exactly the events after an id', () => {
    const log = new EventLog({ ids: createEventIdSource(0) });
    for (let i = 0; i < 5; i++) log.append('index', { n: i });
    const replay = log.since(2);
    assert.equal(replay.kind, 'replay');
    assert.deepEqual(replay.kind === 'replay' ? replay.events.map((event) => event.id) : [], [3, 4, 5]);
    const none = log.since(5);
    assert.deepEqual(none, { kind: 'replay', events: [] });
    // Id 0 is the position before the first event: everything is still held.
    const all = log.since(0);
    assert.equal(all.kind === 'replay' ? all.events.length : -1, 5);
  });

  it('keeps the last `capacity` events and asks for a reset from an evicted id', () => {
    const log = new EventLog({ ids: createEventIdSource(0), capacity: 1000 });
    for (let i = 0; i < 1500; i++) log.append('index', { n: i });
    assert.equal(log.size, 1000);
    // Events 1..500 are gone: resuming from 499 would lose 500, from 500 loses nothing.
    assert.deepEqual(log.since(499), { kind: 'reset' });
    const fromEdge = log.since(500);
    assert.equal(fromEdge.kind === 'replay' ? fromEdge.events.length : -1, 1000);
    assert.equal(fromEdge.kind === 'replay' ? fromEdge.events[0]?.id : -1, 501);
  });

  it('resets for an id from before the log existed or from the future', () => {
    const ids = createEventIdSource(50);
    const other = new EventLog({ ids });
    other.append('index', {});
    const log = new EventLog({ ids });
    log.append('index', {});
    assert.deepEqual(log.since(50), { kind: 'reset' });
    assert.equal(log.since(51).kind, 'replay');
    assert.deepEqual(log.since(53), { kind: 'reset' });
    assert.deepEqual(log.since(Number.NaN), { kind: 'reset' });
  });

  it('delivers appended events to subscribers in order until they unsubscribe', () => {
    const log = new EventLog({ ids: createEventIdSource(0) });
    const seen: IndexEvent[] = [];
    const unsubscribe = log.subscribe((event) => seen.push(event));
    assert.equal(log.subscriberCount, 1);
    log.append('index', { n: 1 });
    log.append('collision', { n: 2 });
    unsubscribe();
    log.append('index', { n: 3 });
    assert.deepEqual(
      seen.map((event) => [event.id, event.type]),
      [
        [1, 'index'],
        [2, 'collision'],
      ],
    );
    assert.equal(log.subscriberCount, 0);
  });

  it('allocates per-connection ids without recording them', () => {
    const log = new EventLog({ ids: createEventIdSource(10) });
    assert.equal(log.currentId(), 10);
    assert.equal(log.allocateId(), 11);
    assert.equal(log.size, 0);
    assert.deepEqual(log.since(11), { kind: 'replay', events: [] });
  });
});
