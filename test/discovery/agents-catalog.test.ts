// The catalogs and their budgets (docs/agents.md "Catalogs"): which entries stay full, are cut, keep only the name or
// drop, at several context windows, with the agents' exact warnings.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
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
    'Exceeded skills context budget of 2%. All skill descriptions were removed and 1 additional skill was not included in the model-visible skills list.',
  ]);
  assert.ok(
    answer.text.includes(
      `### Skill roots\n- \`r0\` = \`${w.H}/.agents/skills\`\n- \`r1\` = \`${w.P}/.agents/skills\`\n### Available skills\n- alpha: (file: r1/alpha/SKILL.md)\n- beta: (file: r1/beta/SKILL.md)\n### How to use skills\n`,
    ),
  );
  assert.ok(answer.text.startsWith('\n## Skills\n'));
  // The whole window: everything in full, absolute paths, no warning.
  const roomy = agentCatalog(w.views, 'codex', undefined);
  assert.equal(roomy.contextWindow, 272_000);
  assert.equal(roomy.limit, 5440);
  assert.deepEqual(statuses(roomy), [
    ['alpha', 'full', 1],
    ['beta', 'full', 1],
    ['aaa', 'full', 1],
  ]);
  assert.ok(roomy.text.includes(`- alpha: d (file: ${w.P}/.agents/skills/alpha/SKILL.md)\n`));
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
  assert.deepEqual(answer.warnings, [
    'Skill descriptions were shortened to fit the 2% skills context budget. Codex can still see every skill, but some descriptions are shorter. Disable unused skills or plugins to leave more room for the rest.',
  ]);
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
  assert.equal(claude.limit, 8000);
  assert.deepEqual(claude.warnings, []);
});

test('Claude Code: over the budget, descriptions go from the last entry upward and names stay', async () => {
  const tree: Record<string, string> = {};
  const w = await world(({ P }) => {
    for (const name of ['aa', 'bb', 'cc', 'dd', 'ee'])
      tree[`${P}/.claude/skills/${name}/SKILL.md`] = S({ name, description: 'y'.repeat(100) });
    return tree;
  });
  // Window 5,000 → limit 200 characters; full lines cost 5 × (2 + 2 + 2 + 100 + 1) = 535.
  const answer = agentCatalog(w.views, 'claude-code', 5000);
  assert.equal(answer.limit, 200);
  assert.deepEqual(statuses(answer), [
    ['aa', 'full', 100],
    ['bb', 'name-only', 0],
    ['cc', 'name-only', 0],
    ['dd', 'name-only', 0],
    ['ee', 'name-only', 0],
  ]);
  assert.equal(answer.used, 107 + 4 * 5);
  assert.equal(answer.text, `- aa: ${'y'.repeat(100)}\n- bb\n- cc\n- dd\n- ee`);
  assert.deepEqual(answer.warnings, [
    'Skill listing will be truncated\n4 descriptions dropped (full descriptions kept for most-used skills) (2.7%/1% of context):\n  bb, cc, dd, +1 more\nrun /skills to disable some, or raise skillListingBudgetFraction (currently 1%) in settings.json',
  ]);
  // A window large enough keeps everything.
  const roomy = agentCatalog(w.views, 'claude-code', 100_000);
  assert.deepEqual(
    roomy.entries.map((e) => e.status),
    ['full', 'full', 'full', 'full', 'full'],
  );
  assert.deepEqual(roomy.warnings, []);
  // A tiny window: every description goes, the names stay (never dropped).
  const tiny = agentCatalog(w.views, 'claude-code', 100);
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
    `Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n<available_skills>\n  <skill>\n    <name>alpha</name>\n    <description>first</description>\n    <location>file://${file}</location>\n  </skill>\n</available_skills>`,
  );
  assert.equal(
    agentCatalog(w.views, 'goose', undefined).text,
    '\n\nYou have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:\n• alpha - first',
  );
  const copilot = agentCatalog(w.views, 'copilot-cli', undefined);
  assert.equal(copilot.text, '- alpha: first');
  assert.deepEqual(copilot.warnings, [
    '[skillsd] Copilot CLI limits its skill catalog by tokens; the size of that limit is not published',
  ]);
  assert.ok(
    agentCatalog(w.views, 'vscode', undefined).text.includes(
      `<skill>\n<name>alpha</name>\n<description>first</description>\n<file>${file}</file>\n</skill>\n</skills>`,
    ),
  );
});
