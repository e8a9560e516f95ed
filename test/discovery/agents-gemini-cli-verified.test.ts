// Gemini CLI's view as the CLI itself answers it (docs/agents.md "Gemini CLI"; docs/conformance.md): settings and
// trust files that stop it, restricted mode, the longest trust key as written, `.env` files, the order inside a root,
// every path to a folder, the line fallback, YAML dates, the skills settings and the catalog per model.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { resolveAgentContext } from '../../src/discovery/agents/agent-context.js';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
import { AgentFileTexts } from '../../src/discovery/agents/file-texts.js';
import { geminiCli, legacyModel, readGeminiSkill } from '../../src/discovery/agents/gemini-cli.js';
import { parseDotenv } from '../../src/discovery/agents/gemini-trust.js';
import { runAgent } from '../../src/discovery/agents/run-agent.js';
import { type AgentWorld, agentWorlds, S } from '../helpers/agent-trees.js';
import type { TreeEntry } from '../helpers/temp-tree.js';

const world = agentWorlds();
const TRUST = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };

function quoted(name: string, description: string): string {
  return S({ name, description: JSON.stringify(description) });
}

/** One skill in each of the four roots. */
const fourRoots = ({ H, P }: { H: string; P: string }): Record<string, TreeEntry> => ({
  [`${H}/.gemini/skills/u-gemini/SKILL.md`]: quoted('u-gemini', 'user gemini'),
  [`${H}/.agents/skills/u-agents/SKILL.md`]: quoted('u-agents', 'user agents'),
  [`${P}/.gemini/skills/p-gemini/SKILL.md`]: quoted('p-gemini', 'project gemini'),
  [`${P}/.agents/skills/p-agents/SKILL.md`]: quoted('p-agents', 'project agents'),
});

function gemini(w: AgentWorld) {
  const view = w.views.views.get('gemini-cli');
  assert.ok(view !== undefined);
  return view;
}

/** `name path` of each loaded skill, paths relative to the world's temp root, sorted. */
function loaded(w: AgentWorld): string[] {
  return gemini(w)
    .skills.map((s) => `${s.name} ${s.filePath.slice(w.T.length + 1)}`)
    .sort();
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('parses');
}

test('a settings or trust file Gemini CLI cannot parse stops it: nothing loads, one warning in its words', async () => {
  const cases: Array<{ file: (d: { H: string; P: string }) => string; text: string; message: string; env?: object }> = [
    {
      file: ({ H }) => `${H}/.gemini/settings.json`,
      text: '{ "security": { "folderTrust": { "enabled": false }, }, }\n',
      message: jsonError('{ "security": { "folderTrust": { "enabled": false }, }, }\n'),
    },
    {
      file: ({ P }) => `${P}/.gemini/settings.json`,
      text: '{ "skills": { "disabled": ["x"] }\n',
      message: jsonError('{ "skills": { "disabled": ["x"] }\n'),
      env: TRUST,
    },
    {
      file: ({ H }) => `${H}/.gemini/settings.json`,
      text: '[1]\n',
      message: 'Settings file is not a valid JSON object.',
    },
    {
      file: ({ H }) => `${H}/.gemini/trustedFolders.json`,
      text: '["x"]\n',
      message: 'Trusted folders file is not a valid JSON object.',
    },
    {
      file: ({ H }) => `${H}/.gemini/trustedFolders.json`,
      text: '{ "/somewhere": "TRUST_ALWAYS" }\n',
      message:
        'Invalid trust level "TRUST_ALWAYS" for path "/somewhere". Possible values are: TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST.',
    },
    {
      file: ({ H }) => `${H}/.gemini/trustedFolders.json`,
      text: '{ "/somewhere": "TRUST_FOLDER", }\n',
      message: jsonError('{ "/somewhere": "TRUST_FOLDER", }\n'),
    },
  ];
  for (const { file, text, message, env } of cases) {
    const w = await world((d) => ({ ...fourRoots(d), [file(d)]: text }), env === undefined ? {} : { env: { ...env } });
    const path = file(w);
    assert.deepEqual(loaded(w), [], path);
    assert.deepEqual(gemini(w).warnings, [{ skillPath: path, message: `Error in ${path}: ${message}` }]);
  }
});

