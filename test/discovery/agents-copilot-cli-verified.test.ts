// Copilot CLI's view as the CLI itself answers it (docs/agents.md "GitHub Copilot CLI"; docs/conformance.md): the
// roots by kind then level, the walk to the repository root or HOME, the leaf folders and whole-path order inside a
// root, the reader's rules, and the `<available_skills>` catalog with its 15,000-character allowance. Also the shared
// fence reader's CRLF ending (docs/agents.md "Vocabulary").

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
import { COPILOT_CATALOG_ALLOWANCE, copilotCli, copilotOrder } from '../../src/discovery/agents/copilot-cli.js';
import { fencedBlock, readYamlMapping } from '../../src/discovery/agents/frontmatter-rules.js';
import type { AgentRoot, Found } from '../../src/discovery/agents/types.js';
import { type AgentWorld, agentWorlds, S } from '../helpers/agent-trees.js';

const world = agentWorlds();

function sk(name: string, description = `${name} does things`): string {
  return S({ name, description: JSON.stringify(description) });
}

function copilot(w: AgentWorld) {
  const view = w.views.views.get('copilot-cli');
  assert.ok(view !== undefined);
  return view;
}

/** The loaded skills in load order, `name path` with paths relative to the world's temp root. */
function loaded(w: AgentWorld): string[] {
  return copilot(w).skills.map((s) => `${s.name} ${s.filePath.slice(w.T.length + 1)}`);
}

/** The catalog's entry names and locations in order, and its overflow line. */
function catalogShape(w: AgentWorld): string[] {
  const text = agentCatalog(w.views, 'copilot-cli', undefined).text;
  const entries = [...text.matchAll(/<name>([^<]*)<\/name>[\s\S]*?<location>([^<]*)<\/location>/g)].map(
    (m) => `${m[1]}/${m[2]}`,
  );
  const overflow = /Additional skills available \(invoke by name\): (.*)/.exec(text)?.[1];
  return overflow === undefined ? entries : [...entries, `+ ${overflow}`];
}

