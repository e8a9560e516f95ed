// The catalogs and their budgets (docs/agents.md "Catalogs"): which entries stay full, are cut, keep only the name or
// drop, at several context windows, with the agents' exact warnings.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentCatalogAnswer } from '../../src/answers/agent-answers.js';
import { agentSpec } from '../../src/discovery/agents/agents.js';
import { agentCatalog } from '../../src/discovery/agents/answers.js';
import { firstScalars, scalarLength } from '../../src/discovery/agents/frontmatter-rules.js';
import type { AgentSkill } from '../../src/discovery/agents/types.js';
import { compareSkills } from '../../src/discovery/pipeline/sort-skills.js';
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

/** Claude Code's listing as it was computed before it was made linear: every line recounted after each removal. */
function quadraticClaudeCatalog(loaded: AgentSkill[], contextWindow: number | undefined) {
  const window = contextWindow ?? 200_000;
  const limit = window === 0 ? 8000 : Math.floor((window * 4) / 100);
  const skills = loaded.filter((skill) => !skill.hide).sort(compareSkills);
  const texts = skills.map((skill) => {
    const joined = skill.extra === undefined ? skill.description : `${skill.description} ${skill.extra}`;
    return { full: joined, shown: firstScalars(joined, 1536) };
  });
  const line = (i: number, withText: boolean): string => {
    const text = (texts[i] as { shown: string }).shown;
    return withText && text !== '' ? `- ${skills[i]?.name}: ${text}` : `- ${skills[i]?.name}`;
  };
  const withText = skills.map(() => true);
  const cost = (): number => skills.reduce((sum, _s, i) => sum + scalarLength(line(i, withText[i] === true)) + 1, 0);
  const fullCost = cost();
  const removed: string[] = [];
  for (let i = skills.length - 1; i >= 0 && cost() > limit; i--) {
    if ((texts[i] as { shown: string }).shown === '') continue;
    withText[i] = false;
    removed.push((skills[i] as AgentSkill).name);
  }
  const entries = skills.map((skill, i) => {
    const text = texts[i] as { full: string; shown: string };
    if (withText[i] !== true) return { name: skill.name, status: 'name-only', chars: 0 };
    const chars = scalarLength(text.shown);
    return { name: skill.name, status: chars < scalarLength(text.full) ? 'truncated' : 'full', chars };
  });
  const warnings: string[] = [];
  if (removed.length > 0) {
    const names = removed.slice().sort((a, b) => compareSkills({ name: a, filePath: '' }, { name: b, filePath: '' }));
    const listed = names.slice(0, 3).join(', ') + (names.length > 3 ? `, +${names.length - 3} more` : '');
    const share = window === 0 ? fullCost / 8000 : (fullCost / (window * 4)) * 100;
    warnings.push(
      'Skill listing will be truncated\n' +
        `${removed.length} descriptions dropped (full descriptions kept for most-used skills) (${share.toFixed(1)}%/1% of context):\n` +
        `  ${listed}\n` +
        'run /skills to disable some, or raise skillListingBudgetFraction (currently 1%) in settings.json',
    );
  }
  const text = skills.map((_s, i) => line(i, withText[i] === true)).join('\n');
  return { contextWindow: window, unit: 'chars', limit, used: cost(), entries, text, warnings };
}

test('Claude Code: the one-pass budget gives exactly the answers of the recounting one (2,000 random listings)', () => {
  // A fixed-seed generator (mulberry32): the same listings on every run.
  let seed = 0x5eed;
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  // Astral characters count once (one scalar, two UTF-16 units); lengths around the 1,536 cap included.
  const pieces = ['a', 'é', '𝒳', ' ', 'long words ', '😀'];
  const textOf = (max: number): string => {
    const length = pick([0, 1, 3, Math.floor(random() * max), 1535, 1536, 1537, 1540]);
    let out = '';
    for (let i = 0; i < length; i++) out += pick(pieces).slice(0, 2);
    return out;
  };
  const catalog = agentSpec('claude-code').catalog;
  for (let run = 0; run < 2000; run++) {
    const count = Math.floor(random() * 12);
    const skills: AgentSkill[] = Array.from({ length: count }, (_, i) => {
      const name = `${pick(['a', 'b', 'Z', 'é', '𝒳'])}${pick(['', 'x', 'y'])}${i % 3}`;
      const extra = random() < 0.3 ? textOf(40) : undefined;
      return {
        name,
        description: textOf(200),
        filePath: `/s/${name}/${i}/SKILL.md`,
        baseDir: `/s/${name}/${i}`,
        hide: random() < 0.15,
        source: { agent: 'claude-code', scope: 'user', root: '/s' },
        ...(extra === undefined ? {} : { extra }),
      };
    });
    const windows = [undefined, 0, 1, 100, 1000, 5000, 20_000, Math.floor(random() * 50_000)];
    // Two windows over the same skills: the second reuses the lines the first measured.
    for (const window of [pick(windows), pick(windows)]) {
      assert.deepEqual(
        catalog(skills, window, [], undefined),
        quadraticClaudeCatalog(skills, window),
        `run ${run}, ${window}`,
      );
    }
  }
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
  // Window 5,000,000: 200,000 characters. Full lines cost 111 each (2,220,000), bare ones 9: each removal from the
  // end saves 102, so 19,804 descriptions go and 196 stay: 2,220,000 − 19,804 × 102 = 199,992.
  const answer = agentSpec('claude-code').catalog(skills, 5_000_000, [], undefined);
  assert.equal(answer.limit, 200_000);
  assert.equal(answer.used, 199_992);
  assert.equal(answer.entries.filter((entry) => entry.status === 'full').length, 196);
  assert.equal(answer.entries[195]?.status, 'full');
  assert.equal(answer.entries[196]?.status, 'name-only');
});

test('catalogs are kept per state and context window, at most 16 of them', async () => {
  const w = await world(({ P }) => ({
    [`${P}/.claude/skills/alpha/SKILL.md`]: S({ name: 'alpha', description: 'first' }),
  }));
  const state = new AgentViewsState(w.views, 7, 'f');
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
