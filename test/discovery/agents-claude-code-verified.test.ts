// Claude Code's rules as the real agent (2.1.328) showed them in the conformance harness (docs/agents.md
// "Claude Code", docs/agents.md "Claude Code"): each on a real temp tree, with exact expected values.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentSpec } from '../../src/discovery/agents/agents.js';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
import { bodyDescription, claudeFrontmatter, nameRefusal } from '../../src/discovery/agents/claude-code.js';
import { agentWorlds, loadedNames } from '../helpers/agent-trees.js';

const world = agentWorlds();
const HEAD = 'The following skills are available for use with the Skill tool:\n\n';
const skill = (description: string, extra = ''): string =>
  `---\ndescription: ${description}\n${extra}---\n\n# Instructions\n\nFollow the steps.\n`;

/** `head` padded with `x` to `bytes` bytes. */
const sized = (head: string, bytes: number): string => head + 'x'.repeat(bytes - head.length);

/** The loaded skills of the Claude Code view as `name → description`. */
function descriptions(w: Awaited<ReturnType<typeof world>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of w.views.views.get('claude-code')?.skills ?? []) out[s.name] = s.description;
  return out;
}

test('descriptions: lenient YAML retry, typed values, joined lines, the fence, the body fallback', async () => {
  const files: Record<string, string> = {
    deploy:
      '---\nname: deploy\ndescription: Deploy: build, test: then ship\nwhen_to_use: Use when: ship it\n---\nBody\n',
    answer: '---\ndescription: 42\n---\nBody\n',
    flag: '---\ndescription: true\n---\nBody\n',
    float: '---\ndescription: 1.50\n---\nBody\n',
    folded: '---\ndescription: >\n  Review pull requests:\n  check tests\n---\nBody\n',
    literal: '---\ndescription: |\n  Triage issues\n  label: bug\n---\nBody\n',
    inline: '---\ndescription: before --- after\n---\nBody\n',
    heading: '---\nname: heading\n---\n\n## Generate changelogs: from commits\n',
    hashes: '---\nwhen_to_use: later\n---\n###NoSpace heading\n',
    nofm: '\n\n   Indented first line\nsecond\n',
    over: `# ${'x'.repeat(101)}\n`,
    exact: `# ${'a'.repeat(100)}\n`,
    empty: '',
    blank: '---\ndescription: "   "\n---\n\n',
    crlf: '---\r\nname: crlf\r\ndescription: Windows: CRLF\r\n---\r\nBody\r\n',
    bom: '\uFEFF---\ndescription: BOM file: still parsed\n---\nBody\n',
    open: '---\ndescription: never closed\n\n# Heading after\n',
    broken: '---\nname: broken\ndescription: "unterminated\n---\n\nBody text of the broken skill\n',
  };
  const w = await world(({ P }) =>
    Object.fromEntries(Object.entries(files).map(([name, text]) => [`${P}/.claude/skills/${name}/SKILL.md`, text])),
  );
  assert.deepEqual(descriptions(w), {
    answer: '42',
    blank: 'Skill',
    bom: 'BOM file: still parsed',
    broken: 'Body text of the broken skill',
    crlf: 'Body',
    deploy: 'Deploy: build, test: then ship',
    empty: 'Skill',
    exact: 'a'.repeat(100),
    flag: 'true',
    float: '1.5',
    folded: 'Review pull requests: check tests',
    hashes: '###NoSpace heading',
    heading: 'Generate changelogs: from commits',
    inline: 'before',
    literal: 'Triage issues label: bug',
    nofm: 'Indented first line',
    open: '---',
    over: `${'x'.repeat(97)}...`,
  });
  const deploy = w.views.views.get('claude-code')?.skills.find((s) => s.name === 'deploy');
  assert.equal(deploy?.extra, 'Use when: ship it');
});

