// The rules that differ between agents (docs/agents.md): walk stops, links, precedence, names, broken YAML, trust,
// environment flags and side files, each on a real temp tree.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
import { agentWorlds, loadedNames, S, skill } from '../helpers/agent-trees.js';

const world = agentWorlds();

test('walk stops: outside a repository Claude Code and Copilot CLI walk up to HOME, never into it', async () => {
  const tree = ({ H, P }: { H: string; P: string }) => ({
    [`${H}/work/.claude/skills/w/SKILL.md`]: skill('w'),
    [`${P}/.claude/skills/p/SKILL.md`]: skill('p'),
    [`${H}/.github/skills/home-github/SKILL.md`]: skill('home-github'),
  });
  const free = await world(tree, { noRepo: true });
  assert.deepEqual(loadedNames(free, 'claude-code'), ['p', 'w']);
  // Copilot CLI reads HOME's .github/skills (not its .claude/skills) as the walk's last level.
  assert.deepEqual(loadedNames(free, 'copilot-cli'), ['home-github', 'p', 'w']);
  const scoped = free.views.views.get('claude-code')?.skills.map((s) => s.source.scope);
  assert.deepEqual(scoped, ['project', 'project']);
  const repo = await world(tree);
  assert.deepEqual(loadedNames(repo, 'claude-code'), ['p']);
});

test('a linked worktree with its own .claude/skills: Claude Code reads only those; OpenCode walks to it', async () => {
  const w = await world(
    ({ T }) => ({
      [`${T}/main/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${T}/main/.claude/skills/from-main/SKILL.md`]: skill('from-main'),
      [`${T}/wt/.git`]: `gitdir: ${T}/main/.git/worktrees/wt\n`,
      [`${T}/wt/.claude/skills/from-wt/SKILL.md`]: skill('from-wt'),
    }),
    { cwd: 'wt' },
  );
  assert.deepEqual(loadedNames(w, 'claude-code'), ['from-wt']);
  assert.deepEqual(loadedNames(w, 'codex'), []);
});

