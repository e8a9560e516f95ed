import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sameJson, sameJsonItems } from '../../src/discovery/same-json.js';

const values = fc.anything({
  withNullPrototype: true,
  withBoxedValues: true,
  withDate: true,
  withSparseArray: true,
  maxDepth: 3,
});

describe('sameJson', () => {
  it('answers exactly as comparing JSON.stringify of both (random values, shared parts, copies)', () => {
    fc.assert(
      fc.property(values, values, fc.boolean(), (a, b, share) => {
        // Half the pairs share a sub-value, the way a reload shares frozen frontmatter between records.
        const left = share ? { x: a, y: b } : a;
        const right = share ? { x: a, y: structuredCloneOrSelf(b) } : b;
        for (const [p, q] of [
          [left, right],
          [left, structuredCloneOrSelf(left)],
        ]) {
          assert.equal(sameJson(p, q), JSON.stringify(p) === JSON.stringify(q));
        }
      }),
      { numRuns: 2000, seed: 20261130 },
    );
  });

  it('handles the cases JSON rewrites: undefined keys, -0, NaN, toJSON, key order', () => {
    assert.equal(sameJson({ a: 1, b: undefined }, { a: 1, c: undefined }), true);
    assert.equal(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }), false);
    assert.equal(sameJson([0], [-0]), true);
    assert.equal(sameJson([Number.NaN], [null]), true);
    assert.equal(sameJson([undefined], [null]), true);
    assert.equal(sameJson({ toJSON: () => 'x' }, 'x'), true);
    assert.equal(sameJson(new Date(0), new Date(0)), true);
    assert.equal(sameJson({ s: 'a' }, { s: 'ab' }), false);
    const shared = Object.freeze({ name: 'n', nested: [1, 2] });
    assert.equal(sameJson({ f: shared, d: 'x' }, { f: shared, d: 'x' }), true);
    assert.equal(sameJson({ f: shared, d: 'x' }, { f: shared, d: 'y' }), false);
  });
});

function structuredCloneOrSelf<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

describe('sameJsonItems', () => {
  it('compares lists item by item: the same objects, or items that serialise alike, in the same order', () => {
    const a = { name: 'a' };
    assert.equal(sameJsonItems([a, 1], [a, 1]), true);
    assert.equal(sameJsonItems([{ name: 'a' }], [{ name: 'a' }]), true);
    assert.equal(sameJsonItems([{ name: 'a' }], [{ name: 'b' }]), false);
    assert.equal(sameJsonItems([a], [a, a]), false);
    assert.equal(sameJsonItems([a, { name: 'b' }], [{ name: 'b' }, a]), false);
    assert.equal(sameJsonItems([], []), true);
  });
});