test('settings files are JSON with comments; with folder trust off a broken trust file is never read', async () => {
  const w = await world((d) => ({
    ...fourRoots(d),
    [`${d.H}/.gemini/settings.json`]:
      '// user\n{ /* off */ "security": { "folderTrust": { "enabled": false } } // x\n}\n',
    [`${d.H}/.gemini/trustedFolders.json`]: '{ "/x": "TRUST_ALWAYS" }\n',
  }));
  assert.equal(loaded(w).length, 4);
  assert.deepEqual(gemini(w).warnings, []);
});

test('GEMINI_RESTRICTED_MODE=true (exactly) makes the workspace untrusted, before GEMINI_CLI_TRUST_WORKSPACE', async () => {
  for (const [value, count] of [
    ['true', 2],
    ['1', 4],
    ['TRUE', 4],
  ] as const) {
    const w = await world(fourRoots, { env: { GEMINI_RESTRICTED_MODE: value, ...TRUST } });
    assert.equal(loaded(w).length, count, value);
  }
});

test('the matching trust rule with the longest key as written wins, not the longest real path', async () => {
  const w = await world((d) => ({
    ...fourRoots(d),
    [`${d.H}/a-rather-long-link-to-home`]: { symlink: '.' },
    [`${d.H}/.gemini/trustedFolders.json`]: JSON.stringify({
      [d.P]: 'TRUST_FOLDER',
      [`${d.H}/a-rather-long-link-to-home`]: 'DO_NOT_TRUST',
    }),
  }));
  assert.deepEqual(loaded(w), [
    'u-agents home/.agents/skills/u-agents/SKILL.md',
    'u-gemini home/.gemini/skills/u-gemini/SKILL.md',
  ]);
});

test('.env files of a trusted workspace: the first found moves the roots; untrusted or already set, they do not', async () => {
  const cases: Array<{
    name: string;
    tree: (d: { T: string; H: string; P: string }) => Record<string, TreeEntry>;
    env?: Record<string, string>;
    expected: string[];
  }> = [
    {
      name: 'C/.gemini/.env moves the home',
      tree: ({ T, H, P }) => ({
        [`${H}/.gemini/settings.json`]: '{ "security": { "folderTrust": { "enabled": false } } }',
        [`${P}/.gemini/.env`]: `GEMINI_CLI_HOME=${T}/gh\n`,
        [`${T}/gh/.gemini/skills/gh-docx/SKILL.md`]: quoted('gh-docx', 'docx'),
        [`${H}/.gemini/skills/home-docx/SKILL.md`]: quoted('home-docx', 'docx'),
      }),
      expected: ['gh-docx gh/.gemini/skills/gh-docx/SKILL.md'],
    },
    {
      name: 'C/.gemini/.env before C/.env',
      tree: ({ T, P }) => ({
        [`${P}/.gemini/.env`]: `GEMINI_CLI_HOME=${T}/first\n`,
        [`${P}/.env`]: `GEMINI_CLI_HOME=${T}/second\n`,
        [`${T}/first/.gemini/skills/first/SKILL.md`]: quoted('first', 'one'),
        [`${T}/second/.gemini/skills/second/SKILL.md`]: quoted('second', 'two'),
      }),
      env: TRUST,
      expected: ['first first/.gemini/skills/first/SKILL.md'],
    },
    {
      name: 'upward',
      tree: ({ T, H }) => ({
        [`${H}/work/.env`]: `export GEMINI_CLI_HOME="${T}/gh" # moved\n`,
        [`${T}/gh/.agents/skills/gh-sheets/SKILL.md`]: quoted('gh-sheets', 'sheets'),
      }),
      env: TRUST,
      expected: ['gh-sheets gh/.agents/skills/gh-sheets/SKILL.md'],
    },
    {
      name: 'untrusted: only API keys',
      tree: ({ T, H, P }) => ({
        [`${P}/.env`]: `GEMINI_CLI_HOME=${T}/gh\n`,
        [`${T}/gh/.gemini/skills/gh-docx/SKILL.md`]: quoted('gh-docx', 'docx'),
        [`${H}/.gemini/skills/home-docx/SKILL.md`]: quoted('home-docx', 'docx'),
      }),
      expected: ['home-docx home/.gemini/skills/home-docx/SKILL.md'],
    },
    {
      name: 'GEMINI_CLI_TRUST_WORKSPACE=false from the .env untrusts the project roots',
      tree: (d) => ({
        ...fourRoots(d),
        [`${d.H}/.gemini/settings.json`]: '{ "security": { "folderTrust": { "enabled": false } } }',
        [`${d.P}/.gemini/.env`]: 'GEMINI_CLI_TRUST_WORKSPACE=false\n',
      }),
      expected: ['u-agents home/.agents/skills/u-agents/SKILL.md', 'u-gemini home/.gemini/skills/u-gemini/SKILL.md'],
    },
    {
      name: 'a variable already set wins',
      tree: ({ T, P }) => ({
        [`${P}/.gemini/.env`]: `GEMINI_CLI_HOME=${T}/from-file\n`,
        [`${T}/from-env/.gemini/skills/from-env/SKILL.md`]: quoted('from-env', 'env'),
        [`${T}/from-file/.gemini/skills/from-file/SKILL.md`]: quoted('from-file', 'file'),
      }),
      // Relative to the workspace: the temp root's `from-env`.
      env: { ...TRUST, GEMINI_CLI_HOME: '../../../from-env' },
      expected: ['from-env from-env/.gemini/skills/from-env/SKILL.md'],
    },
  ];
  for (const { name, tree, env, expected } of cases) {
    const w = await world(tree, env === undefined ? {} : { env });
    assert.deepEqual(loaded(w), expected, name);
  }
});

