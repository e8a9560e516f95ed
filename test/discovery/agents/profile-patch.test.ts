// The daemon profile's view patched after an edit (profiles.ts `patchProfileView`, docs/agents.md "Live"): from the
// places the build's change names, it is the view patched by comparing every place, and a change it cannot place
// (a skill added, removed or renamed) leaves the view to be made again.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changedPlaces, patchProfileView, profileView } from '../../../src/discovery/agents/profiles.js';
import { discoveryResult, skillRecord } from '../../helpers/skill-records.js';

const names = Array.from({ length: 50 }, (_, i) => `skill-${String(i).padStart(3, '0')}`);
const realOf = (path: string) => path;

describe('the daemon profile view patched at the places a build changed', () => {
  it('finds the places of the changed names, in order, and none it cannot place', () => {
    const before = names.map((name) => skillRecord(name));
    const edited = [...before];
    edited[31] = skillRecord(names[31]!, { description: 'edited' });
    edited[7] = skillRecord(names[7]!, { description: 'edited too' });
    assert.deepEqual(changedPlaces(before, edited, new Set([names[31]!, names[7]!])), [7, 31]);
    assert.deepEqual(changedPlaces(before, before, new Set()), []);
    // Added, removed: the lengths moved.
    assert.equal(changedPlaces(before, [...before, skillRecord('zz')], new Set(['zz'])), undefined);
    assert.equal(changedPlaces(before, before.slice(1), new Set([names[0]!])), undefined);
    // Renamed in place (one length, the order moved): the new name is not where the old one was.
    const renamed = [...before.slice(0, 10), skillRecord('skill-010-b'), ...before.slice(11)];
    assert.equal(changedPlaces(before, renamed, new Set([names[10]!, 'skill-010-b'])), undefined);
  });

  it('patched from the places gives the view patched from every place, and the view made anew', async () => {
    const first = discoveryResult(names.map((name) => skillRecord(name)));
    const view = await profileView('musepi', first, realOf);
    const skills = [...first.skills];
    skills[12] = skillRecord(names[12]!, { description: 'A new description: with a colon' });
    skills[40] = skillRecord(names[40]!, { description: 'Another' });
    const second = discoveryResult(skills);
    const places = changedPlaces(first.skills, second.skills, new Set([names[12]!, names[40]!]));
    assert.deepEqual(places, [12, 40]);
    const fromPlaces = patchProfileView('musepi', view, first, second, [], places);
    const fromAll = patchProfileView('musepi', view, first, second, []);
    assert.ok(fromPlaces !== undefined && fromAll !== undefined);
    assert.deepEqual(fromPlaces, fromAll);
    assert.equal(
      JSON.stringify(fromPlaces.skills),
      JSON.stringify((await profileView('musepi', second, realOf)).skills),
    );
    // Every place not named keeps its very record.
    for (let i = 0; i < names.length; i++) if (i !== 12 && i !== 40) assert.equal(fromPlaces.skills[i], view.skills[i]);
  });
});
