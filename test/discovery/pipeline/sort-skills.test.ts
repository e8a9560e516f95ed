import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareSkills, sortBySkill } from '../../../src/discovery/pipeline/sort-skills.js';

describe('sortBySkill', () => {
  it('gives the order of sort(compareSkills) (random names with case and accents; distinct name and path pairs)', () => {
    const name = fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', 'a-b', 'A-b', 'z', 'ß', 'ǅ');
    const skill = fc.record({
      name: fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
      filePath: fc.constantFrom('/x', '/y', '/a/b'),
    });
    fc.assert(
      fc.property(fc.uniqueArray(skill, { maxLength: 40, selector: (s) => `${s.name}\0${s.filePath}` }), (skills) => {
        const expected = [...skills].sort(compareSkills);
        assert.deepEqual(
          sortBySkill(skills, (s) => s),
          expected,
        );
        // Any hint (a previous order, stale or partial, even a wrong one) leaves the result alone. Name and path pairs
        // are distinct, as they are for the skills of one directory and for the winners of a discovery.
        const hint = new Map(expected.map((s, i) => [s, (i * 7) % Math.max(1, expected.length - 1)]));
        assert.deepEqual(
          sortBySkill(skills, (s) => s, hint),
          expected,
        );
      }),
      { numRuns: 500, seed: 20261130 },
    );
  });
});
