// OpenCode's rules as measured against opencode-ai 1.18.33 (docs/agents.md "OpenCode"):
// flags, the repository walk, gray-matter + js-yaml 3 frontmatter, and the catalog text.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentCatalog, agentSkills } from '../../src/discovery/agents/answers.js';
import {
  BUILT_IN_DESCRIPTION,
  fallbackSanitization,
  readFrontmatter,
  strictFlag,
} from '../../src/discovery/agents/opencode.js';
import { agentWorlds, loadedNames, S, skill } from '../helpers/agent-trees.js';

const world = agentWorlds();

const OC = 'opencode';

test('strict flags: on for true yes on 1 y, off for false no off 0 n, anything else invalid (case matters)', () => {
  const cases: Array<[string | undefined, boolean | null]> = [
    [undefined, false],
    ['true', true],
    ['yes', true],
    ['on', true],
    ['1', true],
    ['y', true],
    ['false', false],
    ['no', false],
    ['off', false],
    ['0', false],
    ['n', false],
    ['Y', null],
    ['TRUE', null],
    ['maybe', null],
    ['2', null],
  ];
  for (const [value, expected] of cases) assert.equal(strictFlag(value), expected, String(value));
});

const FLAG_TREE = ({ H, P }: { H: string; P: string }) => ({
  [`${H}/.claude/skills/uc/SKILL.md`]: skill('uc'),
  [`${H}/.agents/skills/ua/SKILL.md`]: skill('ua'),
  [`${P}/.claude/skills/pc/SKILL.md`]: skill('pc'),
  [`${P}/.agents/skills/pa/SKILL.md`]: skill('pa'),
  [`${P}/.opencode/skills/po/SKILL.md`]: skill('po'),
  [`${H}/.config/opencode/skills/cfg/SKILL.md`]: skill('cfg'),
});

test('flags: external off drops .claude and .agents; the Claude flags drop only .claude; a bad value stops OpenCode', async () => {
  const cases: Array<[Record<string, string>, string[]]> = [
    [{}, ['cfg', 'pa', 'pc', 'po', 'ua', 'uc']],
    [{ OPENCODE_DISABLE_EXTERNAL_SKILLS: 'yes' }, ['cfg', 'po']],
    [{ OPENCODE_DISABLE_EXTERNAL_SKILLS: 'off' }, ['cfg', 'pa', 'pc', 'po', 'ua', 'uc']],
    [{ OPENCODE_DISABLE_EXTERNAL_SKILLS: 'maybe' }, []],
    [{ OPENCODE_DISABLE_CLAUDE_CODE: '1' }, ['cfg', 'pa', 'po', 'ua']],
    [{ OPENCODE_DISABLE_CLAUDE_CODE_SKILLS: 'y' }, ['cfg', 'pa', 'po', 'ua']],
    [{ OPENCODE_DISABLE_CLAUDE_CODE_SKILLS: 'n' }, ['cfg', 'pa', 'pc', 'po', 'ua', 'uc']],
    [{ OPENCODE_DISABLE_CLAUDE_CODE_SKILLS: 'Y' }, []],
    [{ OPENCODE_DISABLE_PROJECT_CONFIG: 'TRUE' }, ['cfg', 'pa', 'pc', 'ua', 'uc']],
    [{ OPENCODE_DISABLE_PROJECT_CONFIG: 'yes' }, ['cfg', 'pa', 'pc', 'po', 'ua', 'uc']],
  ];
  for (const [env, expected] of cases) {
    const w = await world(FLAG_TREE, { env });
    assert.deepEqual(loadedNames(w, OC), expected, JSON.stringify(env));
  }
  const bad = await world(FLAG_TREE, { env: { OPENCODE_DISABLE_CLAUDE_CODE_SKILLS: '2' } });
  assert.deepEqual(bad.views.views.get(OC)?.warnings, [
    {
      skillPath: '',
      message: '[skillsd] OpenCode does not start: OPENCODE_DISABLE_CLAUDE_CODE_SKILLS=2 is not a boolean',
    },
  ]);
});