test('roots: every .github/skills nearest first, then every .agents/skills, then .claude/skills; then personal', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${P}/.github/skills/zeta/SKILL.md`]: sk('zeta'),
      [`${P}/sub/.github/skills/yankee/SKILL.md`]: sk('yankee'),
      [`${P}/.agents/skills/alpha/SKILL.md`]: sk('alpha'),
      [`${P}/sub/.agents/skills/bravo/SKILL.md`]: sk('bravo'),
      [`${P}/.claude/skills/mike/SKILL.md`]: sk('mike'),
      [`${P}/sub/.claude/skills/able/SKILL.md`]: sk('able'),
      [`${H}/.copilot/skills/user-copilot/SKILL.md`]: sk('user-copilot'),
      [`${H}/.agents/skills/user-agents/SKILL.md`]: sk('user-agents'),
      [`${H}/.claude/skills/user-claude/SKILL.md`]: sk('user-claude'),
    }),
    { cwd: 'home/work/proj/sub' },
  );
  assert.deepEqual(
    copilot(w).skills.map((s) => s.name),
    ['yankee', 'zeta', 'bravo', 'alpha', 'able', 'mike', 'user-copilot', 'user-agents'],
  );
  // Measured: the workspace level (project) and the levels above it (inherited) are two sources, each sorted by
  // name, and the sort leaves skills of different sources where they are.
  assert.deepEqual(catalogShape(w), [
    'yankee/project',
    'zeta/project',
    'bravo/project',
    'alpha/project',
    'able/project',
    'mike/project',
    'user-copilot/user',
    'user-agents/user',
    'customize-cloud-agent/builtin',
    'github-pr-media/builtin',
  ]);
});

test('the list order: by name (UTF-16 code units) only between skills of one source, a stable sort', () => {
  const order = (items: Array<[string, Parameters<typeof copilotOrder>[0][number]['source']]>) =>
    copilotOrder(items.map(([name, source]) => ({ name, source }))).map((item) => item.name);
  const cases: Array<[Array<[string, Parameters<typeof copilotOrder>[0][number]['source']]>, string[]]> = [
    [
      [
        ['mike', 'project'],
        ['zulu', 'project'],
        ['alpha', 'project'],
        ['Bravo', 'project'],
      ],
      ['Bravo', 'alpha', 'mike', 'zulu'],
    ],
    [
      [
        ['gw', 'project'],
        ['gm', 'inherited'],
        ['gt', 'inherited'],
        ['zulu-web', 'project'],
        ['yoke-app', 'inherited'],
        ['xray-top', 'inherited'],
      ],
      ['gw', 'gm', 'gt', 'zulu-web', 'xray-top', 'yoke-app'],
    ],
    [
      [
        ['proj-gh', 'project'],
        ['work-gh', 'inherited'],
        ['home-gh', 'inherited'],
        ['home-agents', 'inherited'],
        ['work-claude', 'inherited'],
      ],
      ['proj-gh', 'home-agents', 'home-gh', 'work-claude', 'work-gh'],
    ],
    [
      [
        ['yak', 'project'],
        ['zebra', 'personal-copilot'],
        ['badger', 'custom'],
        ['aardvark', 'custom'],
      ],
      ['yak', 'zebra', 'aardvark', 'badger'],
    ],
  ];
  for (const [items, expected] of cases) assert.deepEqual(order(items), expected);
});

test('the walk: the repository root; without one (or with an empty .git) up to HOME, never H/.claude/skills', async () => {
  const tree = ({ T, H, P }: { T: string; H: string; P: string }) => ({
    [`${P}/.github/skills/proj-gh/SKILL.md`]: sk('proj-gh'),
    [`${H}/work/.github/skills/work-gh/SKILL.md`]: sk('work-gh'),
    [`${H}/work/.claude/skills/work-claude/SKILL.md`]: sk('work-claude'),
    [`${H}/.github/skills/home-gh/SKILL.md`]: sk('home-gh'),
    [`${H}/.agents/skills/home-agents/SKILL.md`]: sk('home-agents'),
    [`${H}/.claude/skills/home-claude/SKILL.md`]: sk('home-claude'),
    [`${T}/.github/skills/above-home/SKILL.md`]: sk('above-home'),
  });
  const free = await world(tree, { noRepo: true });
  assert.deepEqual(loaded(free), [
    'proj-gh home/work/proj/.github/skills/proj-gh/SKILL.md',
    'work-gh home/work/.github/skills/work-gh/SKILL.md',
    'home-gh home/.github/skills/home-gh/SKILL.md',
    'home-agents home/.agents/skills/home-agents/SKILL.md',
    'work-claude home/work/.claude/skills/work-claude/SKILL.md',
  ]);
  const emptyGit = await world((w) => ({ ...tree(w), [`${w.P}/.git`]: { dir: true } }), { noRepo: true });
  assert.deepEqual(loaded(emptyGit), loaded(free));
  const repo = await world(tree);
  assert.deepEqual(loaded(repo), [
    'proj-gh home/work/proj/.github/skills/proj-gh/SKILL.md',
    'home-agents home/.agents/skills/home-agents/SKILL.md',
  ]);
});

test('COPILOT_HOME elsewhere drops ~/.agents/skills, pointing at ~/.copilot keeps it; COPILOT_SKILLS_DIRS comes last', async () => {
  const tree = ({ T, H }: { T: string; H: string }) => ({
    [`${T}/cph/skills/from-cph/SKILL.md`]: sk('from-cph'),
    [`${H}/.copilot/skills/default-home/SKILL.md`]: sk('default-home'),
    [`${H}/.agents/skills/user-agents/SKILL.md`]: sk('user-agents'),
    [`${T}/extra-a/pdf/SKILL.md`]: sk('pdf', 'custom copy'),
    [`${T}/extra-b/badger/SKILL.md`]: sk('badger'),
    [`${H}/.agents/skills/pdf/SKILL.md`]: sk('pdf', 'personal copy'),
  });
  const elsewhere = await world(tree, { env: { COPILOT_HOME: '../../../cph' } });
  assert.deepEqual(
    copilot(elsewhere).skills.map((s) => s.name),
    ['from-cph'],
  );
  const same = await world(tree, { env: { COPILOT_HOME: '../../.copilot' } });
  assert.deepEqual(
    copilot(same).skills.map((s) => s.name),
    ['default-home', 'pdf', 'user-agents'],
  );
  const dirs = await world(tree, { env: { COPILOT_SKILLS_DIRS: '../../../extra-a,../../../extra-b' } });
  assert.deepEqual(loaded(dirs), [
    'default-home home/.copilot/skills/default-home/SKILL.md',
    'pdf home/.agents/skills/pdf/SKILL.md',
    'user-agents home/.agents/skills/user-agents/SKILL.md',
    'badger extra-b/badger/SKILL.md',
  ]);
  assert.deepEqual(catalogShape(dirs).slice(0, 4), [
    'default-home/user',
    'pdf/user',
    'user-agents/user',
    'badger/custom',
  ]);
});

test('inside a root: leaf folders, the root as one skill, whole-path order, a directory named SKILL.md', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.agents/skills/outer/SKILL.md`]: sk('outer'),
    [`${P}/.agents/skills/outer/nested/SKILL.md`]: sk('nested'),
    [`${P}/.agents/skills/a/SKILL.md`]: sk('shared', 'from a'),
    [`${P}/.agents/skills/a-b/SKILL.md`]: sk('shared', 'from a-b'),
    [`${P}/.agents/skills/B/SKILL.md`]: sk('upper'),
    [`${P}/.agents/skills/group/inner/SKILL.md`]: sk('inner'),
    [`${P}/.agents/skills/odd/SKILL.md/deep/SKILL.md`]: sk('inside-odd'),
    [`${H}/.agents/skills/SKILL.md`]: sk('root-skill'),
    [`${H}/.agents/skills/child/SKILL.md`]: sk('child'),
  }));
  assert.deepEqual(loaded(w), [
    'upper home/work/proj/.agents/skills/B/SKILL.md',
    'shared home/work/proj/.agents/skills/a-b/SKILL.md',
    'inner home/work/proj/.agents/skills/group/inner/SKILL.md',
    'inside-odd home/work/proj/.agents/skills/odd/SKILL.md/deep/SKILL.md',
    'outer home/work/proj/.agents/skills/outer/SKILL.md',
    'root-skill home/.agents/skills/SKILL.md',
  ]);
  assert.deepEqual(copilot(w).skills.find((s) => s.name === 'shared')?.description, 'from a-b');
});

