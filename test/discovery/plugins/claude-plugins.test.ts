// claude-plugins (docs/discovery.md §4a): the three registries, scopes and project binding, enabledPlugins, manifests and
// their `skills` entries, the marketplace rule, a skills directory's own SKILL.md, xcsh's prefixed names, the gate.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseName, diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryContext, DiscoveryResult } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { enabledPlugins, entry, registry } from '../../helpers/plugin-trees.js';
import { SK, writeTree } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-claude-plugins-');

const CLAUDE_REGISTRY = 'H/.claude/plugins/installed_plugins.json';
const AGENT_REGISTRY = 'H/.musepi/plugins/installed_plugins.json';

/** `[name, source id, plugin, filePath relative to base]` for every plugin skill, in list order. */
function pluginSkills(base: string, result: DiscoveryResult) {
  return result.skills
    .filter((skill) => skill.source.plugin !== undefined)
    .map((skill) => [skill.name, skill.source.id, skill.source.plugin, skill.filePath.slice(base.length + 1)]);
}

function run(ctx: DiscoveryContext): Promise<DiscoveryResult> {
  return discoverSkills(ctx);
}

describe('claude-plugins: the Claude Code registry', () => {
  it('loads a user-scope plugin: source, display name, level, plugin identity; description not required', async () => {
    const { base, ctx } = await workspace({});
    const plugin = join(base, 'plugins/tools');
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'tools@market': [entry(plugin)] }),
      'plugins/tools/skills/lint/SKILL.md': SK({ description: 'Lint things' }),
      'plugins/tools/skills/bare/SKILL.md': SK({ name: 'bare' }),
    });
    const result = await run(ctx);
    const lint = result.skills.find((skill) => skill.name === 'lint');
    assert.deepEqual(lint?.source, {
      id: 'claude-plugins:user',
      provider: 'claude-plugins',
      providerName: 'Claude Code Marketplace',
      level: 'user',
      path: join(plugin, 'skills/lint/SKILL.md'),
      plugin: 'tools@market',
    });
    assert.equal(result.skills.find((skill) => skill.name === 'bare')?.description, '');
    assert.deepEqual(result.warnings, []);
    assert.ok(result.scannedDirs.includes(join(plugin, 'skills')));
  });

  it('reads the registry under $CLAUDE_CONFIG_DIR instead of HOME/.claude', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      'cc/plugins/installed_plugins.json': registry({ 'a@m': [entry(join(base, 'pa'))] }),
      [CLAUDE_REGISTRY]: registry({ 'b@m': [entry(join(base, 'pb'))] }),
      'pa/skills/from-env/SKILL.md': SK({ description: 'x' }),
      'pb/skills/from-home/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run({ ...ctx, env: { CLAUDE_CONFIG_DIR: join(base, 'cc') } });
    assert.deepEqual(pluginSkills(base, result), [
      ['from-env', 'claude-plugins:user', 'a@m', 'pa/skills/from-env/SKILL.md'],
    ]);
  });

  it('warns about a registry that does not parse or whose version is not a number, and uses nothing of it', async () => {
    for (const text of ['{"version": "2", "plugins": {}}', '{ not json', '[]']) {
      const { base, ctx } = await workspace({ [CLAUDE_REGISTRY]: text });
      const result = await run(ctx);
      assert.deepEqual(result.warnings, [
        {
          skillPath: '',
          message: `[Claude Code Marketplace] Failed to parse Claude Code plugin registry: ${join(base, CLAUDE_REGISTRY)}`,
        },
      ]);
    }
  });

  it('per entry: enabled false skipped, no installPath warned, empty list nothing, id without @ warned, missing path nothing', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'off@m': [entry(join(base, 'off'), { enabled: false })],
        'nopath@m': [
          { scope: 'user', version: '1' },
          { scope: 'user', installPath: '' },
        ],
        'empty@m': [],
        bad: [entry(join(base, 'bad'))],
        'gone@m': [entry(join(base, 'does-not-exist'))],
        'ok@m': [entry(join(base, 'ok'))],
      }),
      'off/skills/off-skill/SKILL.md': SK({ description: 'x' }),
      'bad/skills/bad-skill/SKILL.md': SK({ description: 'x' }),
      'ok/skills/ok-skill/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run(ctx);
    assert.deepEqual(pluginSkills(base, result), [
      ['ok-skill', 'claude-plugins:user', 'ok@m', 'ok/skills/ok-skill/SKILL.md'],
    ]);
    assert.deepEqual(
      result.warnings.map((warning) => warning.message),
      [
        '[Claude Code Marketplace] Plugin nopath@m entry has no installPath',
        '[Claude Code Marketplace] Plugin nopath@m entry has no installPath',
        '[Claude Code Marketplace] Invalid plugin ID format (missing @marketplace): bad',
      ],
    );
  });

  it('binds project and local scopes to the realpath of their projectPath; enabledPlugins switches off and opts in', async () => {
    const { base, ctx } = await workspace({});
    const P = join(base, 'P');
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'here@m': [entry(join(base, 'here'), { scope: 'project', projectPath: P })],
        'local@m': [entry(join(base, 'local'), { scope: 'local', projectPath: join(base, 'P-link') })],
        'other@m': [entry(join(base, 'other'), { scope: 'project', projectPath: join(base, 'Q') })],
        'opted@m': [entry(join(base, 'opted'), { scope: 'local', projectPath: join(base, 'Q') })],
        'unbound@m': [entry(join(base, 'unbound'), { scope: 'project' })],
        'off@m': [entry(join(base, 'off'))],
        'back-on@m': [entry(join(base, 'back-on'))],
      }),
      'P-link': { symlink: P },
      'Q/.keep': '',
      'H/.claude/settings.json': enabledPlugins({ 'off@m': false, 'back-on@m': false }),
      'P/.claude/settings.json': enabledPlugins({ 'opted@m': true, 'back-on@m': false }),
      'P/.claude/settings.local.json': enabledPlugins({ 'back-on@m': true }),
      ...Object.fromEntries(
        ['here', 'local', 'other', 'opted', 'unbound', 'off', 'back-on'].map((dir) => [
          `${dir}/skills/${dir}-skill/SKILL.md`,
          SK({ description: 'x' }),
        ]),
      ),
    });
    const result = await run(ctx);
    assert.deepEqual(
      pluginSkills(base, result).map(([name, id, plugin]) => [name, id, plugin]),
      [
        ['back-on-skill', 'claude-plugins:user', 'back-on@m'],
        ['here-skill', 'claude-plugins:project', 'here@m'],
        ['local-skill', 'claude-plugins:project', 'local@m'],
        ['opted-skill', 'claude-plugins:project', 'opted@m'],
      ],
    );
    assert.deepEqual(result.warnings, []);
  });

  it('binds to the registry anchor, not CWD: the repository root from a sub-directory, a nearer CFG/ otherwise', async () => {
    const { base, ctx } = await workspace({});
    const P = join(base, 'P');
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'repo@m': [entry(join(base, 'repo'), { scope: 'project', projectPath: P })],
        'sub@m': [entry(join(base, 'sub'), { scope: 'project', projectPath: join(P, 'src') })],
      }),
      'repo/skills/repo-skill/SKILL.md': SK({ description: 'x' }),
      'sub/skills/sub-skill/SKILL.md': SK({ description: 'x' }),
      'P/src/deep/.keep': '',
      'P/other/.musepi/.keep': '',
    });
    const fromSrc = await run({ ...ctx, cwd: join(P, 'src', 'deep') });
    assert.deepEqual(
      fromSrc.skills.map((skill) => skill.name),
      ['repo-skill'],
    );
    // P/other has its own `.musepi/`: it is the anchor there, and neither install is bound to it.
    const fromOther = await run({ ...ctx, cwd: join(P, 'other') });
    assert.deepEqual(fromOther.skills, []);
  });
});

