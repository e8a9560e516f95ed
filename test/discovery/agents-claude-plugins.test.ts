// Claude Code's plugin skills (docs/agents.md "Claude Code"): the Claude registry's plugins with enabledPlugins and
// the project binding, each skills directory read one level deep, names `<plugin>:<folder>`, scope `plugin`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentSkills } from '../../src/discovery/agents/answers.js';
import { agentWorlds, loadedNames, S, skill } from '../helpers/agent-trees.js';
import type { TreeEntry } from '../helpers/temp-tree.js';

const world = agentWorlds();

function registry(plugins: Record<string, Array<Record<string, unknown>>>): string {
  return JSON.stringify({ version: 2, plugins });
}

test('the Claude registry’s plugins: one level per skills directory, named <plugin>:<folder>, scope plugin', async () => {
  const w = await world(({ T, H }) => ({
    [`${H}/.claude/plugins/installed_plugins.json`]: registry({
      'docs-kit@market': [{ scope: 'user', installPath: `${T}/cache/docs-kit` }],
      'extra@market': [{ scope: 'user', installPath: `${T}/cache/extra` }],
    }),
    [`${T}/cache/docs-kit/skills/pdf/SKILL.md`]: S({ name: 'Portable', description: 'PDF tools' }),
    [`${T}/cache/docs-kit/skills/group/deep/SKILL.md`]: skill('deep'),
    [`${T}/cache/docs-kit/skills/SKILL.md`]: skill('top'),
    [`${T}/cache/extra/.claude-plugin/plugin.json`]: JSON.stringify({ skills: './more' }),
    [`${T}/cache/extra/more/lint/SKILL.md`]: skill('lint'),
    [`${H}/.claude/skills/pdf/SKILL.md`]: skill('pdf'),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['docs-kit:pdf', 'extra:lint', 'pdf']);
  const answer = agentSkills(w.views, 'claude-code');
  const plugin = answer.skills.find((s) => s.name === 'docs-kit:pdf');
  assert.deepEqual(plugin, {
    name: 'docs-kit:pdf',
    description: 'PDF tools',
    filePath: `${w.T}/cache/docs-kit/skills/pdf/SKILL.md`,
    baseDir: `${w.T}/cache/docs-kit/skills/pdf`,
    hide: false,
    source: { agent: 'claude-code', scope: 'plugin', root: `${w.T}/cache/docs-kit/skills` },
  });
  assert.deepEqual(answer.skills.find((s) => s.name === 'extra:lint')?.source, {
    agent: 'claude-code',
    scope: 'plugin',
    root: `${w.T}/cache/extra/more`,
  });
  // Namespaced: the personal `pdf` and the plugin's `pdf` do not collide.
  assert.deepEqual(answer.collisions, []);
  // The daemon's provider also counts a SKILL.md directly in a skills directory; Claude Code reads one level only.
  const top = w.rows.find((row) => row.filePath === `${w.T}/cache/docs-kit/skills/SKILL.md`);
  assert.deepEqual(top?.views['claude-code'], {
    status: 'unseen',
    reason: `Claude Code ignores a SKILL.md directly in ${w.T}/cache/docs-kit/skills`,
  });
  assert.equal(top?.views.musepi.status, 'loaded');
  const pdfRow = w.rows.find((row) => row.filePath === `${w.T}/cache/docs-kit/skills/pdf/SKILL.md`);
  assert.deepEqual(pdfRow?.views['claude-code'], {
    status: 'loaded',
    filePath: `${w.T}/cache/docs-kit/skills/pdf/SKILL.md`,
    reason: 'loaded as docs-kit:pdf: Claude Code names skills by their folder',
  });
  assert.deepEqual(pdfRow?.views.codex, { status: 'unseen', reason: 'Codex does not read Claude Code plugins' });
});

test('enabledPlugins switches a plugin off; a project-bound install counts only in its own project', async () => {
  const w = await world(({ T, H, P }) => ({
    [`${H}/.claude/plugins/installed_plugins.json`]: registry({
      'off@m': [{ scope: 'user', installPath: `${T}/off` }],
      'here@m': [{ scope: 'project', installPath: `${T}/here`, projectPath: P }],
      'elsewhere@m': [{ scope: 'local', installPath: `${T}/elsewhere`, projectPath: `${T}/other` }],
      'opted@m': [{ scope: 'project', installPath: `${T}/opted`, projectPath: `${T}/other` }],
      'disabled@m': [{ scope: 'user', installPath: `${T}/disabled`, enabled: false }],
    }),
    [`${H}/.claude/settings.json`]: JSON.stringify({ enabledPlugins: { 'off@m': false } }),
    [`${P}/.claude/settings.json`]: JSON.stringify({ enabledPlugins: { 'opted@m': true } }),
    [`${T}/other/.keep`]: '',
    [`${T}/off/skills/a/SKILL.md`]: skill('a'),
    [`${T}/here/skills/b/SKILL.md`]: skill('b'),
    [`${T}/elsewhere/skills/c/SKILL.md`]: skill('c'),
    [`${T}/opted/skills/d/SKILL.md`]: skill('d'),
    [`${T}/disabled/skills/e/SKILL.md`]: skill('e'),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['here:b', 'opted:d']);
  const scopes = w.views.views.get('claude-code')?.skills.map((s) => s.source.scope);
  assert.deepEqual(scopes, ['plugin', 'plugin']);
});

test('CLAUDE_CONFIG_DIR moves the registry; a broken registry is a warning and no plugin', async () => {
  const moved = await world(
    ({ T, H, P }) => ({
      [`${P}/cfg/plugins/installed_plugins.json`]: registry({ 'p@m': [{ scope: 'user', installPath: `${T}/p` }] }),
      [`${H}/.claude/plugins/installed_plugins.json`]: registry({ 'q@m': [{ scope: 'user', installPath: `${T}/q` }] }),
      [`${T}/p/skills/x/SKILL.md`]: skill('x'),
      [`${T}/q/skills/y/SKILL.md`]: skill('y'),
    }),
    // Relative: read against the workspace.
    { env: { CLAUDE_CONFIG_DIR: 'cfg' } },
  );
  assert.deepEqual(loadedNames(moved, 'claude-code'), ['p:x']);
  const broken = await world(({ H }) => ({ [`${H}/.claude/plugins/installed_plugins.json`]: '{ not json' }));
  assert.deepEqual(broken.views.views.get('claude-code')?.warnings, [
    {
      skillPath: '',
      message: `[skillsd] Failed to parse Claude Code plugin registry: ${broken.H}/.claude/plugins/installed_plugins.json`,
    },
  ]);
});

test('the agent’s own registry is not Claude Code’s: its plugins stay out of the claude-code view', async () => {
  const w = await world(({ T, H }) => ({
    [`${H}/.musepi/plugins/installed_plugins.json`]: registry({
      'own@m': [{ scope: 'user', installPath: `${T}/own` }],
    }),
    [`${T}/own/skills/y/SKILL.md`]: skill('y'),
  }));
  assert.deepEqual(loadedNames(w, 'claude-code'), []);
});

/** A plugin `office` of a marketplace `acme` whose source is the directory `${T}/market`, installed at `${T}/cache`. */
function directoryMarketplace(T: string, H: string, known: TreeEntry): Record<string, TreeEntry> {
  return {
    [`${H}/.claude/plugins/installed_plugins.json`]: registry({
      'office@acme': [{ scope: 'user', installPath: `${T}/cache/office` }],
    }),
    [`${H}/.claude/plugins/known_marketplaces.json`]: known,
    [`${T}/market/.claude-plugin/marketplace.json`]: JSON.stringify({
      name: 'acme',
      plugins: [{ name: 'office', source: './office' }],
    }),
    [`${T}/market/office/skills/xlsx/SKILL.md`]: skill('from the marketplace folder'),
    [`${T}/cache/office/skills/xlsx/SKILL.md`]: skill('from the install cache'),
    [`${T}/cache/office/skills/charts/SKILL.md`]: skill('only in the install cache'),
  };
}

test('a plugin of a marketplace of source directory is read from that directory, not its install copy', async () => {
  const w = await world(({ T, H }) =>
    directoryMarketplace(T, H, JSON.stringify({ acme: { source: { source: 'directory', path: `${T}/market` } } })),
  );
  const answer = agentSkills(w.views, 'claude-code');
  assert.deepEqual(
    answer.skills.map((s) => [s.name, s.description, s.filePath]),
    [['office:xlsx', 'from the marketplace folder does things', `${w.T}/market/office/skills/xlsx/SKILL.md`]],
  );
});

test('a known_marketplaces.json that is not a regular file (a link to /dev/zero) is not read: the install copy is used', async () => {
  const w = await world(({ T, H }) => directoryMarketplace(T, H, { symlink: '/dev/zero' }));
  assert.deepEqual(loadedNames(w, 'claude-code'), ['office:charts', 'office:xlsx']);
});
