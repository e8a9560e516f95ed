// Codex CLI's view as Codex 0.169.0 itself answers it (docs/agents.md "Codex CLI" and "Codex's budget";
// docs/conformance.md): strict UTF-8, no BOM, typed names and descriptions, duplicate fields, a directory named
// SKILL.md, an empty `.git`, plugin namespaces, and the catalog frame, alias table and model windows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCodexSkill } from '../../src/discovery/agents/codex.js';
import { codexCatalog } from '../../src/discovery/agents/codex-catalog.js';
import type { AgentSkill } from '../../src/discovery/agents/types.js';
import { type AgentWorld, agentWorlds } from '../helpers/agent-trees.js';

const world = agentWorlds();

const file = (lines: string[]): string => `---\n${lines.join('\n')}\n---\n\n# Body\n`;

function codex(w: AgentWorld) {
  const view = w.views.views.get('codex');
  assert.ok(view !== undefined);
  return view;
}

/** `name path` of each loaded skill, paths relative to the world's temp root, sorted. */
function loaded(w: AgentWorld): string[] {
  return codex(w)
    .skills.map((s) => `${s.name} ${s.filePath.slice(w.T.length + 1)}`)
    .sort();
}

function rejected(w: AgentWorld): string[] {
  return codex(w)
    .diagnostics.filter((d) => d.rule === 'agent-rejected')
    .map((d) => `${d.path.slice(w.T.length + 1)}: ${d.message}`)
    .sort();
}

test('Codex reads names and descriptions as it deserialises them', () => {
  const cases: Array<{ text: string; name?: string; description?: string; message?: string }> = [
    { text: `\uFEFF${file(['name: bom', 'description: d'])}`, message: 'missing YAML frontmatter delimited by ---' },
    {
      text: `${file(['name: bad', 'description: d'])}\uFFFD`,
      message: 'failed to read file: invalid utf-8 sequence of 1 bytes from index 41',
    },
    { text: file(['name: 123', 'description: Integer name']), name: '123', description: 'Integer name' },
    { text: file(['name: true', 'description: d']), name: 'true', description: 'd' },
    { text: file(['name: 1.50', 'description: d']), name: '1.50', description: 'd' },
    { text: file(['name: {a: 1}', 'description: d']), name: '{a: 1}', description: 'd' },
    { text: file(['name: null', 'description: d']), name: 'folder', description: 'd' },
    {
      text: file(['name: [a, b]', 'description: d']),
      message: 'invalid YAML: name: invalid type: sequence, expected a string at line 1 column 7',
    },
    { text: file(['name: n', 'description: 42']), name: 'n', description: '42' },
    { text: file(['name: n', 'description: false']), name: 'n', description: 'false' },
    { text: file(['name: n', 'description: 3.10']), name: 'n', description: '3.10' },
    { text: file(['name: n', 'description: {when: always}']), name: 'n', description: '{when: always}' },
    {
      text: file(['name: n', 'description: [one, two]']),
      message: 'invalid YAML: description: invalid type: sequence, expected a string at line 2 column 14',
    },
    {
      text: file(['name: n', 'description:', '  when: always']),
      message: 'invalid YAML: description: invalid type: map, expected a string at line 3 column 3',
    },
    { text: file(['name: n', 'description: ~']), message: 'missing field `description`' },
    { text: file(['name: a', 'description: d', 'name: b']), message: 'invalid YAML: duplicate field `name`' },
    {
      text: file(['name: a', 'description: d', 'description: e']),
      message: 'invalid YAML: duplicate field `description`',
    },
    { text: file(['name: a', 'description: ok', 'tags: a', 'tags: b']), name: 'a', description: 'ok' },
  ];
  for (const { text, name, description, message } of cases) {
    const outcome = readCodexSkill(text, 'folder');
    if (message !== undefined) assert.deepEqual(outcome, { ok: false, message }, text);
    else assert.deepEqual(outcome, { ok: true, name, description, hide: false }, text);
  }
});

