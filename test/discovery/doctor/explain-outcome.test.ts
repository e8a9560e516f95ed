// A candidate's outcome names the winner of its own name (explain-outcome.ts): the winners are the discovery's sorted
// list, searched by name, so names that differ only in case, and names missing from it, must each find their own.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainOutcome, pipelineView } from '../../../src/discovery/doctor/explain-outcome.js';
import { compareSkills } from '../../../src/discovery/pipeline/sort-skills.js';
import { defaultSettings } from '../../../src/discovery/settings.js';
import type { Skill } from '../../../src/discovery/types.js';

function skill(name: string, dir = '/w/.musepi/skills'): Skill {
  return {
    name,
    filePath: `${dir}/${name}/SKILL.md`,
    source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: dir },
  } as unknown as Skill;
}

describe('explainOutcome', () => {
  const winners = ['gamma', 'beta', 'Beta', 'alpha', 'ALPHA-2', 'zeta'].map((name) => skill(name)).sort(compareSkills);
  const view = pipelineView(defaultSettings(), winners, []);

  it('finds the winner of each name among names that differ only in case', () => {
    assert.deepEqual(
      winners.map((s) => s.name),
      ['alpha', 'ALPHA-2', 'Beta', 'beta', 'gamma', 'zeta'],
    );
    for (const winner of winners) {
      const outcome = explainOutcome(winner, view, false);
      assert.equal(outcome.outcome, 'loaded', winner.name);
      assert.equal(outcome.finding, undefined);
    }
  });

  it('does not take a candidate from another directory, or of a name no skill has, for the winner', () => {
    const other = explainOutcome(skill('beta', '/home/u/.musepi/skills'), view, false);
    assert.equal(other.outcome, 'skipped');
    assert.equal(other.reason, 'not loaded');
    const missing = explainOutcome(skill('BETA'), view, false);
    assert.equal(missing.outcome, 'skipped');
    assert.deepEqual(missing.finding, {
      rule: 'not-loaded',
      severity: 'info',
      path: '/w/.musepi/skills/BETA/SKILL.md',
      message: 'not loaded',
    });
  });
});