test('the frontmatter block ends at the first --- anywhere; the body fallback', () => {
  const cases: Array<[string, { block: string | null; body: string }]> = [
    ['---\na: b --- c\n---\nBody\n', { block: 'a: b ', body: 'c\n---\nBody\n' }],
    ['\uFEFF---\na: 1\n---\nB', { block: 'a: 1\n', body: 'B' }],
    ['---\nnever closed\n', { block: null, body: '---\nnever closed\n' }],
    ['text\n---\n', { block: null, body: 'text\n---\n' }],
  ];
  for (const [text, expected] of cases) assert.deepEqual(claudeFrontmatter(text), expected, JSON.stringify(text));
  assert.equal(bodyDescription('\n\n# Title\n'), 'Title');
  assert.equal(bodyDescription('#NoSpace'), '#NoSpace');
  assert.equal(bodyDescription(' \n'), 'Skill');
});

test('names: <, >, hidden, direction-changing and blank-like characters, over 256, are not offered', () => {
  const cases: Array<[string, string | undefined]> = [
    ['a<b', 'holds U+003C'],
    ['x>y', 'holds U+003E'],
    ['zero\u200bwidth', 'holds U+200B'],
    ['rtl\u202eflip', 'holds U+202E'],
    ['ideo\u3000space', 'holds U+3000'],
    ['release notes', undefined],
    ['data_clean', undefined],
    ['v1.2-migrate', undefined],
    ['x'.repeat(256), undefined],
    ['x'.repeat(257), 'is over 256 characters'],
  ];
  for (const [name, expected] of cases) assert.equal(nameRefusal(name), expected, name);
});

