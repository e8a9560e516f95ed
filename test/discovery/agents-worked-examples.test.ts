// The worked examples of docs/agents.md, on real temp trees, for every agent.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentWorlds, loadedNames, S, skill } from '../helpers/agent-trees.js';

const world = agentWorlds();

test('1. roots: each agent loads exactly the roots it reads', async () => {
  const names = ['u-claude', 'p-claude', 'u-agents', 'p-agents', 'p-github', 'u-copilot', 'u-gemini', 'p-gemini', 'p-opencode', 'u-opencode', 'u-codex', 'p-codex', 'p-goose', 'u-goose', 'u-cfgagents'];
  const where: Record<string, string> = {
    'u-claude': 'H/.claude/skills', 'p-claude': 'P/.claude/skills', 'u-agents': 'H/.agents/skills', 'p-agents': 'P/.agents/skills',
    'p-github': 'P/.github/skills', 'u-copilot': 'H/.copilot/skills', 'u-gemini': 'H/.gemini/skills', 'p-gemini': 'P/.gemini/skills',
    'p-opencode': 'P/.opencode/skills', 'u-opencode': 'H/.config/opencode/skills', 'u-codex': 'H/.codex/skills',
    'p-codex': 'P/.codex/skills', 'p-goose': 'P/.goose/skills', 'u-goose': 'H/.config/goose/skills', 'u-cfgagents': 'H/.config/agents/skills',
  };
  const tree = ({ H, P }: { H: string; P: string }) =>
    Object.fromEntries(names.map((n) => [`${(where[n] as string).replace(/^H/, H).replace(/^P/, P)}/${n}/SKILL.md`, skill(n)]));
  const w = await world(tree);
  assert.deepEqual(loadedNames(w, 'claude-code'), ['p-claude', 'u-claude']);
  assert.deepEqual(loadedNames(w, 'codex'), ['p-agents', 'p-codex', 'u-agents', 'u-codex']);
  assert.deepEqual(loadedNames(w, 'opencode'), ['p-agents', 'p-claude', 'p-opencode', 'u-agents', 'u-claude', 'u-opencode']);
  assert.deepEqual(loadedNames(w, 'gemini-cli'), ['u-agents', 'u-gemini']);
  assert.deepEqual(loadedNames(w, 'copilot-cli'), ['p-agents', 'p-claude', 'p-github', 'u-agents', 'u-copilot']);
  assert.deepEqual(loadedNames(w, 'vscode'), ['p-agents', 'p-claude', 'p-github', 'u-agents', 'u-claude', 'u-copilot']);
  assert.deepEqual(loadedNames(w, 'goose'), ['p-agents', 'p-claude', 'p-goose', 'u-agents', 'u-cfgagents', 'u-claude', 'u-goose']);
  const trusted = await world((dirs) => ({
    ...tree(dirs),
    [`${dirs.H}/.gemini/trustedFolders.json`]: JSON.stringify({ [dirs.P]: 'TRUST_FOLDER' }),
  }));
  assert.deepEqual(loadedNames(trusted, 'gemini-cli'), ['p-agents', 'p-gemini', 'u-agents', 'u-gemini']);
  // The matrix says why: Codex does not read .claude/skills; Claude Code does not read ~/.agents/skills.
  const row = w.views.rows.find((r) => r.name === 'p-claude');
  assert.deepEqual(row?.views.codex, { status: 'unseen', reason: 'Codex CLI does not read .claude/skills' });
  const user = w.views.rows.find((r) => r.name === 'u-agents');
  assert.deepEqual(user?.views['claude-code'], { status: 'unseen', reason: 'Claude Code does not read ~/.agents/skills' });
  const gem = w.views.rows.find((r) => r.name === 'p-gemini');
  assert.deepEqual(gem?.views['gemini-cli'], { status: 'unseen', reason: 'Gemini CLI reads workspace skills only in a trusted folder' });
  assert.ok(
    w.views.views.get('gemini-cli')?.warnings.some((x) => x.message === `[skillsd] Gemini CLI does not trust ${w.P}: workspace skills are not loaded`),
  );
});

test('2. walk: each agent walks up as far as it goes, never above the repository', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${P}/.claude/skills/top/SKILL.md`]: skill('top'),
      [`${P}/sub/.claude/skills/low/SKILL.md`]: skill('low'),
      [`${H}/work/.claude/skills/above/SKILL.md`]: skill('above'),
      [`${P}/.agents/skills/atop/SKILL.md`]: skill('atop'),
      [`${P}/sub/.agents/skills/alow/SKILL.md`]: skill('alow'),
      [`${H}/work/.agents/skills/aabove/SKILL.md`]: skill('aabove'),
      [`${P}/.github/skills/gtop/SKILL.md`]: skill('gtop'),
    }),
    { cwd: 'home/work/proj/sub' },
  );
  assert.deepEqual(loadedNames(w, 'claude-code'), ['low', 'top']);
  assert.deepEqual(loadedNames(w, 'copilot-cli'), ['alow', 'atop', 'gtop', 'low', 'top']);
  assert.deepEqual(loadedNames(w, 'codex'), ['alow', 'atop']);
  assert.deepEqual(loadedNames(w, 'opencode'), ['alow', 'atop', 'low', 'top']);
  assert.deepEqual(loadedNames(w, 'vscode'), ['alow', 'low']);
  assert.deepEqual(loadedNames(w, 'goose'), ['alow', 'low']);
});

test('3. no repository: Codex stays in the workspace, OpenCode walks to /', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${P}/.agents/skills/pa/SKILL.md`]: skill('pa'),
      [`${H}/work/.agents/skills/wa/SKILL.md`]: skill('wa'),
      [`${H}/.agents/skills/ua/SKILL.md`]: skill('ua'),
    }),
    { noRepo: true },
  );
  assert.deepEqual(loadedNames(w, 'codex'), ['pa', 'ua']);
  assert.deepEqual(loadedNames(w, 'opencode'), ['pa', 'ua', 'wa']);
});

test('4. depth: one level, six levels, or any depth', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.claude/skills/flat/SKILL.md`]: skill('flat'),
    [`${P}/.claude/skills/group/inner/SKILL.md`]: skill('inner'),
    [`${P}/.agents/skills/l1/l2/l3/l4/l5/l6/SKILL.md`]: S({ name: 'deep6', description: 'd' }),
    [`${P}/.agents/skills/m1/m2/m3/m4/m5/m6/m7/SKILL.md`]: S({ name: 'deep7', description: 'd' }),
    [`${P}/.agents/skills/top/SKILL.md`]: skill('top'),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['flat']);
  assert.deepEqual(loadedNames(w, 'vscode'), ['flat', 'top']);
  assert.deepEqual(loadedNames(w, 'codex'), ['deep6', 'top']);
  assert.deepEqual(loadedNames(w, 'opencode'), ['deep6', 'deep7', 'flat', 'inner', 'top']);
  assert.deepEqual(loadedNames(w, 'goose'), ['deep6', 'deep7', 'flat', 'inner', 'top']);
  const inner = w.views.rows.find((r) => r.name === 'inner');
  assert.equal(inner?.views['claude-code'].reason, 'Claude Code reads only one level below ~/work/proj/.claude/skills');
  const deep7 = w.views.rows.find((r) => r.name === 'deep7');
  assert.equal(deep7?.views.codex.reason, `Codex finds a SKILL.md at most 6 levels below ${w.P}/.agents/skills`);
});