test('a workspace reached through a link is walked and reported as its real directory', async () => {
  const w = await world(
    ({ H }) => ({
      [`${H}/link`]: { symlink: 'work/proj' },
      [`${H}/work/proj/.agents/skills/pdf/SKILL.md`]: sk('pdf'),
    }),
    { cwd: 'home/link' },
  );
  assert.deepEqual(loaded(w), ['pdf home/work/proj/.agents/skills/pdf/SKILL.md']);
});

function found(folder: string): Found {
  const root: AgentRoot = { path: '/r/skills', scope: 'project', layout: {} as AgentRoot['layout'], origin: 'project' };
  const baseDir = `/r/skills/${folder}`;
  return {
    filePath: `${baseDir}/SKILL.md`,
    lexicalPath: `${baseDir}/SKILL.md`,
    realPath: `${baseDir}/SKILL.md`,
    baseDir,
    root,
    rootShown: root.path,
  };
}

const NAME_RULE =
  'Skill name must start with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), numbers, hyphens, ' +
  'underscores, dots, colons, and spaces';

test('the reader: frontmatter, name and description rules, each with the outcome the CLI gives', () => {
  const raw = (lines: string) => `---\n${lines}\n---\n\nRead the checklist first.\n`;
  const cases: Array<[string, string, string, string | { name: string; description: string }]> = [
    ['no frontmatter', 'plain', '# Plain\n\nNo frontmatter.\n', 'missing or malformed YAML frontmatter'],
    ['blank line first', 'b', `\n${raw('name: b')}`, 'missing or malformed YAML frontmatter'],
    ['never closed', 'open', '---\nname: open\n\n# Body\n', 'missing or malformed YAML frontmatter'],
    ['BOM', 'bom', `\ufeff${raw('name: bom\ndescription: ok')}`, { name: 'bom', description: 'ok' }],
    ['empty block', 'empty-block', '---\n---\n\n# T\n\nUse this.\n', { name: 'empty-block', description: 'Use this.' }],
    ['a list', 'list-block', raw('- one\n- two'), { name: 'list-block', description: 'Read the checklist first.' }],
    [
      'duplicate key',
      'twice',
      raw('name: twice\ndescription: a\ndescription: b'),
      'failed to parse YAML frontmatter: duplicate entry with key "description"',
    ],
    [
      'nested duplicate key',
      'n',
      raw('metadata:\n  a: 1\n  a: 2'),
      'failed to parse YAML frontmatter: duplicate entry with key "a"',
    ],
    ['empty name', 'x', raw('name: ""'), 'Skill name must not be empty'],
    ['numeric name', 'x', raw('name: 123'), 'Skill name must be a string'],
    ['quoted number', 'x', raw('name: "456"\ndescription: q'), { name: '456', description: 'q' }],
    ['leading underscore', 'x', raw('name: _lead'), NAME_RULE],
    ['non-ASCII', 'x', raw('name: café'), NAME_RULE],
    ['question mark', 'x', raw('name: why?'), NAME_RULE],
    [
      'colon, dot, underscore',
      'x',
      raw('name: "ns:Data_Tools.v2"\ndescription: d'),
      { name: 'ns:Data_Tools.v2', description: 'd' },
    ],
    ['64 characters', 'x', raw(`name: ${'a'.repeat(64)}\ndescription: d`), { name: 'a'.repeat(64), description: 'd' }],
    ['65 characters', 'x', raw(`name: ${'b'.repeat(65)}`), 'Skill name must be at most 64 characters'],
    ['spaces become hyphens', 'x', raw('name: pdf tools\ndescription: d'), { name: 'pdf-tools', description: 'd' }],
    ['folder name', 'folder with spaces', raw('description: d'), { name: 'folder-with-spaces', description: 'd' }],
    [
      'invalid folder name',
      '_under',
      raw('description: d'),
      'could not derive a valid skill name from the folder path',
    ],
    ['numeric description', 'x', raw('name: n\ndescription: 42'), 'Skill description must be a string'],
    ['map description', 'x', raw('name: n\ndescription:\n  k: v'), 'Skill description must be a string'],
    [
      '1,024 characters',
      'x',
      raw(`name: n\ndescription: ${'x'.repeat(1024)}`),
      { name: 'n', description: 'x'.repeat(1024) },
    ],
    [
      '1,025 characters',
      'x',
      raw(`name: n\ndescription: ${'y'.repeat(1025)}`),
      'Skill description must be at most 1024 characters',
    ],
    [
      'folded',
      'x',
      raw('name: f\ndescription: >\n  Folded text\n  on two lines'),
      { name: 'f', description: 'Folded text on two lines' },
    ],
    ['literal', 'x', raw('name: l\ndescription: |\n  Literal\n  text'), { name: 'l', description: 'Literal\ntext' }],
    [
      'no description',
      'x',
      '---\nname: d\n---\n\n# Heading\n\nSecond paragraph.\n',
      { name: 'd', description: 'Second paragraph.' },
    ],
    ['empty description', 'x', '---\nname: e\ndescription: ""\n---\n\nBody.\n', { name: 'e', description: '' }],
    ['no body', 'x', '---\nname: nobody\n---\n', { name: 'nobody', description: '' }],
  ];
  for (const [label, folder, text, expected] of cases) {
    const outcome = copilotCli.read(text, found(folder));
    if (typeof expected === 'string') {
      assert.deepEqual(outcome, { ok: false, message: `[skillsd] Copilot CLI: ${expected}` }, label);
    } else {
      assert.ok(outcome.ok, label);
      assert.deepEqual({ name: outcome.name, description: outcome.description }, expected, label);
    }
  }
});

