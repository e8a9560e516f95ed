import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { compileGlobs, createSkillFilters } from '../../src/discovery/skill-filters.js';

describe('name globs (SKILLS.md §5)', () => {
  const cases: Array<[string[], string, boolean]> = [
    [['pdf'], 'pdf', true],
    [['pdf'], 'pdf-tools', false],
    [['pdf'], 'PDF', false],
    [['pdf*'], 'pdf-tools', true],
    [['*-tools'], 'pdf-tools', true],
    [['tools'], 'pdf-tools', false],
    [['{pdf,doc}-*'], 'doc-x', true],
    [['{pdf,doc}-*'], 'xls-x', false],
    [['[a-c]x'], 'bx', true],
    [['[a-c]x'], 'dx', false],
    [['[^a]x'], 'bx', true],
    [['[^a]x'], 'ax', false],
    [['*'], '.hidden', true],
    [['.*'], '.hidden', true],
    [['!pdf'], 'pdf', false],
    [['!pdf'], 'doc', true],
    [['!pdf', 'pdf'], 'pdf', true],
    [['!{a,b}'], 'a', false],
    [['!{a,b}'], 'c', true],
    [['?'], 'a', true],
    [['?'], 'ab', false],
    [[], 'anything', false],
    [[''], 'x', false],
  ];
  for (const [patterns, name, expected] of cases) {
    it(`${JSON.stringify(patterns)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(name)}`, () => {
      assert.equal(compileGlobs(patterns)(name), expected);
    });
  }
});

describe('createSkillFilters', () => {
  it('includes everything when includeSkills is empty', () => {
    const filters = createSkillFilters(defaultSettings());
    assert.equal(filters.isIncluded('anything'), true);
    assert.equal(filters.isIgnored('anything'), false);
    assert.equal(filters.isDisabled('anything'), false);
    assert.equal(filters.accepts('anything'), true);
  });

  it('combines disabledExtensions, ignoredSkills and includeSkills', () => {
    const settings = defaultSettings();
    settings.disabledExtensions = ['skill:off', 'skill:glob-*', 'off2'];
    settings.skills.ignoredSkills = ['tmp-*'];
    settings.skills.includeSkills = ['tmp-*', 'keep', 'off', 'glob-x', 'off2'];
    const filters = createSkillFilters(settings);
    assert.equal(filters.accepts('keep'), true);
    assert.equal(filters.accepts('other'), false, 'not included');
    assert.equal(filters.accepts('tmp-1'), false, 'ignored wins over included');
    assert.equal(filters.accepts('off'), false, 'disabled');
    assert.equal(filters.isDisabled('glob-x'), false, 'disabledExtensions are exact names, not globs');
    assert.equal(filters.isDisabled('off2'), false, 'only skill:<name> entries count');
    assert.equal(filters.isDisabled('Off'), false, 'case-sensitive');
  });
});
