import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainedEventId, EventLog, type IndexEvent, stateEventId } from '../../src/live-index/event-log.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const HASH_C = 'c'.repeat(64);

function ids(result: ReturnType<EventLog['since']>): number[] | 'reset' {
  return result.kind === 'reset' ? 'reset' : result.events.map((event) => event.id);
}

/** A change of one `index` event leading to the state of `hash`. */
function change(log: EventLog, hash: string, n: number): IndexEvent {
  return log.appendChange(hash, [{ type: 'index', data: { n } }])[0]!;
}

describe('EventLog', () => {
  it('names the last event of a change after the state it leads to and chains the others', () => {
    const log = new EventLog();
    log.begin(HASH_A);
    assert.equal(log.headId, stateEventId(HASH_A));
    const events = log.appendChange(HASH_B, [
      { type: 'index', data: { generation: 2, added: ['x'], removed: [], changed: [] } },
      { type: 'warning', data: { skillPath: '/s', message: 'm' } },
    ]);
    assert.equal(events[0]!.json, '{"generation":2,"added":["x"],"removed":[],"changed":[]}');
    assert.equal(events[0]!.id, chainedEventId(stateEventId(HASH_A), 'index', events[0]!.json));
    assert.equal(events[1]!.id, stateEventId(HASH_B));
    const settings = log.append('settings', { source: 'cfg.json', generation: 2 });
    assert.equal(settings.id, chainedEventId(stateEventId(HASH_B), 'settings', settings.json));
    assert.equal(log.headId, settings.id);
    assert.equal(log.size, 3);
  });

  it('gives the same ids to two logs that saw the same history, whenever they started', () => {
    const early = new EventLog();
    early.begin(HASH_A);
    change(early, HASH_B, 1);
    const late = new EventLog();
    late.begin(HASH_B);
    assert.equal(late.headId, early.headId);
    const fromEarly = change(early, HASH_C, 2);
    const fromLate = change(late, HASH_C, 2);
    assert.equal(fromEarly.id, fromLate.id);
  });

  it('ids are integers below 2^52 and depend on the content only', () => {
    for (const hash of [HASH_A, HASH_B, HASH_C]) {
      const id = stateEventId(hash);
      assert.equal(Number.isSafeInteger(id) && id >= 0 && id < 2 ** 52, true);
      assert.equal(stateEventId(hash), id);
    }
    assert.notEqual(stateEventId(HASH_A), stateEventId(HASH_B));
    assert.notEqual(chainedEventId(1, 'index', '{}'), chainedEventId(2, 'index', '{}'));
    assert.notEqual(chainedEventId(1, 'index', '{}'), chainedEventId(1, 'warning', '{}'));
  });

  it('replays exactly the events after a known position', () => {
    const log = new EventLog();
    log.begin(HASH_A);
    const [first, second] = log.appendChange(HASH_B, [
      { type: 'index', data: { n: 1 } },
      { type: 'collision', data: { n: 2 } },
    ]);
    const third = change(log, HASH_C, 3);
    assert.deepEqual(ids(log.since(stateEventId(HASH_A))), [first!.id, second!.id, third.id]);
    // In the middle of a change: the rest of it follows.
    assert.deepEqual(ids(log.since(first!.id)), [second!.id, third.id]);
    assert.deepEqual(ids(log.since(stateEventId(HASH_B))), [third.id]);
    assert.deepEqual(ids(log.since(stateEventId(HASH_C))), []);
  });

  it('resets for a state it never held, a chain it did not log, or an id that is not one', () => {
    const log = new EventLog();
    log.begin(HASH_A);
    change(log, HASH_B, 1);
    assert.deepEqual(log.since(stateEventId(HASH_C)), { kind: 'reset' });
    // The same state reached through another change: its chained ids differ.
    assert.deepEqual(log.since(chainedEventId(stateEventId(HASH_C), 'index', '{"n":1}')), { kind: 'reset' });
    assert.deepEqual(log.since(Number.NaN), { kind: 'reset' });
    assert.deepEqual(log.since(2 ** 60), { kind: 'reset' });
  });

  it('resumes a state met twice from its newest occurrence', () => {
    const log = new EventLog();
    log.begin(HASH_A);
    change(log, HASH_B, 1);
    change(log, HASH_A, 2);
    const last = change(log, HASH_B, 3);
    const toC = change(log, HASH_C, 4);
    assert.equal(last.id, stateEventId(HASH_B));
    // From B, only what leads from B to the current state: the detour B → A → B changed nothing for the client.
    assert.deepEqual(ids(log.since(stateEventId(HASH_B))), [toC.id]);
  });

  it('keeps the last `capacity` events and resets from a position that was evicted', () => {
    const log = new EventLog({ capacity: 1000 });
    log.begin(HASH_A);
    const logged: IndexEvent[] = [];
    for (let i = 0; i < 1500; i++) logged.push(log.append('settings-error', { n: i }));
    assert.equal(log.size, 1000);
    // Events 0..499 are gone: resuming from 498 would lose 499, from 499 loses nothing.
    assert.deepEqual(log.since(logged[498]!.id), { kind: 'reset' });
    assert.deepEqual(log.since(stateEventId(HASH_A)), { kind: 'reset' });
    const fromEdge = ids(log.since(logged[499]!.id));
    assert.deepEqual(
      fromEdge,
      logged.slice(500).map((event) => event.id),
    );
  });

  it('starts its history at the first state: events before it belong to no state', () => {
    const log = new EventLog();
    const early = log.append('settings-error', { source: 'cfg.json', message: 'bad' });
    log.begin(HASH_A);
    log.begin(HASH_B);
    assert.equal(log.size, 0);
    assert.equal(log.headId, stateEventId(HASH_A));
    assert.deepEqual(log.since(early.id), { kind: 'reset' });
  });

  it('delivers appended events to subscribers in order until they unsubscribe', () => {
    const log = new EventLog();
    log.begin(HASH_A);
    const seen: IndexEvent[] = [];
    const unsubscribe = log.subscribe((event) => seen.push(event));
    assert.equal(log.subscriberCount, 1);
    const events = log.appendChange(HASH_B, [
      { type: 'index', data: { n: 1 } },
      { type: 'collision', data: { n: 2 } },
    ]);
    unsubscribe();
    change(log, HASH_C, 3);
    assert.deepEqual(
      seen.map((event) => [event.id, event.type]),
      [
        [events[0]!.id, 'index'],
        [events[1]!.id, 'collision'],
      ],
    );
    assert.equal(log.subscriberCount, 0);
  });

  it('delivers events to observers without counting them as subscribers', () => {
    const log = new EventLog();
    log.begin(HASH_A);
    const seen: string[] = [];
    const stop = log.observe((event) => seen.push(event.type));
    assert.deepEqual([log.subscriberCount, log.observerCount], [0, 1]);
    log.appendChange(HASH_B, [{ type: 'index', data: { n: 1 } }]);
    stop();
    change(log, HASH_C, 2);
    assert.deepEqual(seen, ['index']);
    assert.deepEqual([log.subscriberCount, log.observerCount], [0, 0]);
  });
});