test('dotenv values: quotes, export, comments', () => {
  assert.deepEqual(parseDotenv('A=1\nexport B="two words" # c\nC=\'x y\'\n# D=4\nE = five \nF="a\\nb"\n'), {
    A: '1',
    B: 'two words',
    C: 'x y',
    E: 'five',
    F: 'a\nb',
  });
});

test('inside a root: SKILL.md first, then folders in descending name order, which decides duplicates', async () => {
  const w = await world(
    ({ P }) => ({
      [`${P}/.gemini/skills/SKILL.md`]: quoted('root-skill', 'root'),
      [`${P}/.gemini/skills/alpha/SKILL.md`]: quoted('alpha', 'a'),
      [`${P}/.gemini/skills/Beta/SKILL.md`]: quoted('beta', 'b'),
      [`${P}/.gemini/skills/delta-10/SKILL.md`]: quoted('delta-10', 'd10'),
      [`${P}/.gemini/skills/delta-2/SKILL.md`]: quoted('delta-2', 'd2'),
      [`${P}/.agents/skills/pdf-a/SKILL.md`]: quoted('pdf', 'folder pdf-a'),
      [`${P}/.agents/skills/pdf-b/SKILL.md`]: quoted('pdf', 'folder pdf-b'),
      [`${P}/.agents/skills/sheets/SKILL.md`]: quoted('sheets', 'sheets'),
    }),
    { env: TRUST },
  );
  const view = gemini(w);
  assert.deepEqual(
    view.skills.map((s) => `${s.name}=${s.description}`),
    ['root-skill=root', 'delta-2=d2', 'delta-10=d10', 'alpha=a', 'beta=b', 'sheets=sheets', 'pdf=folder pdf-a'],
  );
});

