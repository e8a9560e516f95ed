// The three profiles' discoveries of one workspace share the daemon's parsed files (skill-file-cache.ts): a SKILL.md
// every dialect reads alike is parsed once for all of them, and one that the dialects read differently once per
// dialect, each reading kept beside the other.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { createSkillFileCache } from '../../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../../src/discovery/settings.js';
import type { Profile } from '../../../src/discovery/types.js';
import { makeTempDir, SK, writeTree } from '../../helpers/temp-tree.js';

const PROFILES: Profile[] = ['musepi', 'omp', 'xcsh'];

test('MusePi, OMP and xcsh parse a file read alike once, and one read differently once per dialect', async (t) => {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'x',
    'work/.claude/skills/clean/SKILL.md': SK({ name: 'clean', description: 'parsed as YAML at once' }),
    'work/.claude/skills/other/SKILL.md': SK({ name: 'other', description: 'also' }),
    // Repaired by MusePi and OMP, read line by line by xcsh.
    'work/.claude/skills/colon/SKILL.md': '---\nname: colon\ndescription: Use when: asked\nhide: yes\n---\nBody\n',
  });
  const home = join(dir, 'home');
  const cwd = join(dir, 'work');
  const cache = createSkillFileCache();
  const discover = (profile: Profile, withCache: boolean) =>
    discoverSkills(
      { home, cwd, env: {}, settings: { ...defaultSettings(), profile } },
      withCache ? { cache, sliced: true } : { sliced: true },
    );
  const all = async () => {
    const results = [];
    for (const profile of PROFILES) results.push(await discover(profile, true));
    return results;
  };

  const first = await all();
  // Each answer is the one a discovery of its own gives.
  for (const [i, profile] of PROFILES.entries()) assert.deepEqual(first[i], await discover(profile, false));
  assert.equal(first[0]!.skills.find((skill) => skill.name === 'colon')?.description, 'Use when: asked');
  // MusePi parses the three files; OMP takes them all; xcsh takes the two clean ones and parses `colon` its way.
  assert.deepEqual(cache.stats, { hits: 5, misses: 4 });
  assert.equal(cache.size, 3);

  // Nothing changed: every profile takes every reading, neither dialect's evicting the other's.
  assert.deepEqual(await all(), first);
  assert.deepEqual(cache.stats, { hits: 14, misses: 4 });

  // An edited file read alike is parsed again once, for every profile.
  await writeFile(join(cwd, '.claude/skills/clean/SKILL.md'), SK({ name: 'clean', description: 'edited, longer' }));
  const after = await all();
  assert.deepEqual(cache.stats, { hits: 22, misses: 5 });
  for (const result of after) {
    assert.equal(result.skills.find((skill) => skill.name === 'clean')?.description, 'edited, longer');
  }
});