describe('claude-plugins: the agent registry and the project registry', () => {
  it("the agent's registry replaces Claude's entries of the same id and ignores enabledPlugins and the binding", async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'dup@m': [entry(join(base, 'claude-copy'))],
        'keep@m': [entry(join(base, 'keep'))],
      }),
      [AGENT_REGISTRY]: registry({
        'dup@m': [entry(join(base, 'agent-copy'))],
        'elsewhere@m': [entry(join(base, 'elsewhere'), { scope: 'local', projectPath: join(base, 'Q') })],
        'off-in-claude@m': [entry(join(base, 'off-in-claude'))],
      }),
      'H/.claude/settings.json': enabledPlugins({ 'off-in-claude@m': false }),
      'claude-copy/skills/dup/SKILL.md': SK({ description: 'claude copy' }),
      'agent-copy/skills/dup/SKILL.md': SK({ description: 'agent copy' }),
      'keep/skills/keep/SKILL.md': SK({ description: 'x' }),
      'elsewhere/skills/elsewhere/SKILL.md': SK({ description: 'x' }),
      'off-in-claude/skills/off-in-claude/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run(ctx);
    assert.deepEqual(pluginSkills(base, result), [
      ['dup', 'claude-plugins:user', 'dup@m', 'agent-copy/skills/dup/SKILL.md'],
      ['elsewhere', 'claude-plugins:project', 'elsewhere@m', 'elsewhere/skills/elsewhere/SKILL.md'],
      ['keep', 'claude-plugins:user', 'keep@m', 'keep/skills/keep/SKILL.md'],
      ['off-in-claude', 'claude-plugins:user', 'off-in-claude@m', 'off-in-claude/skills/off-in-claude/SKILL.md'],
    ]);
    // The Claude copy lost nothing to precedence: it was never a root.
    assert.deepEqual(result.collisions, []);
  });

  it('keeps roots with the same installPath once, and names the three registries in parse warnings', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'one@m': [entry(join(base, 'same'))], 'two@m': [entry(join(base, 'same'))] }),
      'same/skills/same/SKILL.md': SK({ description: 'x' }),
    });
    assert.deepEqual(pluginSkills(base, await run(ctx)), [
      ['same', 'claude-plugins:user', 'one@m', 'same/skills/same/SKILL.md'],
    ]);
    await writeTree(base, { [AGENT_REGISTRY]: '{"version":1}', 'P/.musepi/plugins/installed_plugins.json': '{' });
    assert.deepEqual(
      (await run(ctx)).warnings.map((warning) => warning.message),
      [
        `[Claude Code Marketplace] Failed to parse OMP plugin registry: ${join(base, AGENT_REGISTRY)}`,
        `[Claude Code Marketplace] Failed to parse project plugin registry: ${join(base, 'P/.musepi/plugins/installed_plugins.json')}`,
      ],
    );
  });

  it('the project registry: level project, shadows user entries of the same id, comes first', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'shared@m': [entry(join(base, 'user-copy'))],
        'mine@m': [entry(join(base, 'mine'))],
      }),
      'P/.musepi/plugins/installed_plugins.json': registry({
        'shared@m': [entry(join(base, 'project-copy'), { scope: 'user' })],
      }),
      'user-copy/skills/shared/SKILL.md': SK({ description: 'user' }),
      'project-copy/skills/shared/SKILL.md': SK({ description: 'project' }),
      'mine/skills/mine/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run(ctx);
    assert.deepEqual(pluginSkills(base, result), [
      ['mine', 'claude-plugins:user', 'mine@m', 'mine/skills/mine/SKILL.md'],
      ['shared', 'claude-plugins:project', 'shared@m', 'project-copy/skills/shared/SKILL.md'],
    ]);
  });

  it('finds the project registry at the nearest CFG/ above CWD, even above the repository; a nearer CFG/ hides it', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      'W/.musepi/plugins/installed_plugins.json': registry({ 'w@m': [entry(join(base, 'w'))] }),
      'W/R/.git/HEAD': '',
      'W/R/inner/.musepi/.keep': '',
      'w/skills/from-w/SKILL.md': SK({ description: 'x' }),
    });
    const above = await run({ ...ctx, cwd: join(base, 'W/R') });
    assert.deepEqual(pluginSkills(base, above), [
      ['from-w', 'claude-plugins:project', 'w@m', 'w/skills/from-w/SKILL.md'],
    ]);
    const hidden = await run({ ...ctx, cwd: join(base, 'W/R/inner') });
    assert.deepEqual(pluginSkills(base, hidden), []);
  });
});