test('every path to a folder is its own skill: two links to one folder, a link to the root itself', async () => {
  const w = await world(
    ({ T, P }) => ({
      [`${T}/shared/deploy/SKILL.md`]: quoted('deploy', 'deploy'),
      [`${P}/.gemini/skills/deploy-a`]: { symlink: `${T}/shared/deploy` },
      [`${P}/.gemini/skills/deploy-b`]: { symlink: `${T}/shared/deploy` },
      [`${P}/.agents/skills/SKILL.md`]: quoted('root-skill', 'root'),
      [`${P}/.agents/skills/self`]: { symlink: '.' },
    }),
    { env: TRUST },
  );
  assert.deepEqual(loaded(w), [
    'deploy home/work/proj/.gemini/skills/deploy-a/SKILL.md',
    'root-skill home/work/proj/.agents/skills/self/SKILL.md',
  ]);
  const p = `${w.P}/.gemini/skills`;
  assert.ok(
    gemini(w).warnings.some(
      (x) =>
        x.message ===
        `Skill conflict detected: "deploy" from "${p}/deploy-a/SKILL.md" is overriding the same skill from "${p}/deploy-b/SKILL.md".`,
    ),
  );
});

test('the workspace through a link is worked in by its real path', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${H}/work-link`]: { symlink: P },
      [`${P}/.gemini/skills/deploy/SKILL.md`]: quoted('deploy', 'deploy'),
    }),
    { env: TRUST, cwd: 'home/work-link' },
  );
  assert.deepEqual(loaded(w), ['deploy home/work/proj/.gemini/skills/deploy/SKILL.md']);
});

test('the reader: js-yaml strings only (a plain date is not), then the line fallback as the CLI reads lines', () => {
  const cases: Array<[string[], { name: string; description: string } | null]> = [
    [['name: release', 'description: 2024-01-01 # release'], { name: 'release', description: '2024-01-01 # release' }],
    [['name: 2025-06-30', 'description: "Run it"'], { name: '2025-06-30', description: '"Run it"' }],
    [['name: quoted', 'description: "2024-01-01"'], { name: 'quoted', description: '2024-01-01' }],
    [['name: stamp', 'description: 2024-1-2 10:20:30'], { name: 'stamp', description: '2024-1-2 10:20:30' }],
    [['name: comment', 'description: Plain text # a comment'], { name: 'comment', description: 'Plain text' }],
    // The fallback takes the indented lines after description: and does not read them again.
    [
      ['name: first-name', 'description: Use when: asked', '  name: second-name'],
      { name: 'first-name', description: 'Use when: asked name: second-name' },
    ],
    [
      ['name: early: name', 'description: Docs: here', 'name: late-name'],
      { name: 'late-name', description: 'Docs: here' },
    ],
    [
      ['name: deploy', 'description: Steps: build   ', '  then: verify', '', '\tand notify', 'owner: x'],
      { name: 'deploy', description: 'Steps: build then: verify' },
    ],
    [['name: boolean', 'description: true'], { name: 'boolean', description: 'true' }],
    [['name: only'], null],
  ];
  for (const [lines, expected] of cases) {
    const outcome = readGeminiSkill(`---\n${lines.join('\n')}\n---\n# Body\n`, { filePath: '/x/SKILL.md' });
    const got = outcome.ok ? { name: outcome.name, description: outcome.description } : null;
    assert.deepEqual(got, expected, lines.join(' | '));
  }
});