test('a directory named SKILL.md is walked into; agents/openai.yaml is looked up in exact lower case', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/odd/SKILL.md/SKILL.md`]: file(['name: inside-dir', 'description: d']),
    [`${P}/.agents/skills/upper/SKILL.md`]: file(['name: upper', 'description: d']),
    [`${P}/.agents/skills/upper/Agents/openai.yaml`]: 'policy:\n  allow_implicit_invocation: false\n',
  }));
  assert.deepEqual(loaded(w), [
    'inside-dir home/work/proj/.agents/skills/odd/SKILL.md/SKILL.md',
    'upper home/work/proj/.agents/skills/upper/SKILL.md',
  ]);
  assert.deepEqual(
    codex(w).skills.map((s) => s.hide),
    [false, false],
  );
});

test('an empty .git directory makes no repository root for the .codex/skills walk (.agents/skills still walks up)', async () => {
  const w = await world(
    ({ P }) => ({
      [`${P}/.git`]: { dir: true },
      [`${P}/.codex/skills/top-codex/SKILL.md`]: file(['name: top-codex', 'description: d']),
      [`${P}/.agents/skills/top-agents/SKILL.md`]: file(['name: top-agents', 'description: d']),
      [`${P}/sub/.codex/skills/low-codex/SKILL.md`]: file(['name: low-codex', 'description: d']),
      [`${P}/sub/.agents/skills/low-agents/SKILL.md`]: file(['name: low-agents', 'description: d']),
    }),
    { noRepo: true, cwd: 'home/work/proj/sub' },
  );
  assert.deepEqual(loaded(w), [
    'low-agents home/work/proj/sub/.agents/skills/low-agents/SKILL.md',
    'low-codex home/work/proj/sub/.codex/skills/low-codex/SKILL.md',
    'top-agents home/work/proj/.agents/skills/top-agents/SKILL.md',
  ]);
});

test('plugin manifests name skills <plugin>:<skill>; 129 characters at most', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.agents/skills/acme/.codex-plugin/plugin.json`]: '{ "name": "acme", "version": "1.0.0" }\n',
    [`${P}/.agents/skills/acme/skills/pdf/SKILL.md`]: file(['name: pdf', 'description: d']),
    [`${P}/.agents/skills/claudish/.claude-plugin/plugin.json`]: '{ "name": "claudish" }\n',
    [`${P}/.agents/skills/claudish/skills/docx/SKILL.md`]: file(['name: docx', 'description: d']),
    [`${P}/.agents/skills/nameless/.codex-plugin/plugin.json`]: '{ "name": "" }\n',
    [`${P}/.agents/skills/nameless/skills/one/SKILL.md`]: file(['name: one', 'description: d']),
    [`${P}/.agents/skills/broken/.codex-plugin/plugin.json`]: '{ "name": "broken", \n',
    [`${P}/.agents/skills/broken/skills/two/SKILL.md`]: file(['name: two', 'description: d']),
    [`${P}/.agents/skills/both/.codex-plugin/plugin.json`]: '{ "name": "codex-side" }\n',
    [`${P}/.agents/skills/both/.claude-plugin/plugin.json`]: '{ "name": "claude-side" }\n',
    [`${P}/.agents/skills/both/three/SKILL.md`]: file(['name: three', 'description: d']),
    [`${P}/.agents/skills/long/.codex-plugin/plugin.json`]: `{ "name": "${'p'.repeat(64)}" }\n`,
    [`${P}/.agents/skills/long/skills/fits/SKILL.md`]: file([`name: ${'s'.repeat(64)}`, 'description: d']),
    [`${P}/.agents/skills/longer/.codex-plugin/plugin.json`]: `{ "name": "${'q'.repeat(65)}" }\n`,
    [`${P}/.agents/skills/longer/skills/over/SKILL.md`]: file([`name: ${'t'.repeat(64)}`, 'description: d']),
    [`${H}/.agents/skills/plain/SKILL.md`]: file(['name: plain', 'description: d']),
  }));
  const S = '.agents/skills';
  assert.deepEqual(loaded(w), [
    `acme:pdf home/work/proj/${S}/acme/skills/pdf/SKILL.md`,
    `claudish:docx home/work/proj/${S}/claudish/skills/docx/SKILL.md`,
    `codex-side:three home/work/proj/${S}/both/three/SKILL.md`,
    `nameless:one home/work/proj/${S}/nameless/skills/one/SKILL.md`,
    `plain home/${S}/plain/SKILL.md`,
    `${'p'.repeat(64)}:${'s'.repeat(64)} home/work/proj/${S}/long/skills/fits/SKILL.md`,
    `two home/work/proj/${S}/broken/skills/two/SKILL.md`,
  ]);
  assert.deepEqual(rejected(w), [
    `home/work/proj/${S}/longer/skills/over/SKILL.md: invalid qualified name: exceeds maximum length of 129 characters`,
  ]);
});

