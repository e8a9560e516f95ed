// A view's hash is made from each record's kept JSON (src/live-index/view-hash.ts): the very bytes of
// `JSON.stringify` of the whole list, so the hash and the event ids are those of the plain serialisation, also after
// OpenCode's `afterLoad` gives a kept record new `candidates`.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { AgentSkill, AgentView } from '../../src/discovery/agents/types.js';
import { skillsJson, viewHash } from '../../src/live-index/view-hash.js';

function record(name: string, extra: Partial<AgentSkill> = {}): AgentSkill {
  return {
    name,
    description: `Use when: the user asks "${name}" — ünïcode \u2028 and \\ escapes`,
    filePath: `/w/.agents/skills/${name}/SKILL.md`,
    baseDir: `/w/.agents/skills/${name}`,
    hide: false,
    source: { scope: 'project', path: '/w/.agents/skills' },
    ...extra,
  } as AgentSkill;
}

/** The hash as it was made before: every list serialised whole. */
function plainHash(view: AgentView): string {
  const hash = createHash('sha256');
  hash.update(view.agent.id);
  hash.update(JSON.stringify(view.skills));
  hash.update(JSON.stringify(view.collisions));
  hash.update(JSON.stringify(view.warnings));
  hash.update(JSON.stringify(view.diagnostics));
  return hash.digest('hex');
}

test('the list is serialised as JSON.stringify serialises it, kept records or not', () => {
  const skills = [record('a'), record('b', { candidates: ['/x/SKILL.md', '/y/SKILL.md'] }), record('c')];
  assert.equal(skillsJson(skills), JSON.stringify(skills));
  assert.equal(skillsJson([]), '[]');
  // Again from the kept JSON, in another order and with a new record among them.
  const next = [skills[2] as AgentSkill, record('d', { kind: 'command' }), skills[0] as AgentSkill];
  assert.equal(skillsJson(next), JSON.stringify(next));
});

test('a kept record given new candidates is serialised with them', () => {
  const shown = record('dup', { candidates: ['/x/SKILL.md'] });
  const view = {
    agent: { id: 'opencode' },
    skills: [record('a'), shown],
    collisions: [],
    warnings: [{ skillPath: '', message: 'w' }],
    diagnostics: [],
  } as unknown as AgentView;
  const before = viewHash(view);
  assert.equal(before, plainHash(view));
  shown.candidates = ['/x/SKILL.md', '/y/SKILL.md'];
  const after = viewHash(view);
  assert.equal(after, plainHash(view));
  assert.notEqual(after, before);
});
