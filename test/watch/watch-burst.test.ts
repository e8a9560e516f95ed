import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BurstDelay, MAX_COALESCE_MS } from '../../src/watch/watch-burst.js';

describe('BurstDelay', () => {
  it('answers with the base delay when nothing happened before', () => {
    assert.equal(new BurstDelay(3).next(0), 3);
  });

  const after: Array<[string, { size: number; gap: number }, number]> = [
    ['a single edit long after another', { size: 1, gap: 100 }, 3],
    ['an event right after a one-path onChange', { size: 1, gap: 20 }, 6],
    ['an event soon after a large onChange', { size: 20, gap: 1500 }, 6],
    ['an event long after a large onChange', { size: 20, gap: 2500 }, 3],
  ];
  for (const [label, { size, gap }, expected] of after) {
    it(`answers ${expected} ms for ${label}`, () => {
      const delay = new BurstDelay(3);
      delay.next(0);
      delay.emitted(size, 10);
      assert.equal(delay.next(10 + gap), expected);
    });
  }

  it('doubles the wait at each flush of a burst, up to the maximum, and starts over after a quiet spell', () => {
    const delay = new BurstDelay(3);
    const waits: number[] = [];
    let now = 0;
    for (let flush = 0; flush < 9; flush++) {
      const wait = delay.next(now);
      waits.push(wait);
      now += wait;
      delay.emitted(40, now);
      now += 5;
    }
    assert.deepEqual(waits, [3, 6, 12, 24, 48, 96, 192, MAX_COALESCE_MS, MAX_COALESCE_MS]);
    assert.equal(delay.next(now + 5000), 3);
  });

  it('still grows from a base of 0', () => {
    const delay = new BurstDelay(0);
    assert.equal(delay.next(0), 0);
    delay.emitted(1, 0);
    assert.equal(delay.next(1), 4);
  });
});