test('a regular file at a walked .opencode stops OpenCode', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.opencode`]: '{}\n',
    [`${P}/.agents/skills/pa/SKILL.md`]: skill('pa'),
    [`${H}/.agents/skills/ua/SKILL.md`]: skill('ua'),
  }));
  assert.deepEqual(loadedNames(w, OC), []);
  assert.deepEqual(w.views.views.get(OC)?.warnings, [
    { skillPath: '', message: `[skillsd] OpenCode does not start: ${w.P}/.opencode is not a directory` },
  ]);
});

test('an empty .git directory is no repository: the walk goes past it', async () => {
  const w = await world(
    ({ T }) => ({
      [`${T}/ws/repo/.git/.keep`]: '',
      [`${T}/ws/repo/src/.agents/skills/inner/SKILL.md`]: skill('inner'),
      [`${T}/ws/.claude/skills/above/SKILL.md`]: skill('above'),
    }),
    { cwd: 'ws/repo/src', noRepo: true },
  );
  assert.deepEqual(loadedNames(w, OC), ['above', 'inner']);
});

test('a broken gitdir: file is no repository; a linked worktree is its own root', async () => {
  const broken = await world(
    ({ T }) => ({
      [`${T}/ws/repo/.git`]: 'gitdir: ../missing/.git/worktrees/repo\n',
      [`${T}/ws/repo/.agents/skills/inner/SKILL.md`]: skill('inner'),
      [`${T}/ws/.agents/skills/above/SKILL.md`]: skill('above'),
    }),
    { cwd: 'ws/repo', noRepo: true },
  );
  assert.deepEqual(loadedNames(broken, OC), ['above', 'inner']);
  const linked = await world(
    ({ T }) => ({
      [`${T}/main/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${T}/main/.git/worktrees/wt/HEAD`]: 'ref: refs/heads/wt\n',
      [`${T}/.agents/skills/above/SKILL.md`]: skill('above'),
      [`${T}/wt/.git`]: `gitdir: ${T}/main/.git/worktrees/wt\n`,
      [`${T}/wt/.agents/skills/own/SKILL.md`]: skill('own'),
    }),
    { cwd: 'wt' },
  );
  assert.deepEqual(loadedNames(linked, OC), ['own']);
});

test('a directory named SKILL.md is walked into', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/odd/SKILL.md/inner/SKILL.md`]: skill('inner'),
    [`${P}/.opencode/skills/SKILL.md/SKILL.md`]: skill('nested'),
  }));
  assert.deepEqual(
    w.views.views.get(OC)?.skills.map((s) => s.filePath.slice(w.P.length)),
    ['/.agents/skills/odd/SKILL.md/inner/SKILL.md', '/.opencode/skills/SKILL.md/SKILL.md'],
  );
});

test('frontmatter as gray-matter + js-yaml 3 read it', () => {
  const cases: Array<[string, string, Record<string, unknown> | null]> = [
    ['BOM stripped', '\uFEFF---\nname: a\ndescription: d\n---\n', { name: 'a', description: 'd' }],
    ['no closing fence', '---\nname: a\ndescription: "d"\n\n# Heading\n', { name: 'a', description: 'd' }],
    ['no closing fence, prose', '---\nname: a\n\nPlain prose breaks it.\n', null],
    ['spaces after fences', '---  \nname: a\n--- \nBody\n', { name: 'a' }],
    ['tab after fences', '---\t\nname: a\n---\t\nBody\n', { name: 'a' }],
    ['four dashes', '----\nname: a\n----\n', {}],
    ['no fence', '# Title\n', {}],
    ['empty block', '---\n---\n', {}],
    ['CRLF', '---\r\nname: a\r\ndescription: d\r\n---\r\n', { name: 'a', description: 'd' }],
    ['yes is text', '---\nname: a\ndescription: yes\n---\n', { name: 'a', description: 'yes' }],
    ['0o17 is text', '---\nname: a\ndescription: 0o17\n---\n', { name: 'a', description: '0o17' }],
    ['0b101 a number', '---\nname: a\ndescription: 0b101\n---\n', { name: 'a', description: 5 }],
    ['1_000 a number', '---\nname: a\ndescription: 1_000\n---\n', { name: 'a', description: 1000 }],
    ['12:30 a number', '---\nname: a\ndescription: 12:30\n---\n', { name: 'a', description: 750 }],
    ['true a boolean', '---\nname: a\ndescription: True\n---\n', { name: 'a', description: true }],
    ['duplicate key', '---\nname: a\nname: b\n---\n', null],
    ['repair', '---\nname: a\ndescription  : A: b   \n---\n', { name: 'a', description: 'A: b' }],
    ['repair keeps #', '---\nname: a\ndescription: R: d # c\n---\n', { name: 'a', description: 'R: d # c' }],
    ['repair skips hyphen keys', '---\nname: a\nallowed-tools: B: g\n---\n', null],
    ['repair skips quoted', '---\nname: a\ndescription: "Q": t: u\n---\n', null],
    ['repair skips indented', '---\nname: a\nm:\n  n: a: b\n---\n', null],
    ['repair needs --- first', '\uFEFF---\nname: a\ndescription: B: c\n---\n', null],
  ];
  for (const [label, text, expected] of cases) assert.deepEqual(readFrontmatter(text), expected, label);
  const date = readFrontmatter('---\nname: a\ndescription: 2024-01-15\n---\n');
  assert.ok(date?.description instanceof Date);
  assert.equal(
    fallbackSanitization('---\r\nname: a\r\ndescription: x: y\r\n---\r\n'),
    '---\r\nname: a\ndescription: |-\n  x: y\r\n---\r\n',
  );
});