test('symlinked SKILL.md: Claude Code, Gemini CLI, Copilot CLI follow it; Codex does not', async () => {
  const w = await world(({ T, H, P }) => ({
    [`${T}/store/one.md`]: skill('one'),
    [`${P}/.claude/skills/one/SKILL.md`]: { symlink: `${T}/store/one.md` },
    [`${P}/.agents/skills/one/SKILL.md`]: { symlink: `${T}/store/one.md` },
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['one']);
  assert.deepEqual(loadedNames(w, 'gemini-cli'), ['one']);
  assert.deepEqual(loadedNames(w, 'copilot-cli'), ['one']);
  assert.deepEqual(loadedNames(w, 'codex'), []);
  // Copilot CLI reaches the one file twice (two roots): the second finding loses on the name.
  const copilot = w.views.views.get('copilot-cli');
  assert.equal(copilot?.collisions[0]?.shadowed[0]?.reason, 'precedence');
});

test('one file through two links: Claude Code loads it once, the other place is a duplicate-file', async () => {
  const w = await world(({ T, H, P }) => ({
    [`${T}/shared/tool/SKILL.md`]: skill('tool'),
    [`${H}/.claude/skills/tool`]: { symlink: `${T}/shared/tool` },
    [`${P}/.claude/skills/tool`]: { symlink: `${T}/shared/tool` },
  }));
  const claude = w.views.views.get('claude-code');
  assert.deepEqual(
    claude?.skills.map((s) => s.filePath),
    [`${w.H}/.claude/skills/tool/SKILL.md`],
  );
  assert.deepEqual(claude?.collisions[0]?.shadowed, [
    {
      filePath: `${w.P}/.claude/skills/tool/SKILL.md`,
      source: { agent: 'claude-code', scope: 'project', root: `${w.P}/.claude/skills` },
      reason: 'duplicate-file',
    },
  ]);
});

test('precedence: OpenCode’s later load wins (an ancestor beats a closer directory), with the race named', async () => {
  const w = await world(
    ({ P }) => ({
      [`${P}/sub/.claude/skills/x/SKILL.md`]: S({ name: 'x', description: 'near' }),
      [`${P}/.claude/skills/x/SKILL.md`]: S({ name: 'x', description: 'far' }),
    }),
    { cwd: 'home/work/proj/sub' },
  );
  const opencode = w.views.views.get('opencode');
  assert.deepEqual(
    opencode?.skills.map((s) => s.description),
    ['far'],
  );
  const near = `${w.P}/sub/.claude/skills/x/SKILL.md`;
  const far = `${w.P}/.claude/skills/x/SKILL.md`;
  assert.deepEqual(opencode?.warnings, [
    { skillPath: far, message: 'duplicate skill name' },
    { skillPath: '', message: `[skillsd] OpenCode loads one of these at random: ${near}, ${far}` },
  ]);
  const row = w.rows.find((r) => r.filePath === near);
  assert.deepEqual(row?.views.opencode, {
    status: 'shadowed',
    filePath: near,
    reason:
      'may be the one loaded: OpenCode picks one of the files of this name at random (skillsd shows ~/work/proj/.claude/skills/x)',
  });
  // Claude Code and Copilot CLI: the nearer one wins.
  assert.deepEqual(
    w.views.views.get('claude-code')?.skills.map((s) => s.description),
    ['near'],
  );
  assert.deepEqual(
    w.views.views.get('copilot-cli')?.skills.map((s) => s.description),
    ['near'],
  );
});

test('name rules: Copilot CLI ASCII only, Codex 64 characters, Goose no slash, Gemini CLI replaces characters', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.agents/skills/cafe/SKILL.md`]: S({ name: 'café', description: 'd' }),
    [`${P}/.agents/skills/long/SKILL.md`]: S({ name: 'n'.repeat(65), description: 'd' }),
    [`${P}/.agents/skills/slash/SKILL.md`]: S({ name: 'a/b', description: 'd' }),
    [`${P}/.agents/skills/odd/SKILL.md`]: S({ name: '"x<y>"', description: 'd' }),
    [`${P}/.agents/skills/spaced/SKILL.md`]: S({ name: "'  two   words '", description: 'd' }),
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
  }));
  const cell = (folder: string, id: 'copilot-cli' | 'codex' | 'goose') =>
    w.rows.find((r) => r.filePath.endsWith(`/${folder}/SKILL.md`))?.views[id];
  assert.deepEqual(cell('cafe', 'copilot-cli'), {
    status: 'invalid',
    filePath: `${w.P}/.agents/skills/cafe/SKILL.md`,
    reason:
      '[skillsd] Copilot CLI: Skill name must start with an ASCII letter or number and contain only ASCII letters ' +
      '(a-z, A-Z), numbers, hyphens, underscores, dots, colons, and spaces',
  });
  assert.equal(cell('long', 'codex')?.reason, 'invalid name: exceeds maximum length of 64 characters');
  assert.equal(cell('slash', 'goose')?.reason, "Skill name 'a/b' contains '/', skipping");
  assert.ok(loadedNames(w, 'gemini-cli').includes('x-y-'));
  assert.ok(loadedNames(w, 'gemini-cli').includes('a-b'));
  assert.ok(loadedNames(w, 'codex').includes('two words'));
  assert.ok(loadedNames(w, 'opencode').includes('a/b'));
});

test('broken YAML: Copilot CLI rejects, VS Code reads an empty header, OpenCode and Codex repair what they can', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/broken/SKILL.md`]: '---\nname: broken\ndescription: "open\n---\n\nBody\n',
    [`${P}/.agents/skills/colon/SKILL.md`]: '---\nname: colon\ndescription: use it: now\n---\n\nBody\n',
  }));
  const row = (folder: string) => w.rows.find((r) => r.filePath.endsWith(`/${folder}/SKILL.md`));
  assert.deepEqual(row('broken')?.views['copilot-cli'], {
    status: 'invalid',
    filePath: `${w.P}/.agents/skills/broken/SKILL.md`,
    reason: '[skillsd] Copilot CLI: failed to parse YAML frontmatter: a quoted scalar is not closed',
  });
  assert.deepEqual(
    w.views.views
      .get('vscode')
      ?.skills.filter((s) => s.name === 'broken')
      .map((s) => s.description),
    [''],
  );
  assert.equal(row('broken')?.views.opencode.status, 'invalid');
  assert.equal(
    row('broken')?.views.opencode.reason,
    `${w.P}/.agents/skills/broken/SKILL.md: Failed to parse YAML frontmatter`,
  );
  const described = (id: 'opencode' | 'codex') =>
    w.views.views.get(id)?.skills.find((s) => s.name === 'colon')?.description;
  assert.equal(described('opencode'), 'use it: now');
  assert.equal(described('codex'), 'use it: now');
  assert.equal(row('colon')?.views.goose.status, 'invalid');
});