test('skills.disabled (names, any case, user and trusted workspace settings) and skills.enabled false', async () => {
  const disabled = await world(
    ({ H, P }) => ({
      [`${H}/.gemini/settings.json`]: '{ "skills": { "disabled": ["PDF"] } }',
      [`${P}/.gemini/settings.json`]: '{ "skills": { "disabled": ["review"] } }',
      [`${H}/.gemini/skills/pdf/SKILL.md`]: quoted('pdf', 'pdf'),
      [`${P}/.gemini/skills/review/SKILL.md`]: quoted('review', 'review'),
      [`${P}/.gemini/skills/docx/SKILL.md`]: quoted('docx', 'docx'),
    }),
    { env: TRUST },
  );
  assert.deepEqual(loaded(disabled), ['docx home/work/proj/.gemini/skills/docx/SKILL.md']);
  const untrusted = await world(({ H, P }) => ({
    [`${P}/.gemini/settings.json`]: '{ "skills": { "disabled": ["docx"] } }',
    [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', 'docx'),
  }));
  assert.deepEqual(loaded(untrusted), ['docx home/.gemini/skills/docx/SKILL.md']);
  const off = await world(
    (d) => ({ ...fourRoots(d), [`${d.H}/.gemini/settings.json`]: '{ "skills": { "enabled": false } }' }),
    {
      env: TRUST,
    },
  );
  assert.deepEqual(loaded(off), []);
});

test('the catalog: built-in names first, the sentence per model, three newlines collapsed to two', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', 'Word'),
      [`${P}/.gemini/skills/creator/SKILL.md`]: quoted('skill-creator', 'Ours'),
      [`${P}/.gemini/skills/literal/SKILL.md`]: S({ name: 'literal', description: '|\n  One.\n\n\n\n  Two.' }),
    }),
    { env: TRUST },
  );
  const entry = (name: string, description: string, path: string) =>
    `  <skill>\n    <name>${name}</name>\n    <description>${description}</description>\n    <location>${path}</location>\n  </skill>`;
  const body = [
    entry('skill-creator', 'Ours', `${w.P}/.gemini/skills/creator/SKILL.md`),
    entry('docx', 'Word', `${w.H}/.gemini/skills/docx/SKILL.md`),
    entry('literal', 'One.\n\nTwo.\n', `${w.P}/.gemini/skills/literal/SKILL.md`),
  ].join('\n');
  const current =
    "You have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.";
  const legacy = current.replace('instructions, call', 'instructions, you can call');
  const text = (sentence: string) =>
    `# Available Agent Skills\n\n${sentence}\n\n<available_skills>\n${body}\n</available_skills>`;
  assert.equal(agentCatalog(w.views, 'gemini-cli', undefined).text, text(current));
  assert.equal(agentCatalog(w.views, 'gemini-cli', undefined, 'gemini-3-flash-preview').text, text(current));
  assert.equal(agentCatalog(w.views, 'gemini-cli', undefined, 'gemini-2.5-flash').text, text(legacy));
  assert.equal(agentCatalog(w.views, 'gemini-cli', undefined, 'acme-coder-1').text, text(current));
});

test('which models get the older catalog sentence', () => {
  const table: Array<[string, boolean]> = [
    ['auto', false],
    ['pro', false],
    ['flash', false],
    ['gemini-3-pro-preview', false],
    ['gemini-3.5-flash', false],
    ['acme-coder-1', false],
    ['gemma-4-31b-it', false],
    ['gemini-2.5-flash', true],
    ['gemini-2.5-pro', true],
    ['auto-gemini-2.5', true],
    ['gemini-1.5-pro', true],
  ];
  for (const [model, legacy] of table) assert.equal(legacyModel(model), legacy, model);
});

test('a .env or workspace settings file that is a FIFO is not waited on: a warning each, the rest still applies', async () => {
  const w = await world(({ H, P }) => ({
    [`${H}/.gemini/skills/docx/SKILL.md`]: quoted('docx', 'docx'),
    [`${P}/.gemini/skills/deploy/SKILL.md`]: quoted('deploy', 'deploy'),
    [`${P}/.gemini/.keep`]: '',
  }));
  execFileSync('mkfifo', [`${w.P}/.gemini/.env`, `${w.P}/.gemini/settings.json`]);
  const view = await runAgent(geminiCli, await resolveAgentContext(w.H, w.P, TRUST), new AgentFileTexts());
  assert.deepEqual(view?.skills.map((s) => s.name).sort(), ['deploy', 'docx']);
  assert.deepEqual(
    view?.warnings.map((x) => x.message),
    [
      `[skillsd] Gemini CLI settings ${w.P}/.gemini/settings.json are not read (not a regular file): its skills settings are not applied`,
      `[skillsd] Gemini CLI loads ${w.P}/.gemini/.env into its environment; skillsd does not read it (not a regular file)`,
    ],
  );
});
