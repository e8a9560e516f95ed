import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareSkills, sortBySkill } from '../../src/discovery/sort-skills.js';

describe('sortBySkill', () => {
  it('gives the order of sort(compareSkills) (random names with case, accents and duplicates)', () => {
    const name = fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', 'a-b', 'A-b', 'z', 'ß', 'ǅ');
    const skill = fc.record({
      name: fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
      filePath: fc.constantFrom('/x', '/y', '/a/b'),
    });
    fc.assert(
      fc.property(fc.array(skill, { maxLength: 40 }), (skills) => {
        assert.deepEqual(
          sortBySkill(skills, (s) => s),
          [...skills].sort(compareSkills),
        );
      }),
      { numRuns: 500, seed: 20261130 },
    );
  });
});
