import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonParts } from '../../src/live-index/sliced-json.js';

const join = async (value: unknown) => (await jsonParts(value)).join('');

test('jsonParts gives JSON.stringify byte for byte, long arrays split or not', async () => {
  const rows = Array.from({ length: 300 }, (_, i) => ({
    name: `skill-${i}`,
    filePath: `/w/.claude/skills/skill-${i}/SKILL.md`,
    views: {
      codex: { status: i % 3 === 0 ? 'unseen' : 'loaded', reason: i % 3 === 0 ? 'Codex does not read "x"' : undefined },
    },
    extra: i % 5 === 0 ? undefined : [i, null, 'é\n\u2028'],
  }));
  const values: unknown[] = [
    { generation: 7, agents: [{ id: 'codex' }], skills: rows, note: undefined, fn: () => 1 },
    rows,
    [undefined, () => 1, ...rows],
    { nested: { skills: rows } },
    { small: [1, 2, 3] },
    'text',
    42,
    null,
    Object.assign(Object.create(null), { skills: rows }),
  ];
  for (const value of values) assert.equal(await join(value), JSON.stringify(value));
});

test('jsonParts lets the event loop turn while it writes a long array', async () => {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ name: `skill-${i}`, description: 'd'.repeat(400) }));
  let turns = 0;
  const counting = setInterval(() => turns++, 0);
  try {
    assert.equal(await join({ skills: rows }), JSON.stringify({ skills: rows }));
  } finally {
    clearInterval(counting);
  }
  assert.ok(turns > 0, 'no timer ran while 8 MB of JSON was written');
});
