// The catalogs and their budgets (docs/agents.md "Catalogs"): which entries stay full, are cut, keep only the name or
// drop, at several context windows, with the agents' exact warnings.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentCatalogAnswer } from '../../src/answers/agent-answers.js';
import { agentSpec } from '../../src/discovery/agents/agents.js';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
import { BUILT_IN_DESCRIPTION } from '../../src/discovery/agents/opencode.js';
import type { AgentSkill } from '../../src/discovery/agents/types.js';
import { AgentViewsState, MAX_CATALOG_ANSWERS } from '../../src/live-index/agent-views-state.js';
import { agentWorlds, S } from '../helpers/agent-trees.js';

const world = agentWorlds();

const statuses = (answer: ReturnType<typeof agentCatalog>) => answer.entries.map((e) => [e.name, e.status, e.chars]);

test('10. Codex at 1,000 tokens: names only, then a dropped entry, project before user', async () => {
  const w = await world(({ H, P }) => ({
    [`${P}/.agents/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'd' }),
    [`${P}/.agents/skills/beta/SKILL.md`]: S({ name: 'beta', description: 'd' }),
    [`${H}/.agents/skills/aaa/SKILL.md`]: S({ name: 'aaa', description: 'd' }),
  }));
  const answer = agentCatalog(w.views, 'codex', 1000);
  assert.equal(answer.unit, 'tokens');
  assert.equal(answer.limit, 20);
  assert.equal(answer.used, 18);
  assert.deepEqual(statuses(answer), [
    ['alpha', 'name-only', 0],
    ['beta', 'name-only', 0],
    ['aaa', 'dropped', 0],
  ]);
  assert.deepEqual(answer.warnings, [
    'Exceeded skills context budget. All skill descriptions were removed and 1 additional skill was not included in the model-visible skills list.',
  ]);
  assert.ok(
    answer.text.includes(
      `### Skill roots\n- \`r0\` = \`${w.H}/.agents/skills\`\n- \`r1\` = \`${w.P}/.agents/skills\`\n### Available skills\n- alpha: (file: r1/alpha/SKILL.md)\n- beta: (file: r1/beta/SKILL.md)\n</skills_instructions>`,
    ),
  );
  assert.ok(answer.text.startsWith('<skills_instructions>\n## Skills\n'));
  // The whole window: everything in full, no warning.
  const roomy = agentCatalog(w.views, 'codex', undefined);
  assert.equal(roomy.contextWindow, 272_000);
  assert.equal(roomy.limit, 5440);
  assert.deepEqual(statuses(roomy), [
    ['alpha', 'full', 1],
    ['beta', 'full', 1],
    ['aaa', 'full', 1],
  ]);
  // Aliases cost no more than absolute paths: Codex uses them.
  assert.ok(roomy.text.includes('- alpha: d (file: r1/alpha/SKILL.md)\n'));
  assert.deepEqual(roomy.warnings, []);
  // Unknown window (0): 8,000 characters, the warning without "of 2%".
  const unknown = agentCatalog(w.views, 'codex', 0);
  assert.deepEqual([unknown.unit, unknown.limit], ['chars', 8000]);
});

test('11. Codex at 1,500 tokens: descriptions shared out character by character', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'a'.repeat(40) }),
    [`${P}/.agents/skills/beta/SKILL.md`]: S({ name: 'beta', description: 'b'.repeat(40) }),
  }));
  const answer = agentCatalog(w.views, 'codex', 1500);
  assert.equal(answer.limit, 30);
  assert.equal(answer.used, 30);
  assert.deepEqual(statuses(answer), [
    ['alpha', 'truncated', 24],
    ['beta', 'truncated', 26],
  ]);
  assert.deepEqual(answer.warnings, []);
  assert.ok(
    answer.text.includes(
      `- alpha: ${'a'.repeat(24)} (file: r0/alpha/SKILL.md)\n- beta: ${'b'.repeat(26)} (file: r0/beta/SKILL.md)\n`,
    ),
  );
});