test('a plugin manifest at the repository root prefixes its .agents and .codex skills, not the user ones', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.codex-plugin/plugin.json`]: '{ "name": "repo-plugin" }\n',
    [`${P}/.agents/skills/alpha/SKILL.md`]: file(['name: alpha', 'description: d']),
    [`${P}/.codex/skills/beta/SKILL.md`]: file(['name: beta', 'description: d']),
    [`${H}/.agents/skills/gamma/SKILL.md`]: file(['name: gamma', 'description: d']),
  }));
  assert.deepEqual(loaded(w), [
    'gamma home/.agents/skills/gamma/SKILL.md',
    'repo-plugin:alpha home/work/proj/.agents/skills/alpha/SKILL.md',
    'repo-plugin:beta home/work/proj/.codex/skills/beta/SKILL.md',
  ]);
});

const R = '/r';
const roots = [`${R}/p/.agents/skills`, `${R}/h/.agents/skills`];

function skill(name: string, description: string, root: string, scope: 'project' | 'user'): AgentSkill {
  return {
    name,
    description,
    filePath: `${root}/${name}/SKILL.md`,
    baseDir: `${root}/${name}`,
    hide: false,
    source: { agent: 'codex', scope, root },
  };
}

const INTRO_ALIASES =
  'A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.';

test('the catalog is wrapped in <skills_instructions>, aliased when no dearer, without How to use for the default model', () => {
  const skills = [
    skill('pdf', 'Read PDFs', roots[0] as string, 'project'),
    skill('docx', 'Word', roots[1] as string, 'user'),
  ];
  const answer = codexCatalog(skills, undefined, roots, undefined);
  assert.equal(
    answer.text,
    [
      '<skills_instructions>',
      '## Skills',
      INTRO_ALIASES,
      '### Skill roots',
      '- `r0` = `/r/p/.agents/skills`',
      '- `r1` = `/r/h/.agents/skills`',
      '### Available skills',
      '- pdf: Read PDFs (file: r0/pdf/SKILL.md)',
      '- docx: Word (file: r1/docx/SKILL.md)',
      '</skills_instructions>',
    ].join('\n'),
  );
  assert.equal(answer.limit, 5440);
  const withHowTo = codexCatalog(skills, undefined, roots, 'gpt-5.5').text;
  assert.ok(withHowTo.includes('\n### How to use skills\n- Discovery: The list above'));
  assert.ok(withHowTo.includes('then open and read its `SKILL.md` completely before taking task actions.'));
  assert.ok(withHowTo.endsWith('and continue.\n</skills_instructions>'));
  assert.equal(codexCatalog(skills, undefined, roots, 'gpt-6.1-terra').limit, 10_000);
  assert.equal(codexCatalog(skills, undefined, roots, 'local-model').limit, 5440);
  assert.equal(codexCatalog(skills, 1000, roots, 'gpt-6.1-terra').limit, 20);
});

test('nothing fits: another intro and an empty list; the root table is free up to 156 bytes', () => {
  const tiny = codexCatalog([skill('pdf', 'Read PDFs', roots[0] as string, 'project')], 50, roots, undefined);
  assert.equal(
    tiny.text,
    "<skills_instructions>\n## Skills\nA skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `executor package` locators are owned by their execution environment, `cloud package` locators are opaque package identifiers, and `custom resource` locators use their provider's access mechanism.\n### Available skills\n</skills_instructions>",
  );
  assert.deepEqual(tiny.warnings, [
    'Exceeded skills context budget. All skill descriptions were removed and 1 additional skill was not included in the model-visible skills list.',
  ]);
  // Two roots of 76 and 81 characters: a table of 197 bytes costs 11 tokens, and one bare line of 9 fits in 20.
  const base = '/tmp/skillsd-conformance/codex/catalog-window-1000-drops';
  const two = [`${base}/home/proj/.agents/skills`, `${base}/home/.agents/skills`];
  const answer = codexCatalog(
    [
      skill('alpha', 'd', two[0] as string, 'project'),
      skill('beta', 'd', two[0] as string, 'project'),
      skill('aaa', 'd', two[1] as string, 'user'),
    ],
    1000,
    [two[1] as string, two[0] as string],
    undefined,
  );
  assert.deepEqual(
    answer.entries.map((e) => `${e.name} ${e.status}`),
    ['alpha name-only', 'beta dropped', 'aaa dropped'],
  );
  assert.ok(
    answer.text.includes(
      `- \`r0\` = \`${two[1]}\`\n- \`r1\` = \`${two[0]}\`\n### Available skills\n- alpha: (file: r1/alpha/SKILL.md)\n</skills_instructions>`,
    ),
  );
});
