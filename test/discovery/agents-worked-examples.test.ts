// The worked examples of docs/agents.md, on real temp trees, for every agent.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentWorlds, loadedNames, S, skill } from '../helpers/agent-trees.js';

const world = agentWorlds();

test('1. roots: each agent loads exactly the roots it reads', async () => {
  const names = [
    'u-claude',
    'p-claude',
    'u-agents',
    'p-agents',
    'p-github',
    'u-copilot',
    'u-gemini',
    'p-gemini',
    'p-opencode',
    'u-opencode',
    'u-codex',
    'p-codex',
    'p-goose',
    'u-goose',
    'u-cfgagents',
  ];
  const where: Record<string, string> = {
    'u-claude': 'H/.claude/skills',
    'p-claude': 'P/.claude/skills',
    'u-agents': 'H/.agents/skills',
    'p-agents': 'P/.agents/skills',
    'p-github': 'P/.github/skills',
    'u-copilot': 'H/.copilot/skills',
    'u-gemini': 'H/.gemini/skills',
    'p-gemini': 'P/.gemini/skills',
    'p-opencode': 'P/.opencode/skills',
    'u-opencode': 'H/.config/opencode/skills',
    'u-codex': 'H/.codex/skills',
    'p-codex': 'P/.codex/skills',
    'p-goose': 'P/.goose/skills',
    'u-goose': 'H/.config/goose/skills',
    'u-cfgagents': 'H/.config/agents/skills',
  };
  const tree = ({ H, P }: { H: string; P: string }) =>
    Object.fromEntries(
      names.map((n) => [`${(where[n] as string).replace(/^H/, H).replace(/^P/, P)}/${n}/SKILL.md`, skill(n)]),
    );
  const w = await world(tree);
  assert.deepEqual(loadedNames(w, 'claude-code'), ['p-claude', 'u-claude']);
  assert.deepEqual(loadedNames(w, 'codex'), ['p-agents', 'p-codex', 'u-agents', 'u-codex']);
  assert.deepEqual(loadedNames(w, 'opencode'), [
    'p-agents',
    'p-claude',
    'p-opencode',
    'u-agents',
    'u-claude',
    'u-opencode',
  ]);
  assert.deepEqual(loadedNames(w, 'gemini-cli'), ['u-agents', 'u-gemini']);
  assert.deepEqual(loadedNames(w, 'copilot-cli'), ['p-agents', 'p-claude', 'p-github', 'u-agents', 'u-copilot']);
  assert.deepEqual(loadedNames(w, 'vscode'), ['p-agents', 'p-claude', 'p-github', 'u-agents', 'u-claude', 'u-copilot']);
  assert.deepEqual(loadedNames(w, 'goose'), [
    'p-agents',
    'p-claude',
    'p-goose',
    'u-agents',
    'u-cfgagents',
    'u-claude',
    'u-goose',
  ]);
  const trusted = await world((dirs) => ({
    ...tree(dirs),
    [`${dirs.H}/.gemini/trustedFolders.json`]: JSON.stringify({ [dirs.P]: 'TRUST_FOLDER' }),
  }));
  assert.deepEqual(loadedNames(trusted, 'gemini-cli'), ['p-agents', 'p-gemini', 'u-agents', 'u-gemini']);
  // The matrix says why: Codex does not read .claude/skills; Claude Code does not read ~/.agents/skills.
  const row = w.rows.find((r) => r.name === 'p-claude');
  assert.deepEqual(row?.views.codex, { status: 'unseen', reason: 'Codex does not read .claude/skills' });
  const user = w.rows.find((r) => r.name === 'u-agents');
  assert.deepEqual(user?.views['claude-code'], {
    status: 'unseen',
    reason: 'Claude Code does not read ~/.agents/skills',
  });
  const gem = w.rows.find((r) => r.name === 'p-gemini');
  assert.deepEqual(gem?.views['gemini-cli'], {
    status: 'unseen',
    reason: 'Gemini CLI reads workspace skills only in a trusted folder',
  });
  assert.ok(
    w.views.views
      .get('gemini-cli')
      ?.warnings.some(
        (x) => x.message === `[skillsd] Gemini CLI does not trust ${w.P}: workspace skills are not loaded`,
      ),
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
  const inner = w.rows.find((r) => r.name === 'inner');
  assert.equal(inner?.views['claude-code'].reason, 'Claude Code reads only one level below ~/work/proj/.claude/skills');
  const deep7 = w.rows.find((r) => r.name === 'deep7');
  assert.equal(deep7?.views.codex.reason, 'Codex finds a SKILL.md at most 6 levels below ~/work/proj/.agents/skills');
});

test('5. hidden directories and links', async () => {
  const w = await world(({ T, P }) => ({
    [`${P}/.agents/skills/.hidden/SKILL.md`]: S({ name: 'hid', description: 'd' }),
    [`${P}/.agents/skills/vis/.inner/SKILL.md`]: S({ name: 'inner', description: 'd' }),
    [`${P}/.agents/skills/ok/SKILL.md`]: skill('ok'),
    [`${T}/store/linked.md`]: skill('linked'),
    [`${P}/.agents/skills/linked/SKILL.md`]: { symlink: `${T}/store/linked.md` },
  }));
  assert.deepEqual(loadedNames(w, 'codex'), ['ok']);
  assert.deepEqual(loadedNames(w, 'opencode'), ['hid', 'inner', 'linked', 'ok']);
  assert.deepEqual(loadedNames(w, 'goose'), ['hid', 'inner', 'linked', 'ok']);
  assert.deepEqual(loadedNames(w, 'vscode'), ['.hidden', 'linked', 'ok']);
  const linked = w.rows.find((r) => r.name === 'linked');
  assert.deepEqual(linked?.views.codex, {
    status: 'unseen',
    reason: 'Codex ignores a SKILL.md that is a symbolic link',
  });
  const hid = w.rows.find((r) => r.name === 'hid');
  assert.deepEqual(hid?.views.codex, { status: 'unseen', reason: 'Codex skips hidden directories' });

  const alias = await world(({ H, P }) => ({
    [`${P}/.agents/skills/real/SKILL.md`]: skill('real'),
    [`${H}/.agents/skills/alias`]: { symlink: `${P}/.agents/skills/real` },
  }));
  const codex = alias.views.views.get('codex');
  assert.deepEqual(
    codex?.skills.map((s) => [s.name, s.filePath, s.source.scope, s.source.root]),
    [['real', `${alias.P}/.agents/skills/real/SKILL.md`, 'user', `${alias.H}/.agents/skills`]],
  );
  assert.deepEqual(codex?.collisions, [
    {
      name: 'real',
      winner: {
        filePath: `${alias.P}/.agents/skills/real/SKILL.md`,
        source: { agent: 'codex', scope: 'user', root: `${alias.H}/.agents/skills` },
      },
      shadowed: [
        {
          filePath: `${alias.P}/.agents/skills/real/SKILL.md`,
          source: { agent: 'codex', scope: 'project', root: `${alias.P}/.agents/skills` },
          reason: 'duplicate-file',
        },
      ],
    },
  ]);
  const goose = alias.views.views.get('goose');
  assert.deepEqual(
    goose?.skills.map((s) => [s.name, s.source.scope]),
    [['real', 'project']],
  );
});

test('6. the same name everywhere: each agent picks its own winner', async () => {
  const places = (H: string, P: string) => [
    `${H}/.claude/skills`,
    `${P}/.claude/skills`,
    `${P}/.agents/skills`,
    `${H}/.agents/skills`,
    `${H}/.config/opencode/skills`,
    `${P}/.github/skills`,
    `${H}/.gemini/skills`,
    `${P}/.gemini/skills`,
  ];
  const w = await world(({ H, P }) => ({
    ...Object.fromEntries(
      places(H, P).map((dir) => [`${dir}/pdf/SKILL.md`, S({ name: 'pdf', description: `pdf in ${dir}` })]),
    ),
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
  }));
  const { H, P } = w;
  const paths = (id: Parameters<typeof loadedNames>[1]) => w.views.views.get(id)?.skills.map((s) => s.filePath);
  assert.deepEqual(paths('claude-code'), [`${H}/.claude/skills/pdf/SKILL.md`]);
  const claudeRow = w.rows.find((r) => r.filePath === `${P}/.claude/skills/pdf/SKILL.md`);
  assert.deepEqual(claudeRow?.views['claude-code'], {
    status: 'shadowed',
    filePath: `${P}/.claude/skills/pdf/SKILL.md`,
    reason: 'shadowed by ~/.claude/skills/pdf (personal beats project)',
  });
  assert.deepEqual(paths('codex')?.sort(), [`${H}/.agents/skills/pdf/SKILL.md`, `${P}/.agents/skills/pdf/SKILL.md`]);
  assert.ok(
    w.views.views
      .get('codex')
      ?.warnings.some(
        (x) =>
          x.skillPath === '' &&
          x.message === '[skillsd] Codex loads 2 skills named "pdf"; a $pdf mention selects none of them',
      ),
  );
  assert.deepEqual(paths('opencode'), [`${H}/.config/opencode/skills/pdf/SKILL.md`]);
  assert.deepEqual(paths('gemini-cli'), [`${P}/.agents/skills/pdf/SKILL.md`]);
  const conflict = (a: string, b: string) =>
    `Skill conflict detected: "pdf" from "${a}/pdf/SKILL.md" is overriding the same skill from "${b}/pdf/SKILL.md".`;
  assert.deepEqual(
    w.views.views.get('gemini-cli')?.warnings.map((x) => x.message),
    [
      conflict(`${H}/.agents/skills`, `${H}/.gemini/skills`),
      conflict(`${P}/.gemini/skills`, `${H}/.agents/skills`),
      conflict(`${P}/.agents/skills`, `${P}/.gemini/skills`),
    ],
  );
  assert.deepEqual(paths('vscode'), [`${P}/.github/skills/pdf/SKILL.md`]);
  assert.deepEqual(paths('goose'), [`${P}/.agents/skills/pdf/SKILL.md`]);
  assert.deepEqual(paths('copilot-cli'), [`${P}/.github/skills/pdf/SKILL.md`]);
});

test('7. names: folder names or frontmatter names', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.claude/skills/folder-a/SKILL.md`]: S({ name: 'other-name', description: 'd' }),
    [`${P}/.agents/skills/anon/SKILL.md`]: S({ description: 'd' }),
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['folder-a']);
  assert.deepEqual(loadedNames(w, 'vscode'), ['anon', 'folder-a']);
  assert.deepEqual(loadedNames(w, 'opencode'), ['other-name']);
  assert.deepEqual(loadedNames(w, 'goose'), ['other-name']);
  assert.deepEqual(loadedNames(w, 'codex'), ['anon']);
  const anon = w.rows.find((r) => r.name === 'anon');
  for (const id of ['goose', 'opencode', 'gemini-cli'] as const) assert.equal(anon?.views[id].status, 'invalid');
  const folder = w.rows.find((r) => r.name === 'other-name');
  assert.equal(folder?.views['claude-code'].reason, 'loaded as folder-a: Claude Code names skills by their folder');
});

test('8. descriptions: required by some agents, optional for others', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.agents/skills/nodesc/SKILL.md`]: S({ name: 'nodesc' }),
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
  }));
  const row = w.rows.find((r) => r.name === 'nodesc');
  assert.equal(row?.views.codex.status, 'invalid');
  assert.equal(row?.views.codex.reason, 'missing field `description`');
  assert.ok(w.views.views.get('codex')?.warnings.some((x) => x.message === 'missing field `description`'));
  assert.equal(row?.views['gemini-cli'].status, 'invalid');
  // OpenCode 1.18.33 requires only `name` (docs/agents.md).
  for (const id of ['goose', 'vscode', 'copilot-cli', 'opencode'] as const) {
    assert.deepEqual(
      w.views.views.get(id)?.skills.map((s) => [s.name, s.description]),
      [['nodesc', '']],
    );
  }
});

