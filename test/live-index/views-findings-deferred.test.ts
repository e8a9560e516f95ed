// The first views are set before the doctor's findings are added to them (src/live-index/workspace-agent-views.ts,
// compute-views.ts `deferFindings`): the matrix of `GET /agents` reads no diagnostics and does not wait for the
// doctor; an answer that lists diagnostics (`GET /skills?agent=`) waits for them, and an update starts from views
// that carry them. A real WorkspaceIndex on a temp tree.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { holdBackground } from '../../src/discovery/time-slices.js';
import type { AgentViewsState } from '../../src/live-index/agent-views-state.js';
import { WorkspaceIndex } from '../../src/live-index/workspace-index.js';
import { WAIT_MS, waitUntil } from '../helpers/deadlines.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const UNKNOWN_FIELD = '---\nname: tidy\ndescription: Tidy up\ncolour: blue\n---\n\n# Body\n';

async function open(t: TestContext, watch: boolean) {
  const { dir, cleanup } = await makeTempDir('skillsd-views-findings-');
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.claude/skills/tidy/SKILL.md': UNKNOWN_FIELD,
    'work/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  });
  const index = new WorkspaceIndex({
    home: `${dir}/home`,
    cwd: `${dir}/work`,
    env: {},
    settings: defaultSettings(),
    watch,
  });
  t.after(async () => {
    await index.close();
    await cleanup();
  });
  await index.ready;
  return { index, tidy: `${dir}/work/.claude/skills/tidy/SKILL.md` };
}

function rules(state: AgentViewsState): string[] {
  return (state.views.views.get('claude-code')?.diagnostics ?? []).map((finding) => finding.rule);
}

describe('the doctor’s findings of the first views', () => {
  it('are not waited for by the matrix, and are by an answer that lists diagnostics', async (t) => {
    const { index, tidy } = await open(t, false);
    const records = await index.agentViews(WAIT_MS, false);
    // Answered with the views' records alone: the doctor has not looked yet.
    assert.deepEqual(rules(records), []);
    const matrix = await records.views.matrix();
    assert.deepEqual(
      matrix.rows.map((row) => [row.name, row.views['claude-code'].status]),
      [
        ['pdf', 'loaded'],
        ['tidy', 'loaded'],
      ],
    );
    const full = await index.agentViews(WAIT_MS);
    assert.deepEqual(full.views.views.get('claude-code')?.diagnostics, [
      {
        rule: 'spec-unknown-field',
        severity: 'info',
        path: tidy,
        line: 4,
        message: 'field "colour" is not in the Agent Skills specification',
      },
    ]);
    // The same views, now with their findings: what the matrix answered stays true.
    assert.equal(full.views, records.views);
  });

  it('are kept by an update that comes before they were added', async (t) => {
    const { index, tidy } = await open(t, true);
    // Background work held back: the findings are not added ahead, and the edit's update comes first.
    const release = holdBackground();
    try {
      const records = await index.agentViews(WAIT_MS, false);
      assert.deepEqual(rules(records), []);
      await writeFile(tidy, UNKNOWN_FIELD.replace('Tidy up', 'Tidy everything up'));
      await waitUntil('the edit reaches the claude-code view', async () => {
        const state = await index.agentViews(WAIT_MS, false);
        const view = state.views.views.get('claude-code');
        return view?.skills.some((skill) => skill.description === 'Tidy everything up') === true;
      });
    } finally {
      release();
    }
    await index.agentViewsSettled();
    const state = await index.agentViews(WAIT_MS);
    assert.deepEqual(rules(state), ['spec-unknown-field']);
  });
});
