import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffSnapshots, isEmptyDiff } from '../../src/live-index/diff-snapshots.js';
import { collisionRecord, skillRecord } from '../helpers/skill-records.js';

const empty = { skills: [], collisions: [], warnings: [] };

describe('diffSnapshots', () => {
  it('finds nothing between equal states', () => {
    const state = {
      skills: [skillRecord('a')],
      collisions: [collisionRecord('a')],
      warnings: [{ skillPath: '', message: 'w' }],
    };
    const diff = diffSnapshots(state, structuredClone(state));
    assert.deepEqual(diff, { added: [], removed: [], changed: [], collisions: [], newWarnings: [] });
    assert.equal(isEmptyDiff(diff), true);
  });

  it('names added, removed and changed skills in loaded order', () => {
    const before = { ...empty, skills: [skillRecord('a'), skillRecord('b'), skillRecord('c'), skillRecord('d')] };
    const after = {
      ...empty,
      skills: [
        skillRecord('a'),
        skillRecord('b', { description: 'new text' }),
        skillRecord('d', { frontmatter: { name: 'd', description: 'd tools', globs: ['*.ts'] } }),
        skillRecord('e'),
        skillRecord('f', { hide: true }),
      ],
    };
    const diff = diffSnapshots(before, after);
    assert.deepEqual(diff.added, ['e', 'f']);
    assert.deepEqual(diff.removed, ['c']);
    assert.deepEqual(diff.changed, ['b', 'd']);
    assert.equal(isEmptyDiff(diff), false);
  });

  it('visits only the names it is told changed, and only for the very lists it names', () => {
    const a = skillRecord('a');
    const c = skillRecord('c');
    const before = { ...empty, skills: [a, skillRecord('B'), c, skillRecord('d')] };
    const after = { ...empty, skills: [a, skillRecord('a0'), skillRecord('B', { description: 'new' }), c] };
    const names = new Set(['a0', 'B', 'd', 'zz']);
    assert.deepEqual(diffSnapshots(before, after, { previous: before.skills, next: after.skills, names }), {
      added: ['a0'],
      removed: ['d'],
      changed: ['B'],
      collisions: [],
      newWarnings: [],
    });
    // Told about other lists (a stale account): the whole lists are compared.
    const stale = { previous: [...before.skills], next: after.skills, names: new Set<string>() };
    assert.deepEqual(diffSnapshots(before, after, stale), diffSnapshots(before, after));
    assert.deepEqual(diffSnapshots(before, after).added, ['a0']);
  });

  it('counts a change of source or hide as a change', () => {
    const before = { ...empty, skills: [skillRecord('a'), skillRecord('b')] };
    const moved = skillRecord('a');
    moved.source = { ...moved.source, id: 'native:user', level: 'user' };
    const after = { ...empty, skills: [moved, skillRecord('b', { hide: true })] };
    assert.deepEqual(diffSnapshots(before, after).changed, ['a', 'b']);
  });

  it('reports collisions as new, changed and resolved', () => {
    const before = { ...empty, collisions: [collisionRecord('x'), collisionRecord('y')] };
    const after = { ...empty, collisions: [collisionRecord('y', 'agents'), collisionRecord('z')] };
    assert.deepEqual(diffSnapshots(before, after).collisions, [
      { name: 'y', state: 'changed', collision: collisionRecord('y', 'agents') },
      { name: 'z', state: 'new', collision: collisionRecord('z') },
      { name: 'x', state: 'resolved', collision: collisionRecord('x') },
    ]);
  });

  it('reports only warnings that were not there before, counting repeats', () => {
    const w1 = { skillPath: '', message: '[MusePi] one' };
    const w2 = { skillPath: '/c', message: 'two' };
    const before = { ...empty, warnings: [w1, w2] };
    const after = { ...empty, warnings: [w2, w1, w1, { skillPath: '/d', message: 'three' }] };
    assert.deepEqual(diffSnapshots(before, after).newWarnings, [w1, { skillPath: '/d', message: 'three' }]);
    assert.deepEqual(diffSnapshots(after, before).newWarnings, []);
  });
});