test('the shared fence reader leaves the CRLF before the closing fence out of the block', () => {
  const crlf = (text: string) => text.replaceAll('\n', '\r\n');
  const cases: Array<[string, Record<string, unknown>]> = [
    [
      crlf('---\nname: a\ndescription: Plain CRLF description\n---\n\nBody\n'),
      { name: 'a', description: 'Plain CRLF description' },
    ],
    [
      crlf('---\nname: a\ndescription: "Windows line ends: CRLF"\n---\n'),
      { name: 'a', description: 'Windows line ends: CRLF' },
    ],
    [
      crlf('---\nname: a\ndescription: >\n  Folded over\n  two CRLF lines\n---\n'),
      { name: 'a', description: 'Folded over two CRLF lines\n' },
    ],
    [crlf('---\n\n---\n'), {}],
  ];
  for (const [text, expected] of cases) {
    const fenced = fencedBlock(text, { bom: true });
    assert.ok(fenced !== null);
    assert.deepEqual(readYamlMapping(fenced.block), { ok: true, value: expected });
  }
  assert.equal(fencedBlock(crlf('---\nname: a\n---\nBody\n'))?.body, 'Body\r\n');
  assert.equal(fencedBlock('---\nname: a\n---\n')?.block, 'name: a');
});

test('CRLF files: Copilot CLI keeps no carriage return in any description', async () => {
  const crlf = (text: string) => text.replaceAll('\n', '\r\n');
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/crlf/SKILL.md`]: crlf(sk('crlf', 'Windows line ends: CRLF everywhere')),
    [`${P}/.agents/skills/crlf-plain/SKILL.md`]: crlf(S({ name: 'crlf-plain', description: 'Plain CRLF description' })),
    [`${P}/.agents/skills/crlf-folded/SKILL.md`]: crlf(
      '---\nname: crlf-folded\ndescription: >\n  Folded over\n  two CRLF lines\n---\n\nBody\n',
    ),
  }));
  assert.deepEqual(
    copilot(w).skills.map((s) => [s.name, s.description]),
    [
      ['crlf-folded', 'Folded over two CRLF lines'],
      ['crlf-plain', 'Plain CRLF description'],
      ['crlf', 'Windows line ends: CRLF everywhere'],
    ],
  );
  // The fence reader is shared: no view keeps the carriage return.
  for (const [id, view] of w.views.views) {
    for (const s of view.skills) assert.ok(!s.description.includes('\r'), `${id} ${s.name}`);
  }
});

const BUILTINS =
  '<skill>\n  <name>customize-cloud-agent</name>\n  <description>Skill for customizing the Copilot cloud agent ' +
  '(formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, ' +
  'preinstalling tools and dependencies, runners, and settings. Use when the user mentions copilot-setup-steps, ' +
  'copilot setup steps, or wants to configure the cloud agent environment.</description>\n  <location>builtin</location>\n' +
  '</skill>\n<skill>\n  <name>github-pr-media</name>\n  <description>Upload an image or video to GitHub&apos;s user ' +
  'attachments API and embed it in a pull request description or comment. Use when asked to add screenshots, ' +
  'diagrams, recordings, or other media to a PR or GitHub comment.</description>\n  <location>builtin</location>\n' +
  '</skill>\n';

test('the catalog: XML entries escaped, hidden skills left out, the built-in entries last', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/escape/SKILL.md`]: sk('escape', `Tags <b> & "quotes" and 'apostrophes'`),
    [`${P}/.agents/skills/manual/SKILL.md`]: `${sk('manual').replace('---\n\n', 'disable-model-invocation: true\n---\n\n')}`,
  }));
  const catalog = agentCatalog(w.views, 'copilot-cli', undefined);
  assert.equal(
    catalog.text,
    '<available_skills>\n<skill>\n  <name>escape</name>\n  <description>Tags &lt;b&gt; &amp; &quot;quotes&quot; and ' +
      '&apos;apostrophes&apos;</description>\n  <location>project</location>\n</skill>\n' +
      `${BUILTINS}</available_skills>`,
  );
  const empty = await world(() => ({}));
  assert.equal(
    agentCatalog(empty.views, 'copilot-cli', undefined).text,
    `<available_skills>\n${BUILTINS}</available_skills>`,
  );
  const own = await world(({ P }) => ({
    [`${P}/.agents/skills/github-pr-media/SKILL.md`]: sk('github-pr-media', 'Ours'),
  }));
  assert.deepEqual(catalogShape(own), ['github-pr-media/project', 'customize-cloud-agent/builtin']);
});

