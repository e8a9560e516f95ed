// omp-plugins (docs/discovery.md §4a): extension packages from settings, installed packages with the lock file and the
// project's overrides, packages left to claude-plugins, levels, ranking, profiles.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryResult } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { entry, registry } from '../../helpers/plugin-trees.js';
import { SK, type TreeEntry, writeTree } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-omp-plugins-');

/** `[name, source id, plugin, filePath relative to base]`, in list order. */
function summary(base: string, result: DiscoveryResult) {
  return result.skills.map((skill) => [
    skill.name,
    skill.source.id,
    skill.source.plugin ?? null,
    skill.filePath.slice(base.length + 1),
  ]);
}

/** A package directory with a `package.json` and one skill of its own name. */
function pkg(dir: string, manifest: Record<string, unknown>, skill: string): Record<string, TreeEntry> {
  return {
    [`${dir}/package.json`]: JSON.stringify(manifest),
    [`${dir}/skills/${skill}/SKILL.md`]: SK({ description: skill }),
  };
}

describe('omp-plugins: extension packages from settings', () => {
  it("reads CWD's settings (project) then the agent's (user); drops what is not an existing directory", async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/settings.json': JSON.stringify({
        extensions: ['../ext-a', 3, '', '../missing', '../a-file', '../ext-a'],
      }),
      'H/.musepi/agent/settings.json': JSON.stringify({ extensions: ['~/ext-home', 'rel-ext', '../ext-a'] }),
      'a-file': 'x',
      ...pkg('ext-a', { name: '@me/ext-a', omp: {} }, 'from-a'),
      'ext-a/skills/no-desc/SKILL.md': SK({ name: 'no-desc' }),
      ...pkg('H/ext-home', {}, 'from-home'),
      'P/rel-ext/skills/from-rel/SKILL.md': SK({ description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(summary(base, result), [
      ['from-a', 'omp-plugins:project', '@me/ext-a', 'ext-a/skills/from-a/SKILL.md'],
      ['from-home', 'omp-plugins:user', 'ext-home', 'H/ext-home/skills/from-home/SKILL.md'],
      ['from-rel', 'omp-plugins:user', 'rel-ext', 'P/rel-ext/skills/from-rel/SKILL.md'],
    ]);
    assert.deepEqual(result.warnings, []);
  });

  it('reads the user settings from PI_CODING_AGENT_DIR when it is set', async () => {
    const { base, ctx } = await workspace({
      'agent-dir/settings.json': JSON.stringify({ extensions: ['ext'] }),
      'H/.musepi/agent/settings.json': JSON.stringify({ extensions: ['ignored'] }),
      ...pkg('P/ext', {}, 'via-env'),
      ...pkg('P/ignored', {}, 'ignored'),
    });
    const result = await discoverSkills({ ...ctx, env: { PI_CODING_AGENT_DIR: join(base, 'agent-dir') } });
    assert.deepEqual(
      result.skills.map((skill) => skill.name),
      ['via-env'],
    );
  });
});

