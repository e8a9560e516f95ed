// A LayeredMap must answer exactly as a plain Map that went through the same removals and sets, however many updates
// were layered (and flattened) on top of each other, and must never change the map it was made from.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LayeredMap } from '../../../src/discovery/pipeline/layered-map.js';

const key = fc.integer({ min: 0, max: 40 }).map((n) => `k${n}`);
const update = fc.record({
  removed: fc.array(key, { maxLength: 4 }),
  set: fc.array(fc.tuple(key, fc.string({ maxLength: 3 })), { maxLength: 4 }),
});

describe('LayeredMap', () => {
  it('equals a plain Map after random removals and sets, and leaves every earlier map as it was', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 300 }), (updates) => {
        let model = new Map<string, string>([['k0', 'base']]);
        let map: ReadonlyMap<string, string> = new Map(model);
        const history: Array<[ReadonlyMap<string, string>, Map<string, string>]> = [];
        for (const { removed, set } of updates) {
          const next = new Map(model);
          for (const gone of removed) next.delete(gone);
          for (const [k, v] of set) next.set(k, v);
          map = LayeredMap.update(map, removed, set);
          model = next;
          history.push([map, next]);
          assert.deepEqual(new Map(map), model);
          assert.equal(map.size, model.size);
          for (let n = 0; n <= 40; n++) {
            assert.equal(map.get(`k${n}`), model.get(`k${n}`));
            assert.equal(map.has(`k${n}`), model.has(`k${n}`));
          }
        }
        for (const [kept, expected] of history) assert.deepEqual(new Map(kept), expected);
      }),
      { numRuns: 100, seed: 20261201 },
    );
  });

  it('flattens into a plain Map once more than 512 changes are layered', () => {
    let map: ReadonlyMap<string, string> = new Map([['a', '1']]);
    for (let i = 0; i < 512; i++) map = LayeredMap.update(map, [], [[`k${i}`, `${i}`]]);
    assert.ok(map instanceof LayeredMap);
    map = LayeredMap.update(map, ['a'], []);
    assert.equal(map instanceof LayeredMap, false);
    assert.equal(map.size, 512);
    assert.equal(map.get('a'), undefined);
    assert.equal(map.get('k511'), '511');
  });
});
