// The content hash a view's event ids derive from (view-comparison.ts `viewHash`, docs/api.md "GET /events"): after
// an edit it is the hash of the same content made of fresh objects, the same in another daemon on the same files, and
// it tells apart the order of the items and the list each one is in.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { AgentView } from '../../src/discovery/agents/types.js';
import { stateEventId } from '../../src/live-index/event-log.js';
import { MAX_CHUNK_SKILLS } from '../../src/live-index/run-hasher.js';
import { ViewHasher, viewHash } from '../../src/live-index/view-comparison.js';
import type { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';
import { openUnwatchedIndex } from '../helpers/unwatched-index.js';

type Reported = { rebuildFor(paths: readonly string[]): Promise<void> };
const WAIT = 60_000;

/** The view with every item a fresh object of the same JSON: no digest is kept for any of them. */
function freshCopy(view: AgentView): AgentView {
  const copy = <T>(list: readonly T[]): T[] => JSON.parse(JSON.stringify(list)) as T[];
  return {
    ...view,
    skills: copy(view.skills),
    collisions: copy(view.collisions),
    warnings: copy(view.warnings),
    diagnostics: copy(view.diagnostics),
  };
}

async function codexView(index: WorkspaceIndex): Promise<AgentView> {
  const view = (await index.agentViews(WAIT)).views.views.get('codex');
  assert.ok(view !== undefined);
  return view;
}

describe('viewHash', () => {
  it('after an edit, equals the hash of the same content made anew, and of another daemon on the same files', async (t) => {
    const { dir: root, cleanup } = await makeTempDir('skillsd-view-hash-');
    t.after(cleanup);
    const skills: Record<string, string> = {};
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) {
      skills[`work/.agents/skills/${name}/SKILL.md`] = SK({
        name,
        description: JSON.stringify(`Does ${name} things: with a colon`),
      });
    }
    await writeTree(root, { 'home/.keep': '', 'work/.git/HEAD': 'x', ...skills });
    const index = await openUnwatchedIndex(t, root);

    const before = await codexView(index);
    assert.deepEqual(
      before.skills.map((skill) => skill.name),
      ['alpha', 'beta', 'delta', 'gamma'],
    );
    const hashBefore = viewHash(before);
    assert.match(hashBefore, /^[0-9a-f]{64}$/);
    assert.equal(viewHash(freshCopy(before)), hashBefore);
    // The view's stream, followed from here, names each state with its kept hasher.
    const { log } = await index.agentEvents('codex', WAIT);
    assert.equal(log.headId, stateEventId(hashBefore));

    const edited = `${root}/work/.agents/skills/beta/SKILL.md`;
    await writeFile(edited, SK({ name: 'beta', description: 'Does beta things, edited' }));
    await (index as unknown as Reported).rebuildFor([edited]);
    await index.agentViewsSettled();
    const after = await codexView(index);
    assert.equal(after.skills.find((skill) => skill.name === 'beta')?.description, 'Does beta things, edited');
    // The untouched skills are the very objects hashed before: a hash kept by object would still see them.
    assert.equal(
      after.skills.filter((skill) => before.skills.includes(skill)).length,
      3,
      'the update keeps the objects of the skills it did not touch',
    );
    const hashAfter = viewHash(after);
    assert.notEqual(hashAfter, hashBefore);
    assert.equal(viewHash(freshCopy(after)), hashAfter);

    assert.equal(log.headId, stateEventId(hashAfter), "the stream's id is the state's");

    // Another index of the same files, with none of these objects: the same hash (event ids agree across restarts),
    // and its stream starts at the id the first one's reached.
    const other = await openUnwatchedIndex(t, root);
    assert.equal(viewHash(await codexView(other)), hashAfter);
    assert.equal((await other.agentEvents('codex', WAIT)).log.headId, log.headId);

    // Edited back: the first hash again.
    await writeFile(edited, SK({ name: 'beta', description: JSON.stringify('Does beta things: with a colon') }));
    await (index as unknown as Reported).rebuildFor([edited]);
    await index.agentViewsSettled();
    assert.equal(viewHash(await codexView(index)), hashBefore);
    assert.equal(log.headId, stateEventId(hashBefore));
  });

  it('tells apart the order of the items and the list each one is in', () => {
    const base = {
      agent: { id: 'codex' },
      skills: [{ name: 'a' }, { name: 'b' }],
      collisions: [],
      warnings: [{ skillPath: '', message: 'w' }],
      diagnostics: [],
    } as unknown as AgentView;
    const hash = viewHash(base);
    const swapped = { ...base, skills: [base.skills[1], base.skills[0]] } as unknown as AgentView;
    assert.notEqual(viewHash(swapped), hash);
    const moved = { ...base, warnings: [], diagnostics: base.warnings } as unknown as AgentView;
    assert.notEqual(viewHash(moved), hash);
    const otherAgent = { ...base, agent: { id: 'opencode' } } as unknown as AgentView;
    assert.notEqual(viewHash(otherAgent), hash);
    assert.equal(viewHash({ ...base } as AgentView), hash);
  });

  it('kept from state to state, equals a hash made from nothing, and hashes again only the runs that changed', () => {
    // 3,000 skills (some descriptions not ASCII) and a finding per tenth: a stream's hasher through edits, additions,
    // removals and moves gives, at every step, the hash of fresh copies made by a new hasher.
    const skillOf = (i: number, text = `Does ${i}: with a colon`) => ({
      name: `skill-${i}`,
      description: i % 7 === 0 ? `Grüße: ${'é'.repeat(i % 40)} 技能 ${text}` : text,
      filePath: `/w/.agents/skills/skill-${i}/SKILL.md`,
    });
    const skills = Array.from({ length: 3000 }, (_, i) => skillOf(i));
    const viewOf = (list: ReturnType<typeof skillOf>[], warnings: unknown[] = []) =>
      ({
        agent: { id: 'codex' },
        skills: list,
        collisions: [],
        warnings,
        diagnostics: list
          .filter((_, i) => i % 10 === 0)
          .map((skill) => ({ rule: 'r', severity: 'info', path: skill.filePath, message: '✓' })),
      }) as unknown as AgentView;
    const hasher = new ViewHasher();
    const seen = new Set<string>();
    let list = skills;
    const step = (next: ReturnType<typeof skillOf>[], warnings: unknown[] = []) => {
      list = next;
      const view = viewOf(list, warnings);
      const kept = hasher.hash(view);
      assert.equal(kept, viewHash(freshCopy(view)));
      assert.ok(!seen.has(kept), 'another content, another hash');
      seen.add(kept);
      return hasher.rehashed;
    };
    assert.equal(step(list), 3000 + 300);
    // One description edited: its run of skills (at most MAX_CHUNK_SKILLS) and its run of findings, rebuilt as the
    // doctor does (a new object for the same finding), are hashed again.
    const edited = [...list];
    edited[1234] = skillOf(1234, 'edited: now');
    assert.ok(step(edited) <= 2 * MAX_CHUNK_SKILLS);
    const added = [...list.slice(0, 10), skillOf(5000), ...list.slice(10)];
    assert.ok(step(added) <= 2 * MAX_CHUNK_SKILLS);
    assert.ok(step(list.filter((_, i) => i !== 2500)) <= 2 * MAX_CHUNK_SKILLS);
    assert.ok(step(list, [{ skillPath: '', message: 'w "quoted" \\ back' }]) <= 2 * MAX_CHUNK_SKILLS);
    const swapped = [...list];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    step(swapped);
    // Back to the first content: the first hash again.
    const first = viewHash(viewOf(skills));
    assert.equal(hasher.hash(viewOf(skills)), first);
    assert.ok(seen.has(first));
  });
});
