// The frontmatter pieces the agents share and their repairs (docs/agents.md "Vocabulary", "Codex CLI", "OpenCode").

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repairYaml } from '../../src/discovery/agents/codex.js';
import { fencedBlock } from '../../src/discovery/agents/frontmatter-rules.js';
import { fallbackSanitization } from '../../src/discovery/agents/opencode.js';

test('fencedBlock: the block between the first line and the next fence line', () => {
  assert.deepEqual(fencedBlock('---\na: 1\nb: 2\n---\nbody\n'), { block: 'a: 1\nb: 2', body: 'body\n' });
  assert.deepEqual(fencedBlock('---\n---\n'), { block: '', body: '' });
  assert.deepEqual(fencedBlock('---\r\na: 1\r\n---\r\nx'), { block: 'a: 1', body: 'x' });
  assert.equal(fencedBlock('---\na: 1\n'), null);
  assert.equal(fencedBlock('# no block\n---\n'), null);
  assert.equal(fencedBlock('\uFEFF---\na: 1\n---\n'), null);
  assert.deepEqual(fencedBlock('\uFEFF---\na: 1\n---\n', { bom: true }), { block: 'a: 1', body: '' });
  assert.deepEqual(fencedBlock(' --- \na: 1\n  ---\n', { trim: true }), { block: 'a: 1', body: '' });
  assert.equal(fencedBlock(' --- \na: 1\n---\n'), null);
});

test('Codex repair: plain values holding ": " or starting with an indicator are quoted; block scalars kept', () => {
  assert.equal(repairYaml('description: use it: now'), "description: 'use it: now'");
  assert.equal(repairYaml("description: it's: ok"), "description: 'it''s: ok'");
  assert.equal(repairYaml('description: @home'), "description: '@home'");
  assert.equal(repairYaml('tags: [a, b]'), 'tags: [a, b]');
  assert.equal(repairYaml('description: |\n  a: b\nname: x'), 'description: |\n  a: b\nname: x');
  assert.equal(repairYaml('url:http://x'), 'url:http://x');
});

test('OpenCode fallback: a top-level unquoted value holding ":" becomes a block scalar', () => {
  assert.equal(
    fallbackSanitization('---\nname: x\ndescription: a: b\n---\n'),
    '---\nname: x\ndescription: |-\n  a: b\n---\n',
  );
  assert.equal(fallbackSanitization('---\ndescription: "a: b"\n---\n'), '---\ndescription: "a: b"\n---\n');
});
