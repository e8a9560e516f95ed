import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunOnceQueueOne } from '../../src/live-index/run-once-queue-one.js';

/** A job whose runs the test ends one by one: `release(i)` ends run i (0-based), `fail(i, error)` makes it throw. */
function heldJob() {
  const ends: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const started: number[] = [];
  let waiters: Array<() => void> = [];
  const job = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      started.push(ends.length);
      ends.push({ resolve, reject });
      for (const wake of waiters) wake();
      waiters = [];
    });
  const runsStarted = async (count: number): Promise<void> => {
    while (started.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return {
    job,
    started,
    runsStarted,
    release: (i: number) => ends[i]!.resolve(),
    fail: (i: number, error: Error) => ends[i]!.reject(error),
  };
}

describe('RunOnceQueueOne', () => {
  it('runs at once when idle, and answers every call made during a run with one next run', async () => {
    const held = heldJob();
    const queue = new RunOnceQueueOne(held.job);
    const first = queue.run();
    assert.deepEqual(held.started, [0]);
    const during = [queue.run(), queue.run(), queue.run()];
    assert.equal(during[0], during[1]);
    assert.equal(during[1], during[2]);
    assert.deepEqual(held.started, [0]);
    held.release(0);
    await first;
    await held.runsStarted(2);
    assert.deepEqual(held.started, [0, 1]);
    // A call made during the second run waits for a third, not for the second.
    const third = queue.run();
    assert.notEqual(third, during[0]);
    held.release(1);
    await Promise.all(during);
    await held.runsStarted(3);
    held.release(2);
    await third;
    assert.deepEqual(held.started, [0, 1, 2]);
    assert.equal(queue.current, null);
  });

  it('a failed run rejects its own callers only: the waiting run still runs and settles the later ones', async () => {
    const held = heldJob();
    const queue = new RunOnceQueueOne(held.job);
    const first = queue.run();
    const second = queue.run();
    held.fail(0, new Error('disk on fire'));
    await assert.rejects(first, { message: 'disk on fire' });
    await held.runsStarted(2);
    held.release(1);
    await second;
    assert.deepEqual(held.started, [0, 1]);
  });

  it('idle resolves once nothing runs or waits, failures included', async () => {
    const held = heldJob();
    const queue = new RunOnceQueueOne(held.job);
    await queue.idle();
    const first = queue.run().catch(() => undefined);
    const second = queue.run();
    let idle = false;
    const waiting = queue.idle().then(() => {
      idle = true;
    });
    held.fail(0, new Error('no'));
    await first;
    await held.runsStarted(2);
    assert.equal(idle, false);
    held.release(1);
    await second;
    await waiting;
    assert.equal(idle, true);
    assert.equal(queue.current, null);
  });
});
