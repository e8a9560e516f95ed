import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forgetAtOrUnder, hasAncestorIn } from '../../src/discovery/forget-under.js';

test('forgetAtOrUnder deletes each reported key and everything kept under a reported directory', () => {
  const kept = new Map<string, number>([
    ['/w/a/SKILL.md', 1],
    ['/w/a/ref/x.md', 2],
    ['/w/ab/SKILL.md', 3],
    ['/w/b/SKILL.md', 4],
    ['/h/c/SKILL.md', 5],
  ]);
  forgetAtOrUnder(kept, ['/w/a', '/h/c/SKILL.md', '/nowhere']);
  assert.deepEqual([...kept.keys()], ['/w/ab/SKILL.md', '/w/b/SKILL.md']);
});

test('forgetAtOrUnder looks under a path that is itself a key unless keys hold nothing', () => {
  const dirs = new Set(['/w/a', '/w/a/b', '/w/a/b/c', '/w/z']);
  forgetAtOrUnder(dirs, ['/w/a/']);
  assert.deepEqual([...dirs], ['/w/z']);
  const files = new Set(['/w/a', '/w/a/b']);
  forgetAtOrUnder(files, ['/w/a'], true);
  assert.deepEqual([...files], ['/w/a/b']);
});

test('forgetAtOrUnder of the file-system root forgets everything', () => {
  const kept = new Set(['/a', '/b/c']);
  forgetAtOrUnder(kept, ['/']);
  assert.equal(kept.size, 0);
});

test('hasAncestorIn checks proper ancestors only', () => {
  assert.equal(hasAncestorIn('/w/a/SKILL.md', new Set(['/w'])), true);
  assert.equal(hasAncestorIn('/w/a/SKILL.md', new Set(['/w/a'])), true);
  assert.equal(hasAncestorIn('/w/a', new Set(['/w/a'])), false);
  assert.equal(hasAncestorIn('/w/ab/SKILL.md', new Set(['/w/a'])), false);
});

test('forgetAtOrUnder costs one pass over the keys however many paths are reported', () => {
  // 20,000 kept files and 2,000 reported directories that hold none of them: every key is kept, each looked at once.
  const kept = new Set<string>();
  for (let i = 0; i < 20_000; i++) kept.add(`/w/skills/s${i}/SKILL.md`);
  const reported = Array.from({ length: 2_000 }, (_, i) => `/elsewhere/d${i}`);
  forgetAtOrUnder(kept, reported);
  assert.equal(kept.size, 20_000);
});

test('forgetAtOrUnder tells each key it forgets, once, and no other', () => {
  const kept = new Set(['/w/a/SKILL.md', '/w/b/SKILL.md', '/w/bc/SKILL.md', '/x/SKILL.md']);
  const told: string[] = [];
  forgetAtOrUnder(kept, ['/w/a/SKILL.md', '/w/b', '/nowhere'], true, (key) => told.push(key));
  assert.deepEqual(told.sort(), ['/w/a/SKILL.md', '/w/b/SKILL.md']);
  assert.deepEqual([...kept].sort(), ['/w/bc/SKILL.md', '/x/SKILL.md']);
  const all: string[] = [];
  forgetAtOrUnder(kept, ['/'], false, (key) => all.push(key));
  assert.deepEqual(all.sort(), ['/w/bc/SKILL.md', '/x/SKILL.md']);
  assert.equal(kept.size, 0);
});