test('9. broken YAML: empty metadata, invalid, or the line fallback', async () => {
  const broken = (name: string) => `---\nname: ${name}\ndescription: "unterminated\n---\n\nBody text\n`;
  const w = await world(({ H, P }) => ({
    [`${P}/.claude/skills/broken/SKILL.md`]: broken('broken'),
    [`${P}/.agents/skills/broken2/SKILL.md`]: broken('broken2'),
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
  }));
  assert.deepEqual(
    w.views.views.get('claude-code')?.skills.map((s) => [s.name, s.description]),
    [['broken', 'Body text']],
  );
  const claudeWarnings = w.views.views.get('claude-code')?.warnings.map((x) => x.message);
  assert.deepEqual(claudeWarnings, [
    `[skillsd] Claude Code could not parse the frontmatter of ${w.P}/.claude/skills/broken/SKILL.md; it loads the skill with empty metadata`,
  ]);
  const row2 = w.rows.find((r) => r.filePath.endsWith('broken2/SKILL.md'));
  assert.equal(row2?.views.codex.status, 'invalid');
  assert.match(row2?.views.codex.reason ?? '', /^invalid YAML: /);
  assert.deepEqual(
    w.views.views.get('gemini-cli')?.skills.map((s) => [s.name, s.description]),
    [['broken2', '"unterminated']],
  );
  const row1 = w.rows.find((r) => r.filePath.endsWith('/broken/SKILL.md'));
  assert.equal(row1?.views.goose.status, 'invalid');
  assert.equal(row2?.views.goose.status, 'invalid');
  assert.match(row2?.views.goose.reason ?? '', /^Failed to parse skill frontmatter: /);
});