test('loaded sets: synced in every root, paths: conditional, 1,000,000 bytes, refused names, commands', async () => {
  const w = await world(({ H, P }) => ({
    [`${H}/.claude/skills/synced/SKILL.md`]: skill('reserved'),
    [`${P}/.claude/skills/synced/SKILL.md`]: skill('reserved too'),
    [`${P}/.claude/skills/react/SKILL.md`]: skill('React', 'paths:\n  - "src/**/*.tsx"\n'),
    [`${P}/.claude/skills/sql/SKILL.md`]: skill('SQL', 'paths: "db/**"\n'),
    [`${P}/.claude/skills/edge/SKILL.md`]: sized('---\ndescription: At the limit\n---\n', 1_000_000),
    [`${P}/.claude/skills/over/SKILL.md`]: sized('---\ndescription: Over\n---\n', 1_000_001),
    [`${P}/.claude/skills/a<b/SKILL.md`]: skill('angle'),
    [`${P}/.claude/skills/pdf/SKILL.md`]: skill('PDF tools'),
    [`${P}/.claude/commands/deploy.md`]: '---\ndescription: Deploy to staging: build\n---\nRun.\n',
    [`${P}/.claude/commands/pdf.md`]: '---\ndescription: A command named like a skill\n---\nRun.\n',
    [`${P}/.claude/commands/ops/restart.md`]: '---\ndescription: Restart a service\n---\nRestart.\n',
    [`${H}/.claude/commands/standup.md`]: 'Summarise yesterday and today\n',
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['deploy', 'edge', 'ops:restart', 'pdf', 'standup']);
  const skills = w.views.views.get('claude-code')?.skills ?? [];
  const pdf = skills.find((s) => s.name === 'pdf');
  assert.equal(pdf?.filePath, `${w.P}/.claude/skills/pdf/SKILL.md`);
  assert.equal(pdf?.kind, undefined);
  const restart = skills.find((s) => s.name === 'ops:restart');
  assert.equal(restart?.kind, 'command');
  assert.equal(restart?.filePath, `${w.P}/.claude/commands/ops/restart.md`);
  assert.equal(skills.find((s) => s.name === 'standup')?.description, 'Summarise yesterday and today');
});

test('a linked worktree adds the main checkout only when it has no .claude/skills directory', async () => {
  const tree = (own: Record<string, string>) => (w: { T: string }) => ({
    [`${w.T}/main/.git/HEAD`]: 'ref: refs/heads/main\n',
    [`${w.T}/main/.claude/skills/main-only/SKILL.md`]: skill('Main checkout skill'),
    [`${w.T}/wt/.git`]: `gitdir: ${w.T}/main/.git/worktrees/wt\n`,
    ...own,
  });
  const bare = await world(tree({}), { cwd: 'wt' });
  assert.deepEqual(loadedNames(bare, 'claude-code'), ['main-only']);
  const empty = await world((w) => ({ ...tree({})(w), [`${w.T}/wt/.claude/skills/.keep`]: '' }), { cwd: 'wt' });
  assert.deepEqual(loadedNames(empty, 'claude-code'), []);
});

test('a workspace reached through a symbolic link is walked as its real directory, with real paths', async () => {
  const w = await world(
    ({ H }) => ({
      [`${H}/real/.git/HEAD`]: 'ref: refs/heads/main\n',
      [`${H}/real/.claude/skills/pdf/SKILL.md`]: skill('PDF tools'),
      [`${H}/linked`]: { symlink: `${H}/real` },
    }),
    { cwd: 'home/linked' },
  );
  const skills = w.views.views.get('claude-code')?.skills ?? [];
  assert.deepEqual(
    skills.map((s) => [s.name, s.filePath]),
    [['pdf', `${w.H}/real/.claude/skills/pdf/SKILL.md`]],
  );
  assert.equal(agentSpec('claude-code').realWorkspace, true);
});

test('catalog: frame, root order then name, display names once, when_to_use, the 1,536 cap', async () => {
  const w = await world(
    ({ H, P }) => ({
      [`${H}/.claude/skills/zeta/SKILL.md`]: skill('User zeta'),
      [`${H}/.claude/skills/alpha/SKILL.md`]: skill('User alpha'),
      [`${P}/.claude/skills/beta/SKILL.md`]: skill('Repository beta', 'when_to_use: When asked\n'),
      [`${P}/.claude/skills/Apple/SKILL.md`]: skill('Repository Apple', 'name: apple\n'),
      [`${P}/.claude/skills/pdf-a/SKILL.md`]: skill('First', 'name: pdf\n'),
      [`${P}/.claude/skills/pdf-b/SKILL.md`]: skill('Second', 'name: pdf\n'),
      [`${P}/.claude/skills/long/SKILL.md`]: skill(`a${'\u{1F600}'.repeat(900)}`),
      [`${P}/app/.claude/skills/gamma/SKILL.md`]: skill('App gamma'),
      [`${P}/.claude/commands/aaa.md`]: '---\ndescription: Command aaa\n---\nA.\n',
      [`${P}/app/.claude/commands/zzz.md`]: '---\ndescription: Command zzz\n---\nZ.\n',
    }),
    { cwd: 'home/work/proj/app' },
  );
  const answer = agentCatalog(w.views, 'claude-code', undefined);
  assert.equal(answer.limit, 30_000);
  assert.equal(
    answer.text,
    `${HEAD}- alpha: User alpha\n- zeta: User zeta\n- gamma: App gamma\n- Apple (apple): Repository Apple\n` +
      `- beta: Repository beta - When asked\n- long: a${'\u{1F600}'.repeat(767)}\u2026\n- pdf-a (pdf): First\n` +
      '- pdf-b: Second\n- aaa: Command aaa\n- zzz: Command zzz',
  );
});

test('catalog budget by model: 3 characters per token (Sonnet 4), windows 1M, Sonnet 200k, [1m] 1M', async () => {
  const tree: Record<string, string> = {};
  const w = await world(({ P }) => {
    for (let i = 0; i < 8; i++) {
      const name = `task-0${i}`;
      tree[`${P}/.claude/skills/${name}/SKILL.md`] = skill('t'.repeat(300));
    }
    return tree;
  });
  const rows: Array<[string | undefined, number, number]> = [
    // model, limit, entries that keep their text
    [undefined, 30_000, 8],
    ['claude-sonnet-4-5', 8000, 6],
    ['claude-sonnet-4-5[1m]', 40_000, 8],
    ['acme-large-2', 30_000, 8],
  ];
  for (const [model, limit, full] of rows) {
    const answer = agentCatalog(w.views, 'claude-code', undefined, model);
    assert.equal(answer.limit, limit, model);
    assert.equal(answer.entries.filter((e) => e.status === 'full').length, full, model);
  }
  // 8 × 311 + 6,196 + 20 line breaks = 8,704 > 8,000: Claude Code's own note.
  assert.deepEqual(agentCatalog(w.views, 'claude-code', undefined, 'claude-sonnet-4-5').warnings, [
    'Skill listing over budget: 21 skills, 8704 chars > 8000 budget — descriptions will be truncated. Run /skills to disable some, or raise skillListingBudgetFraction in settings.',
  ]);
});
