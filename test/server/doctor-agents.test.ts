// GET /doctor/{name}'s `agents` over a real socket: for each agent, the file and outcome of the skill that agent
// itself calls NAME, as its own view answers (`GET /skills?agent=`). Claude Code and VS Code name a skill by its
// folder (docs/agents.md), so `pdf-2/SKILL.md` declaring `name: pdf` is their `pdf-2`, not their `pdf`.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

const TREE = {
  'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'home/.claude/skills/pdf-2/SKILL.md': SK({ name: 'pdf', description: 'PDF tools, a copy' }),
};

describe('GET /doctor/{name}: what each agent does with the name', () => {
  it('names the file each agent’s own view loads under that name', async (t) => {
    const server = await startServer(t, { tree: TREE });
    const pdf = `${server.home}/.claude/skills/pdf/SKILL.md`;
    const copy = `${server.home}/.claude/skills/pdf-2/SKILL.md`;
    const { body } = await getJson(`${server.base}/doctor/pdf`);
    for (const agent of ['claude-code', 'vscode']) {
      const view = await getJson(`${server.base}/skills?agent=${agent}`);
      const loaded = view.body.skills.filter((skill: { name: string }) => skill.name === 'pdf');
      assert.deepEqual(
        loaded.map((skill: { filePath: string }) => skill.filePath),
        [pdf],
        agent,
      );
      assert.deepEqual(body.agents[agent], { status: 'loaded', filePath: pdf }, agent);
    }
    // The daemon's own profile: both files are `pdf`, and the first by path wins (docs/discovery.md §1).
    assert.equal(body.winner.filePath, copy);
    assert.deepEqual(body.agents.musepi, { status: 'loaded', filePath: copy });

    // The folder's name is a name of its own for those agents, and only for them.
    const other = await getJson(`${server.base}/doctor/pdf-2`);
    assert.deepEqual(other.body.agents['claude-code'], {
      status: 'loaded',
      filePath: copy,
      reason: 'loaded as pdf-2: Claude Code names skills by their folder',
    });
    assert.deepEqual(other.body.agents.vscode, {
      status: 'loaded',
      filePath: copy,
      reason: 'loaded as pdf-2: VS Code (Copilot Chat) names skills by their folder',
    });
    assert.deepEqual(other.body.agents.musepi, { status: 'loaded', filePath: copy, reason: 'loaded as pdf' });
  });
});
