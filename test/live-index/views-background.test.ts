// Work a request waits for holds background work back (time-slices.ts `holdBackground`): the matrix of `GET /agents`
// and its JSON, and, after the first views, the arming of the views' own watches waits until no request holds.
// Real WorkspaceIndex instances on temp dirs.

import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { agentMatrixAnswer } from '../../src/answers/agent-answers.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { backgroundTurn, holdBackground } from '../../src/discovery/time-slices.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

const skill = (name: string) => `---\nname: ${name}\ndescription: Tool ${name}\n---\n\nBody.\n`;

async function openIndex(t: TestContext, watch: boolean): Promise<WorkspaceIndex> {
  const { dir, cleanup } = await makeTempDir('skillsd-views-bg-');
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.claude/skills/alpha/SKILL.md': skill('alpha'),
    'work/.agents/skills/beta/SKILL.md': skill('beta'),
    // A root only other agents read: the views watch it themselves.
    'home/.copilot/skills/gamma/SKILL.md': skill('gamma'),
  });
  const index = new WorkspaceIndex({
    home: `${dir}/home`,
    cwd: `${dir}/work`,
    env: {},
    settings: defaultSettings(),
    watch,
    diagnosticsMaxSkills: 0,
  });
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  return index;
}

describe('views and background work', () => {
  it('the matrix a request waits for holds background work until its answer is made', async (t) => {
    const index = await openIndex(t, false);
    await index.ready;
    const state = await index.agentViews(60_000);
    assert.equal(backgroundTurn(), undefined);
    const answering = agentMatrixAnswer(state);
    assert.notEqual(backgroundTurn(), undefined);
    const answer = await answering;
    assert.equal(backgroundTurn(), undefined);
    const body = JSON.parse(String(answer.body)) as { skills: Array<{ name: string }> };
    assert.deepEqual(
      body.skills.map((row) => row.name),
      ['alpha', 'beta', 'gamma'],
    );
  });

  it('the first views’ own watches are armed once no request holds background work', async (t) => {
    const index = await openIndex(t, true);
    await index.ready;
    const release = holdBackground();
    t.after(release);
    await index.agentViews(60_000);
    let settled = false;
    const settling = index.agentViewsSettled().then(() => {
      settled = true;
    });
    // Held: many turns of the event loop and the watches still wait.
    for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false);
    release();
    await settling;
    assert.equal(settled, true);
  });
});