describe('claude-plugins: skills directories of a root', () => {
  it('scans <root>/skills plus the manifest `skills` entries inside the root, each once, warning about escapes', async () => {
    const { base, ctx } = await workspace({});
    const root = join(base, 'tools');
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'tools@m': [entry(root)] }),
      'tools/.claude-plugin/plugin.json': JSON.stringify({
        skills: ['./extra', '  ', 3, 'extra', '../outside', '/etc', './skills'],
      }),
      'tools/skills/a/SKILL.md': SK({ description: 'x' }),
      'tools/extra/b/SKILL.md': SK({ description: 'x' }),
      'outside/c/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run(ctx);
    assert.deepEqual(
      pluginSkills(base, result).map(([name, , , path]) => [name, path]),
      [
        ['a', 'tools/skills/a/SKILL.md'],
        ['b', 'tools/extra/b/SKILL.md'],
      ],
    );
    assert.deepEqual(
      result.warnings.map((warning) => warning.message),
      [
        '[Claude Code Marketplace] [claude-plugins] Ignoring skills path outside plugin root for tools@m: ../outside',
        '[Claude Code Marketplace] [claude-plugins] Ignoring skills path outside plugin root for tools@m: /etc',
      ],
    );
    assert.deepEqual(
      result.scannedDirs.filter((dir) => dir.startsWith(root)),
      [join(root, 'skills'), join(root, 'extra')],
    );
  });

  it('counts a SKILL.md directly inside a skills directory, named by frontmatter else by the directory', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'one@m': [entry(join(base, 'one'))] }),
      'one/.claude-plugin/plugin.json': JSON.stringify({ skills: 'single' }),
      'one/single/SKILL.md': SK({ description: 'no name' }),
      'one/skills/SKILL.md': SK({ name: 'named-self', description: 'x' }),
      'one/skills/child/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run(ctx);
    assert.deepEqual(
      pluginSkills(base, result).map(([name, , , path]) => [name, path]),
      [
        ['child', 'one/skills/child/SKILL.md'],
        ['named-self', 'one/skills/SKILL.md'],
        ['single', 'one/single/SKILL.md'],
      ],
    );
    assert.equal(result.skills.find((skill) => skill.name === 'single')?.baseDir, join(base, 'one/single'));
  });

  it('a marketplace.json at the root listing the plugin with source "./" drops the default skills/', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'kit@market': [entry(join(base, 'kit'))],
        'other@market': [entry(join(base, 'other'))],
      }),
      'kit/.claude-plugin/marketplace.json': JSON.stringify({
        name: 'market',
        plugins: [{ name: 'kit', source: './', skills: ['./skills/listed'] }],
      }),
      'kit/.claude-plugin/plugin.json': JSON.stringify({ skills: ['./picked'] }),
      'kit/skills/default/SKILL.md': SK({ description: 'x' }),
      'kit/picked/chosen/SKILL.md': SK({ description: 'x' }),
      // Another plugin's marketplace listing some other plugin at ./ changes nothing for it.
      'other/.claude-plugin/marketplace.json': JSON.stringify({ plugins: [{ name: 'kit', source: './' }] }),
      'other/skills/kept/SKILL.md': SK({ description: 'x' }),
    });
    const result = await run(ctx);
    assert.deepEqual(
      pluginSkills(base, result).map(([name]) => name),
      ['chosen', 'kept'],
    );
  });
});