/** `count` skills `<prefix>-NN`, each entry exactly `1,000 - 900 + size` characters long. */
function many(P: string, prefix: string, count: number, size: number, lastSize = size): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${String(i).padStart(2, '0')}`;
    tree[`${P}/.agents/skills/${name}/SKILL.md`] = sk(name, 'd'.repeat(i === count - 1 ? lastSize : size));
  }
  return tree;
}

test('the allowance: whole entries while they total at most 15,000 characters, the rest named on one line', async () => {
  const names = (prefix: string, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `${prefix}-${String(from + i).padStart(2, '0')}/project`);
  const full = await world(({ P }) => many(P, 'job', 15, 900));
  assert.deepEqual(catalogShape(full), [...names('job', 0, 15), '+ customize-cloud-agent, github-pr-media']);
  const catalog = agentCatalog(full.views, 'copilot-cli', undefined);
  assert.equal(catalog.limit, COPILOT_CATALOG_ALLOWANCE);
  assert.equal(catalog.used, 15_000);
  assert.ok(
    catalog.text.endsWith(
      '</skill>\nAdditional skills available (invoke by name): customize-cloud-agent, github-pr-media\n</available_skills>',
    ),
  );
  const over = await world(({ P }) => many(P, 'job', 15, 900, 901));
  assert.deepEqual(catalogShape(over), [...names('job', 0, 14), '+ job-14, customize-cloud-agent, github-pr-media']);
  assert.deepEqual(agentCatalog(over.views, 'copilot-cli', undefined).entries.at(-1), {
    name: 'job-14',
    status: 'name-only',
    chars: 0,
  });
  // The first entry that does not fit ends the whole ones, even when a later one would fit.
  const skips = await world(({ P }) => ({
    ...many(P, 'big', 14, 950),
    [`${P}/.agents/skills/can-not-fit/SKILL.md`]: sk('can-not-fit', 'x'.repeat(1000)),
    [`${P}/.agents/skills/small/SKILL.md`]: sk('small', 'Tiny'),
  }));
  assert.deepEqual(catalogShape(skips), [
    ...names('big', 0, 14),
    '+ can-not-fit, small, customize-cloud-agent, github-pr-media',
  ]);
  // A hidden skill costs nothing.
  const hidden = await world(({ P }) => ({
    ...many(P, 'job', 15, 900),
    [`${P}/.agents/skills/aaa/SKILL.md`]: S({
      name: 'aaa',
      description: 'y'.repeat(900),
      'disable-model-invocation': 'true',
    }),
  }));
  assert.deepEqual(catalogShape(hidden), catalogShape(full));
});