test('Gemini CLI trust: the variable, TRUST_PARENT, the longest rule, folder trust off, a broken file', async () => {
  const tree = (extra: (d: { H: string; P: string }) => Record<string, string>) => (d: { H: string; P: string }) => ({
    [`${d.P}/.agents/skills/ws/SKILL.md`]: skill('ws'),
    ...extra(d),
  });
  const forced = await world(
    tree(() => ({})),
    { env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } },
  );
  assert.deepEqual(loadedNames(forced, 'gemini-cli'), ['ws']);
  const parent = await world(
    tree(({ H, P }) => ({ [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [`${P}/x`]: 'TRUST_PARENT' }) })),
  );
  assert.deepEqual(loadedNames(parent, 'gemini-cli'), ['ws']);
  const longest = await world(
    tree(({ H, P }) => ({
      [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [H]: 'TRUST_FOLDER', [P]: 'DO_NOT_TRUST' }),
    })),
  );
  assert.deepEqual(loadedNames(longest, 'gemini-cli'), []);
  const off = await world(
    tree(({ H }) => ({
      [`${H}/.gemini/settings.json`]:
        '{\n  // comments are allowed\n  "security": { "folderTrust": { "enabled": false } }\n}\n',
    })),
  );
  assert.deepEqual(loadedNames(off, 'gemini-cli'), ['ws']);
  const broken = await world(tree(({ H }) => ({ [`${H}/.gemini/trustedFolders.json`]: '[1, 2]' })));
  assert.deepEqual(loadedNames(broken, 'gemini-cli'), []);
  const file = `${broken.H}/.gemini/trustedFolders.json`;
  assert.deepEqual(broken.views.views.get('gemini-cli')?.warnings, [
    { skillPath: file, message: `Error in ${file}: Trusted folders file is not a valid JSON object.` },
  ]);
});

test('OpenCode flags and Codex side files', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${H}/.claude/skills/ext/SKILL.md`]: skill('ext'),
      [`${H}/.config/opencode/skills/own/SKILL.md`]: skill('own'),
      [`${P}/.agents/skills/quiet/SKILL.md`]: skill('quiet'),
      [`${P}/.agents/skills/quiet/agents/openai.yaml`]: 'policy:\n  allow_implicit_invocation: false\n',
      [`${P}/.agents/skills/other-product/SKILL.md`]: skill('other-product'),
      [`${P}/.agents/skills/other-product/agents/openai.yaml`]: 'policy:\n  products: [chatgpt]\n',
    }),
    { env: { OPENCODE_DISABLE_EXTERNAL_SKILLS: '1' } },
  );
  assert.deepEqual(loadedNames(w, 'opencode'), ['own']);
  const ext = w.rows.find((r) => r.name === 'ext');
  assert.deepEqual(ext?.views.opencode, {
    status: 'unseen',
    reason: 'OpenCode does not read .claude and .agents skills while OPENCODE_DISABLE_EXTERNAL_SKILLS is set',
  });
  const codex = w.views.views.get('codex');
  assert.deepEqual(
    codex?.skills.map((s) => [s.name, s.hide]),
    [['quiet', true]],
  );
  assert.deepEqual(agentCatalog(w.views, 'codex', undefined).entries, []);
  const other = w.rows.find((r) => r.name === 'other-product');
  assert.equal(other?.views.codex.reason, '[skillsd] Codex skips a skill whose policy.products excludes codex');
});

test('CODEX_HOME that is not a directory empties the Codex view with a warning', async () => {
  const w = await world(({ T, H }) => ({ [`${T}/not-a-dir`]: 'x', [`${H}/.agents/skills/a/SKILL.md`]: skill('a') }), {
    env: {},
  });
  assert.deepEqual(loadedNames(w, 'codex'), ['a']);
  const { computeAgentViews } = await import('../../src/discovery/agents/compute-views.js');
  const { AgentFileTexts } = await import('../../src/discovery/agents/file-texts.js');
  const views = await computeAgentViews({
    home: w.H,
    cwd: w.P,
    env: { CODEX_HOME: `${w.T}/not-a-dir` },
    texts: new AgentFileTexts(),
    symlinks: 'follow',
    discoverProfile: async () => ({
      skills: [],
      warnings: [],
      collisions: [],
      diagnostics: [],
      scannedDirs: [],
      repoRoot: null,
    }),
  });
  assert.deepEqual(views.views.get('codex')?.skills, []);
  assert.deepEqual(views.views.get('codex')?.warnings, [
    { skillPath: '', message: `[skillsd] CODEX_HOME is not a directory: ${w.T}/not-a-dir` },
  ]);
});

test('Claude Code reads booleans leniently: disable-model-invocation: yes keeps a skill out of its listing', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.claude/skills/quiet/SKILL.md`]: S({ name: 'quiet', description: 'd', 'disable-model-invocation': 'yes' }),
    [`${P}/.claude/skills/loud/SKILL.md`]: S({ name: 'loud', description: 'd', when_to_use: 'always' }),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['loud', 'quiet']);
  assert.equal(
    agentCatalog(w.views, 'claude-code', undefined).text,
    'The following skills are available for use with the Skill tool:\n\n- loud: d - always',
  );
});
