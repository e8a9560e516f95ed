// The events of one view's change (view-comparison.ts `viewChangeEvents`, docs/api.md §GET /events `agent=`): names
// added, removed and changed, each name once in the order of its first record, whether the update replaced records in
// place (a patch) or made the view anew.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentCollision, AgentSkill, AgentView } from '../../src/discovery/agents/types.js';
import { viewChangeEvents } from '../../src/live-index/view-comparison.js';

const skill = (name: string, description: string, n = 0) =>
  ({ name, description, filePath: `/w/.agents/skills/${name}-${n}/SKILL.md` }) as AgentSkill;

const viewOf = (skills: AgentSkill[], collisions: AgentCollision[] = []) =>
  ({ agent: { id: 'opencode' }, skills, collisions, warnings: [], diagnostics: [] }) as unknown as AgentView;

const index = (events: ReturnType<typeof viewChangeEvents>) => events.map((event) => [event.type, event.data]);

describe('viewChangeEvents', () => {
  // A view that loads one name twice (an agent that keeps every file).
  const before = viewOf([skill('a', 'one'), skill('b', 'two'), skill('a', 'three', 1), skill('c', 'four')]);

  it('records replaced in place: the names whose records changed, by their first record', () => {
    const after = viewOf([...before.skills], before.collisions);
    after.skills[3] = skill('c', 'four, edited');
    after.skills[2] = skill('a', 'three, edited', 1);
    assert.deepEqual(index(viewChangeEvents(before, after, 7)), [
      ['index', { generation: 7, added: [], removed: [], changed: ['a', 'c'] }],
    ]);
    // The same content in new objects changes nothing.
    const copies = viewOf(JSON.parse(JSON.stringify(before.skills)) as AgentSkill[], before.collisions);
    assert.deepEqual(index(viewChangeEvents(before, copies, 8)), [
      ['index', { generation: 8, added: [], removed: [], changed: [] }],
    ]);
  });

  it('a name changed in place, or records moved, is told as the view made anew is', () => {
    const renamed = viewOf([...before.skills], before.collisions);
    renamed.skills[1] = skill('d', 'two');
    assert.deepEqual(index(viewChangeEvents(before, renamed, 9)), [
      ['index', { generation: 9, added: ['d'], removed: ['b'], changed: [] }],
    ]);
    const fewer = viewOf(before.skills.slice(0, 2), before.collisions);
    assert.deepEqual(index(viewChangeEvents(before, fewer, 10)), [
      ['index', { generation: 10, added: [], removed: ['c'], changed: ['a'] }],
    ]);
  });

  it('a collision that appeared is told after the index event', () => {
    const source = { agent: 'opencode', scope: 'project', root: '/w/.agents/skills' } as AgentSkill['source'];
    const collision: AgentCollision = {
      name: 'a',
      winner: { filePath: '/w/.agents/skills/a-1/SKILL.md', source },
      shadowed: [{ filePath: '/w/.agents/skills/a-0/SKILL.md', source, reason: 'precedence' }],
    };
    const events = viewChangeEvents(before, viewOf(before.skills, [collision]), 11);
    assert.deepEqual(
      events.map((event) => event.type),
      ['index', 'collision'],
    );
  });
});