describe('claude-plugins: ranking, gate and profiles', () => {
  it('ranks below claude (80) and above agents at equal priority; the collision names the plugin', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'tools@m': [entry(join(base, 'tools'))] }),
      'tools/skills/x/SKILL.md': SK({ description: 'plugin' }),
      'tools/skills/y/SKILL.md': SK({ description: 'plugin' }),
      'H/.claude/skills/x/SKILL.md': SK({ description: 'claude' }),
      'P/.agents/skills/y/SKILL.md': SK({ description: 'agents' }),
    });
    const result = await run(ctx);
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.id]),
      [
        ['x', 'claude:user'],
        ['y', 'claude-plugins:user'],
      ],
    );
    assert.deepEqual(
      result.collisions.map((c) => [c.name, c.shadowed.map((s) => [s.source.id, s.source.plugin ?? null, s.reason])]),
      [
        ['x', [['claude-plugins:user', 'tools@m', 'precedence']]],
        ['y', [['agents:project', null, 'precedence']]],
      ],
    );
    const y = result.collisions.find((c) => c.name === 'y');
    assert.equal(y?.winner.source.plugin, 'tools@m');
  });

  it("a custom directory replaces a plugin skill, as it replaces any provider's", async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'tools@m': [entry(join(base, 'tools'))] }),
      'tools/skills/lint/SKILL.md': SK({ description: 'plugin' }),
      'C/lint/SKILL.md': SK({ description: 'custom' }),
    });
    const result = await run({
      ...ctx,
      settings: { ...ctx.settings, skills: { ...ctx.settings.skills, customDirectories: [join(base, 'C')] } },
    });
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.id, skill.description]),
      [['lint', 'custom:user', 'custom']],
    );
    assert.deepEqual(
      result.collisions.map((c) => c.shadowed.map((s) => [s.source.id, s.source.plugin, s.reason])),
      [[['claude-plugins:user', 'tools@m', 'custom-override']]],
    );
    assert.deepEqual(result.warnings, []);
  });

  it('follows the fallback gate but still warns; a managed skill defers to an enabled plugin skill', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'tools@m': [entry(join(base, 'tools'))], bad: [entry(join(base, 'x'))] }),
      'tools/skills/auto/SKILL.md': SK({ description: 'plugin' }),
      'H/.musepi/agent/managed-skills/auto/SKILL.md': SK({ description: 'managed' }),
    });
    const on = await run(ctx);
    assert.deepEqual(
      on.skills.map((skill) => [skill.name, skill.source.id]),
      [['auto', 'claude-plugins:user']],
    );
    const skills = ctx.settings.skills;
    const off = await run({
      ...ctx,
      settings: {
        ...ctx.settings,
        skills: {
          ...skills,
          enableCodexUser: false,
          enableClaudeUser: false,
          enableClaudeProject: false,
          enablePiUser: false,
          enablePiProject: false,
        },
      },
    });
    // The gate is off: the plugin skill is disabled, so the managed one takes the name.
    assert.deepEqual(
      off.skills.map((skill) => [skill.name, skill.source.id]),
      [['auto', 'musepi-managed:user']],
    );
    assert.deepEqual(
      off.warnings.map((warning) => warning.message),
      ['[Claude Code Marketplace] Invalid plugin ID format (missing @marketplace): bad'],
    );
    const silenced = await run({ ...ctx, settings: { ...ctx.settings, disabledProviders: ['claude-plugins'] } });
    assert.deepEqual(silenced.warnings, []);
  });

  it('xcsh: names are `<plugin>:<name>`, filters see the prefixed name; the omp profile reads HOME/.omp/plugins', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'tools@m': [entry(join(base, 'tools'))] }),
      'H/.omp/plugins/installed_plugins.json': registry({ 'omp@m': [entry(join(base, 'omp'))] }),
      'tools/skills/lint/SKILL.md': SK({ description: 'x' }),
      'tools/skills/fmt/SKILL.md': SK({ name: 'format', description: 'x' }),
      'omp/skills/from-omp/SKILL.md': SK({ description: 'x' }),
    });
    const xcsh = await run({
      ...ctx,
      settings: {
        ...ctx.settings,
        profile: 'xcsh',
        skills: { ...ctx.settings.skills, ignoredSkills: ['tools:format'] },
      },
    });
    assert.deepEqual(pluginSkills(base, xcsh), [
      ['tools:lint', 'claude-plugins:user', 'tools@m', 'tools/skills/lint/SKILL.md'],
    ]);
    // The doctor sees the same candidates under the same prefixed names, and why the filtered one is out.
    const xcshCtx = {
      ...ctx,
      settings: {
        ...ctx.settings,
        profile: 'xcsh' as const,
        skills: { ...ctx.settings.skills, ignoredSkills: ['tools:format'] },
      },
    };
    const diagnosis = await diagnoseWorkspace({ ctx: xcshCtx, skills: xcsh.skills, collisions: xcsh.collisions });
    const outcomes = (name: string) =>
      diagnoseName(
        name,
        diagnosis,
        xcsh.skills.find((skill) => skill.name === name),
      ).candidates.map((candidate) => [
        candidate.outcome,
        candidate.source.id,
        candidate.source.plugin,
        candidate.filePath.slice(base.length + 1),
      ]);
    assert.deepEqual(outcomes('tools:lint'), [
      ['loaded', 'claude-plugins:user', 'tools@m', 'tools/skills/lint/SKILL.md'],
    ]);
    assert.deepEqual(outcomes('tools:format'), [
      ['filtered', 'claude-plugins:user', 'tools@m', 'tools/skills/fmt/SKILL.md'],
    ]);
    assert.ok(diagnosis.directories.some((dir) => dir.path === join(base, 'tools/skills') && dir.skills === 2));
    const omp = await run({ ...ctx, settings: { ...ctx.settings, profile: 'omp' } });
    assert.deepEqual(
      pluginSkills(base, omp).map(([name, , plugin]) => [name, plugin]),
      [
        ['format', 'tools@m'],
        ['from-omp', 'omp@m'],
        ['lint', 'tools@m'],
      ],
    );
  });
});