test('13. environment variables move the roots', async () => {
  const w = await world(
    ({ T, H }) => ({
      [`${T}/ch/skills/ch-skill/SKILL.md`]: skill('ch-skill'),
      [`${H}/.codex/skills/home-codex/SKILL.md`]: skill('home-codex'),
      [`${H}/.agents/skills/home-agents/SKILL.md`]: skill('home-agents'),
      [`${T}/gh/.gemini/skills/gh-gemini/SKILL.md`]: skill('gh-gemini'),
      [`${T}/gh/.agents/skills/gh-agents/SKILL.md`]: skill('gh-agents'),
      [`${T}/cph/skills/cph-skill/SKILL.md`]: skill('cph-skill'),
    }),
    {},
  );
  // Built without the variables first: the home roots are read.
  assert.deepEqual(loadedNames(w, 'codex'), ['home-agents', 'home-codex']);
  const moved = await world(
    ({ T, H }) => ({
      [`${T}/ch/skills/ch-skill/SKILL.md`]: skill('ch-skill'),
      [`${H}/.codex/skills/home-codex/SKILL.md`]: skill('home-codex'),
      [`${H}/.agents/skills/home-agents/SKILL.md`]: skill('home-agents'),
      [`${T}/gh/.gemini/skills/gh-gemini/SKILL.md`]: skill('gh-gemini'),
      [`${T}/gh/.agents/skills/gh-agents/SKILL.md`]: skill('gh-agents'),
      [`${T}/cph/skills/cph-skill/SKILL.md`]: skill('cph-skill'),
    }),
    { env: {} },
  );
  const T = moved.T;
  const env = { CODEX_HOME: `${T}/ch`, GEMINI_CLI_HOME: `${T}/gh`, COPILOT_HOME: `${T}/cph` };
  const { computeAgentViews } = await import('../../src/discovery/agents/compute-views.js');
  const { AgentFileTexts } = await import('../../src/discovery/agents/file-texts.js');
  const { discoverSkills } = await import('../../src/discovery/pipeline/discover-skills.js');
  const { defaultSettings } = await import('../../src/discovery/settings.js');
  const views = await computeAgentViews({
    home: moved.H,
    cwd: moved.P,
    env,
    texts: new AgentFileTexts(),
    symlinks: 'follow',
    discoverProfile: (profile) =>
      discoverSkills({ home: moved.H, cwd: moved.P, env: {}, settings: { ...defaultSettings(), profile } }),
  });
  const names = (id: 'codex' | 'gemini-cli' | 'copilot-cli') =>
    views.views
      .get(id)
      ?.skills.map((s) => s.name)
      .sort();
  assert.deepEqual(names('codex'), ['ch-skill', 'home-agents']);
  assert.deepEqual(names('gemini-cli'), ['gh-agents', 'gh-gemini']);
  assert.deepEqual(names('copilot-cli'), ['cph-skill']);
});

test('14. a SKILL.md directly in ~/.agents/skills', async () => {
  const w = await world(({ H }) => ({ [`${H}/.agents/skills/SKILL.md`]: S({ name: 'rootskill', description: 'd' }) }));
  for (const id of ['codex', 'gemini-cli', 'opencode', 'goose'] as const)
    assert.deepEqual(loadedNames(w, id), ['rootskill']);
  assert.deepEqual(loadedNames(w, 'vscode'), []);
  const row = w.rows.find((r) => r.name === 'rootskill');
  assert.deepEqual(row?.views.vscode, {
    status: 'unseen',
    reason: 'VS Code ignores a SKILL.md directly in ~/.agents/skills',
  });
});