test('loading: only name is required, a non-string name or description drops the file, 1.1 MB loads', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/quiet/SKILL.md`]: S({ name: 'quiet', license: 'MIT' }),
    [`${P}/.agents/skills/dated/SKILL.md`]: S({ name: 'dated', description: '2024-01-15' }),
    [`${P}/.agents/skills/octal/SKILL.md`]: S({ name: 'octal', description: '0o17' }),
    [`${P}/.agents/skills/nameless/SKILL.md`]: S({ description: 'no name' }),
    [`${P}/.agents/skills/huge/SKILL.md`]: `${S({ name: 'huge', description: 'big' })}${'lorem ipsum '.repeat(92_000)}`,
  }));
  assert.deepEqual(loadedNames(w, OC), ['huge', 'octal', 'quiet']);
  const quiet = w.views.views.get(OC)?.skills.find((s) => s.name === 'quiet');
  assert.deepEqual([quiet?.description, quiet?.hide], ['', true]);
});

const HEAD =
  'Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.';

test('catalog: localeCompare order, plain HTML-escaped location, the built-in entry, nothing described', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/R&D <x>/SKILL.md`]: S({ name: 'Zeta', description: 'z & <b>' }),
    [`${P}/.agents/skills/b/SKILL.md`]: S({ name: 'alpha', description: 'a' }),
    [`${P}/.agents/skills/c/SKILL.md`]: S({ name: 'quiet' }),
  }));
  const entry = (name: string, description: string, location: string) =>
    `  <skill>\n    <name>${name}</name>\n    <description>${description}</description>\n    <location>${location}</location>\n  </skill>`;
  assert.equal(
    agentCatalog(w.views, OC, undefined).text,
    [
      HEAD,
      '<available_skills>',
      entry('alpha', 'a', `${w.P}/.agents/skills/b/SKILL.md`),
      entry('customize-opencode', BUILT_IN_DESCRIPTION, '&lt;built-in&gt;'),
      entry('Zeta', 'z & <b>', `${w.P}/.agents/skills/R&amp;D &lt;x&gt;/SKILL.md`),
      '</available_skills>',
    ].join('\n'),
  );
  const none = await world(({ P }) => ({
    [`${P}/.opencode/skills/customize-opencode/SKILL.md`]: S({ name: 'customize-opencode' }),
  }));
  assert.equal(agentCatalog(none.views, OC, undefined).text, `${HEAD}\nNo skills are currently available.`);
});

test('duplicates race whatever their phase: every file of the name is named, the last found is shown', async () => {
  const w = await world(({ H, P }) => ({
    [`${H}/.agents/skills/d/SKILL.md`]: S({ name: 'd', description: 'user' }),
    [`${P}/.claude/skills/d/SKILL.md`]: S({ name: 'd', description: 'project' }),
    [`${H}/.config/opencode/skills/d/SKILL.md`]: S({ name: 'd', description: 'config' }),
  }));
  const view = w.views.views.get(OC);
  assert.deepEqual(
    view?.skills.map((s) => s.description),
    ['config'],
  );
  const [user, project, config] = [
    `${w.H}/.agents/skills/d/SKILL.md`,
    `${w.P}/.claude/skills/d/SKILL.md`,
    `${w.H}/.config/opencode/skills/d/SKILL.md`,
  ];
  assert.deepEqual(view?.warnings, [
    { skillPath: project, message: 'duplicate skill name' },
    { skillPath: config, message: 'duplicate skill name' },
    { skillPath: '', message: `[skillsd] OpenCode loads one of these at random: ${user}, ${project}, ${config}` },
  ]);
  assert.deepEqual(view?.skills[0]?.candidates, [user, project, config]);
  assert.deepEqual(agentSkills(w.views, OC).skills[0]?.candidates, [user, project, config]);
});

test('a workspace reached through a symbolic link: OpenCode reports the real paths of its project skills', async () => {
  const w = await world(
    ({ H }) => ({
      [`${H}/real/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${H}/real/.opencode/skills/po/SKILL.md`]: skill('po'),
      [`${H}/real/.agents/skills/pa/SKILL.md`]: skill('pa'),
      [`${H}/linked`]: { symlink: `${H}/real` },
    }),
    { cwd: 'home/linked' },
  );
  const skills = w.views.views.get(OC)?.skills ?? [];
  assert.deepEqual(skills.map((s) => [s.name, s.filePath]).sort(), [
    ['pa', `${w.H}/real/.agents/skills/pa/SKILL.md`],
    ['po', `${w.H}/real/.opencode/skills/po/SKILL.md`],
  ]);
});