describe('omp-plugins: installed packages', () => {
  it('takes dependencies and lock entries whose package.json has omp or pi, unless disabled by the lock or overrides', async () => {
    const { base, ctx } = await workspace({
      'H/.musepi/plugins/package.json': JSON.stringify({
        dependencies: {
          'omp-tool': '1',
          'plain-lib': '1',
          '@scope/pi-tool': '1',
          off: '1',
          overridden: '1',
          '../evil': '1',
        },
      }),
      'H/.musepi/plugins/omp-plugins.lock.json': JSON.stringify({
        plugins: { 'lock-only': { enabled: true }, off: { enabled: false }, 'omp-tool': { enabled: true } },
      }),
      'P/.musepi/plugin-overrides.json': JSON.stringify({ disabled: ['overridden', 7] }),
      ...pkg(
        'H/.musepi/plugins/node_modules/omp-tool',
        { name: 'omp-tool', omp: { extensions: [] } },
        'omp-tool-skill',
      ),
      ...pkg('H/.musepi/plugins/node_modules/plain-lib', { name: 'plain-lib' }, 'plain-skill'),
      ...pkg('H/.musepi/plugins/node_modules/@scope/pi-tool', { pi: {} }, 'pi-skill'),
      ...pkg('H/.musepi/plugins/node_modules/off', { omp: {} }, 'off-skill'),
      ...pkg('H/.musepi/plugins/node_modules/overridden', { omp: {} }, 'overridden-skill'),
      ...pkg('H/.musepi/plugins/node_modules/lock-only', { omp: {} }, 'lock-skill'),
      ...pkg('H/.musepi/evil', { omp: {} }, 'evil-skill'),
    });
    const result = await discoverSkills(ctx);
    const nm = 'H/.musepi/plugins/node_modules';
    assert.deepEqual(summary(base, result), [
      ['lock-skill', 'omp-plugins:user', 'lock-only', `${nm}/lock-only/skills/lock-skill/SKILL.md`],
      ['omp-tool-skill', 'omp-plugins:user', 'omp-tool', `${nm}/omp-tool/skills/omp-tool-skill/SKILL.md`],
      ['pi-skill', 'omp-plugins:user', '@scope/pi-tool', `${nm}/@scope/pi-tool/skills/pi-skill/SKILL.md`],
    ]);
  });

  it('packages under the project anchor are level project; the overrides file is read from CWD', async () => {
    const { base, ctx } = await workspace({
      'P/.musepi/plugins/package.json': JSON.stringify({ dependencies: { local: '1', hidden: '1' } }),
      ...pkg('P/.musepi/plugins/node_modules/local', { omp: {} }, 'local-skill'),
      ...pkg('P/.musepi/plugins/node_modules/hidden', { omp: {} }, 'hidden-skill'),
      'P/sub/.keep': '',
      'P/sub/.musepi/plugin-overrides.json': JSON.stringify({ disabled: ['hidden'] }),
    });
    assert.deepEqual(
      summary(base, await discoverSkills(ctx)).map(([name, id]) => [name, id]),
      [
        ['hidden-skill', 'omp-plugins:project'],
        ['local-skill', 'omp-plugins:project'],
      ],
    );
    // From P/sub, `P/sub/.musepi` is the anchor: P's packages are not the project's any more, and the overrides there
    // would disable `hidden` anyway.
    assert.deepEqual((await discoverSkills({ ...ctx, cwd: join(base, 'P/sub') })).skills, []);
  });

  it('leaves a package whose realpath is also a claude-plugins root to claude-plugins', async () => {
    const { base, ctx } = await workspace({
      'H/.musepi/plugins/package.json': JSON.stringify({ dependencies: { both: '1' } }),
      ...pkg('shared/both', { omp: {} }, 'both-skill'),
      'H/.musepi/plugins/node_modules/both': { symlink: '../../../../shared/both' },
    });
    await writeTree(base, {
      'H/.claude/plugins/installed_plugins.json': registry({ 'both@m': [entry(join(base, 'shared/both'))] }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(summary(base, result), [
      ['both-skill', 'claude-plugins:user', 'both@m', 'shared/both/skills/both-skill/SKILL.md'],
    ]);
    assert.deepEqual(result.collisions, []);
  });
});

describe('omp-plugins: ranking and profiles', () => {
  it('ranks below native (100) and above claude (80)', async () => {
    const { ctx } = await workspace({
      'P/.musepi/settings.json': JSON.stringify({ extensions: ['../ext'] }),
      ...pkg('ext', { name: 'ext' }, 'a'),
      'ext/skills/b/SKILL.md': SK({ description: 'ext' }),
      'P/.musepi/skills/a/SKILL.md': SK({ description: 'native' }),
      'P/.claude/skills/b/SKILL.md': SK({ description: 'claude' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.id]),
      [
        ['a', 'native:project'],
        ['b', 'omp-plugins:project'],
      ],
    );
    assert.deepEqual(
      result.collisions.map((c) => [
        c.name,
        c.winner.source.plugin ?? null,
        c.shadowed.map((s) => s.source.plugin ?? null),
      ]),
      [
        ['a', null, ['ext']],
        ['b', 'ext', [null]],
      ],
    );
  });

  it('the omp profile reads .omp; xcsh has no omp-plugins', async () => {
    const { ctx } = await workspace({
      'P/.omp/settings.json': JSON.stringify({ extensions: ['../omp-ext'] }),
      'P/.xcsh/settings.json': JSON.stringify({ extensions: ['../omp-ext'] }),
      ...pkg('omp-ext', {}, 'omp-skill'),
    });
    const omp = await discoverSkills({ ...ctx, settings: { ...ctx.settings, profile: 'omp' } });
    assert.deepEqual(
      omp.skills.map((skill) => [skill.name, skill.source.id]),
      [['omp-skill', 'omp-plugins:project']],
    );
    const xcsh = await discoverSkills({ ...ctx, settings: { ...ctx.settings, profile: 'xcsh' } });
    assert.deepEqual(xcsh.skills, []);
  });
});