test('Codex: long descriptions cut so far that the shortened warning is given', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'a'.repeat(1500) }),
  }));
  const answer = agentCatalog(w.views, 'codex', 5000);
  assert.equal(answer.limit, 100);
  assert.equal(answer.entries[0]?.status, 'truncated');
  // Codex 0.169.0 gives no warning when descriptions are only shortened.
  assert.deepEqual(answer.warnings, []);
  // The cap of 1,024: the description is shown as 1,021 characters and `...`.
  const roomy = agentCatalog(w.views, 'codex', 1_000_000);
  assert.deepEqual(statuses(roomy), [['alpha', 'truncated', 1024]]);
  assert.ok(roomy.text.includes(`- alpha: ${'a'.repeat(1021)}... (file: `));
});

test('12. no budget: Gemini CLI lists everything; Claude Code caps an entry at 1,536 characters', async () => {
  const w = await world(({ H, P }) => ({
    [`${H}/.gemini/trustedFolders.json`]: JSON.stringify({ [P]: 'TRUST_FOLDER' }),
    [`${P}/.agents/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'first' }),
    [`${P}/.claude/skills/long/SKILL.md`]: S({ name: 'long', description: 'x'.repeat(2000) }),
    [`${P}/.claude/skills/short/SKILL.md`]: S({ name: 'short', description: 'tiny' }),
  }));
  const gemini = agentCatalog(w.views, 'gemini-cli', undefined);
  assert.equal(gemini.limit, null);
  assert.equal(gemini.unit, 'chars');
  assert.equal(gemini.contextWindow, null);
  assert.ok(gemini.text.startsWith('# Available Agent Skills'));
  assert.equal(gemini.used, gemini.text.length);
  assert.deepEqual(statuses(gemini), [['alpha', 'full', 5]]);
  const claude = agentCatalog(w.views, 'claude-code', undefined);
  assert.deepEqual(statuses(claude), [
    ['long', 'truncated', 1536],
    ['short', 'full', 4],
  ]);
  // The default model (claude-opus-5-5): 1 % of 1,000,000 tokens at 3 characters per token.
  assert.equal(claude.limit, 30_000);
  assert.deepEqual(claude.warnings, []);
});

test('Claude Code: over the budget, the first entries keep their text in what the bundled entries leave', async () => {
  const tree: Record<string, string> = {};
  const w = await world(({ P }) => {
    for (const name of ['aa', 'bb', 'cc', 'dd', 'ee'])
      tree[`${P}/.claude/skills/${name}/SKILL.md`] = S({ name, description: 'y'.repeat(100) });
    return tree;
  });
  // Window 210,000 → limit 6,300; the 13 bundled entries take 6,196, leaving 104: one description of 100 fits.
  const answer = agentCatalog(w.views, 'claude-code', 210_000);
  assert.equal(answer.limit, 6300);
  assert.deepEqual(statuses(answer), [
    ['aa', 'full', 100],
    ['bb', 'name-only', 0],
    ['cc', 'name-only', 0],
    ['dd', 'name-only', 0],
    ['ee', 'name-only', 0],
  ]);
  assert.equal(answer.used, 6196 + 106 + 4 * 4 + 17);
  assert.equal(
    answer.text,
    `The following skills are available for use with the Skill tool:\n\n- aa: ${'y'.repeat(100)}\n- bb\n- cc\n- dd\n- ee`,
  );
  assert.deepEqual(answer.warnings, [
    'Skill listing over budget: 18 skills, 6743 chars > 6300 budget — descriptions will be truncated. Run /skills to disable some, or raise skillListingBudgetFraction in settings.',
  ]);
  // A window large enough keeps everything.
  const roomy = agentCatalog(w.views, 'claude-code', 1_000_000);
  assert.deepEqual(
    roomy.entries.map((e) => e.status),
    ['full', 'full', 'full', 'full', 'full'],
  );
  assert.deepEqual(roomy.warnings, []);
  // A window whose budget the bundled entries fill: every file entry is a name (never dropped).
  const tiny = agentCatalog(w.views, 'claude-code', 100_000);
  assert.deepEqual(
    tiny.entries.map((e) => e.status),
    ['name-only', 'name-only', 'name-only', 'name-only', 'name-only'],
  );
});

test('catalog texts of the agents without a budget', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.agents/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'first' }),
  }));
  const file = `${w.P}/.agents/skills/alpha/SKILL.md`;
  assert.equal(
    agentCatalog(w.views, 'opencode', undefined).text,
    `Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n<available_skills>\n  <skill>\n    <name>alpha</name>\n    <description>first</description>\n    <location>${file}</location>\n  </skill>\n  <skill>\n    <name>customize-opencode</name>\n    <description>${BUILT_IN_DESCRIPTION}</description>\n    <location>&lt;built-in&gt;</location>\n  </skill>\n</available_skills>`,
  );
  assert.equal(
    agentCatalog(w.views, 'goose', undefined).text,
    '\n\nYou have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:\n• alpha - first',
  );
  // Copilot CLI's allowance and built-in entries: agents-copilot-cli-verified.test.ts.
  const copilot = agentCatalog(w.views, 'copilot-cli', undefined);
  assert.ok(
    copilot.text.startsWith(
      '<available_skills>\n<skill>\n  <name>alpha</name>\n  <description>first</description>\n  <location>project</location>\n</skill>\n',
    ),
  );
  assert.deepEqual(copilot.warnings, []);
  assert.ok(
    agentCatalog(w.views, 'vscode', undefined).text.includes(
      `<skill>\n<name>alpha</name>\n<description>first</description>\n<file>${file}</file>\n</skill>\n</skills>`,
    ),
  );
});

test('Claude Code: 20,000 skills are listed in one pass', () => {
  const skills: AgentSkill[] = Array.from({ length: 20_000 }, (_, i) => ({
    name: `s${String(i).padStart(5, '0')}`,
    description: 'd'.repeat(100),
    filePath: `/s/${i}/SKILL.md`,
    baseDir: `/s/${i}`,
    hide: false,
    source: { agent: 'claude-code', scope: 'user', root: '/s' },
  }));
  // Window 5,000,000 (default model, 3 per token): 150,000 characters, 143,804 after the bundled entries: 1,438
  // descriptions of 100 fit. Full lines are 110 characters, bare ones 8, plus 20,012 line breaks.
  const answer = agentSpec('claude-code').catalog(skills, 5_000_000, ['/s'], undefined);
  assert.equal(answer.limit, 150_000);
  assert.equal(answer.used, 6196 + 1438 * 110 + 18_562 * 8 + 20_012);
  assert.equal(answer.entries.filter((entry) => entry.status === 'full').length, 1438);
  assert.equal(answer.entries[1437]?.status, 'full');
  assert.equal(answer.entries[1438]?.status, 'name-only');
});

test('catalogs are kept per state and context window, at most 16 of them', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.claude/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'first' }),
  }));
  const state = new AgentViewsState(w.views, 7);
  const first = agentCatalogAnswer(state, 'claude-code', 1000);
  assert.equal(agentCatalogAnswer(state, 'claude-code', 1000), first);
  for (let window = 2000; window < 2100; window++) agentCatalogAnswer(state, 'claude-code', window);
  assert.equal(state.catalogCount, MAX_CATALOG_ANSWERS);
  assert.equal(MAX_CATALOG_ANSWERS, 16);
  // Recomputed once evicted: the same body and ETag.
  const again = agentCatalogAnswer(state, 'claude-code', 1000);
  assert.notEqual(again, first);
  assert.deepEqual(again, first);
  // The most recently used stays.
  agentCatalogAnswer(state, 'codex', undefined);
  assert.equal(agentCatalogAnswer(state, 'claude-code', 1000), again);
});
