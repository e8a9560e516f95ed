// agent-plugins (SKILLS.md §4a): which roots are Agent Plugins, rejected roots, unknown manifest fields, strict
// frontmatter (table), realpath containment, levels from either registry, ranking.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/discover-skills.js';
import type { DiscoveryContext, DiscoveryResult } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';
import { AGENT_SCHEMA, agentManifest, entry, registry } from '../../helpers/plugin-trees.js';
import { SK, type TreeEntry, writeTree } from '../../helpers/temp-tree.js';

const workspace = workspaceFactory('skillsd-agent-plugins-');
const CLAUDE_REGISTRY = 'H/.claude/plugins/installed_plugins.json';

/** A workspace whose Claude registry installs `kit@m` at `<base>/kit`, plus `tree`. */
async function withKit(tree: Record<string, TreeEntry>): Promise<{ base: string; ctx: DiscoveryContext }> {
  const made = await workspace({});
  await writeTree(made.base, { [CLAUDE_REGISTRY]: registry({ 'kit@m': [entry(join(made.base, 'kit'))] }), ...tree });
  return made;
}

function messages(result: DiscoveryResult): string[] {
  return result.warnings.map((warning) => warning.message);
}

describe('agent-plugins: roots', () => {
  it('takes a root whose plugin.json declares the 1.0.0 schema; claude-plugins leaves it alone', async () => {
    const { base, ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit'),
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'Do alpha' }),
    });
    const result = await discoverSkills(ctx);
    const path = join(base, 'kit/skills/alpha/SKILL.md');
    assert.deepEqual(result.skills, [
      {
        name: 'alpha',
        description: 'Do alpha',
        filePath: path,
        baseDir: join(base, 'kit/skills/alpha'),
        hide: false,
        source: {
          id: 'agent-plugins:user',
          provider: 'agent-plugins',
          providerName: 'Agent Plugins',
          level: 'user',
          path,
          plugin: 'kit',
        },
        frontmatter: { name: 'alpha', description: 'Do alpha' },
      },
    ]);
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.collisions, []);
    assert.deepEqual(result.skillRoots, new Map([[path, join(base, 'kit')]]));
  });

  it('rejects another version of the schema or an invalid name, for every provider', async () => {
    for (const [manifest, reason] of [
      [
        JSON.stringify({ $schema: AGENT_SCHEMA.replace('1.0.0', '2.0.0'), name: 'kit' }),
        'unsupported plugin schema version "2.0.0"',
      ],
      [agentManifest('Bad Name'), 'invalid plugin name "Bad Name"'],
      [agentManifest('a--b'), 'invalid plugin name "a--b"'],
      [agentManifest('x'.repeat(65)), `invalid plugin name "${'x'.repeat(65)}"`],
      [JSON.stringify({ $schema: AGENT_SCHEMA }), 'missing plugin name'],
    ] as const) {
      const { base, ctx } = await withKit({
        'kit/plugin.json': manifest,
        'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
      });
      const result = await discoverSkills(ctx);
      assert.deepEqual(result.skills, [], reason);
      assert.deepEqual(messages(result), [
        `[Agent Plugins] [agent-plugins] Rejected plugin at ${join(base, 'kit')}: ${reason}`,
      ]);
    }
  });

  it('leaves a root with a $schema of another kind, or none, to claude-plugins', async () => {
    for (const manifest of [
      JSON.stringify({ $schema: 'https://json.schemastore.org/claude-code-plugin.json', name: 'kit' }),
      JSON.stringify({ name: 'kit' }),
      'not json',
    ]) {
      const { ctx } = await withKit({
        'kit/plugin.json': manifest,
        'kit/skills/alpha/SKILL.md': SK({ name: 'alpha' }),
      });
      const result = await discoverSkills(ctx);
      assert.deepEqual(
        result.skills.map((skill) => [skill.name, skill.source.id]),
        [['alpha', 'claude-plugins:user']],
      );
      assert.deepEqual(result.warnings, []);
    }
  });

  it('reports each unknown manifest field and keeps the plugin', async () => {
    const { ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit', { version: '1.0.0', hooks: {}, commands: [] }),
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => skill.name),
      ['alpha'],
    );
    assert.deepEqual(messages(result), [
      '[Agent Plugins] [agent-plugins] kit: Ignoring unknown plugin.json field "hooks"',
      '[Agent Plugins] [agent-plugins] kit: Ignoring unknown plugin.json field "commands"',
    ]);
  });

  it('takes omp-plugins roots after claude-plugins roots, at their level; a real root once', async () => {
    const { base, ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit'),
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
      'P/.musepi/settings.json': JSON.stringify({ extensions: ['../ext', '../kit-link'] }),
      'kit-link': { symlink: 'kit' },
      'ext/plugin.json': agentManifest('ext'),
      'ext/skills/beta/SKILL.md': SK({ name: 'beta', description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => [
        skill.name,
        skill.source.id,
        skill.source.plugin,
        skill.filePath.slice(base.length + 1),
      ]),
      [
        ['alpha', 'agent-plugins:user', 'kit', 'kit/skills/alpha/SKILL.md'],
        ['beta', 'agent-plugins:project', 'ext', 'ext/skills/beta/SKILL.md'],
      ],
    );
    assert.deepEqual(result.warnings, []);
  });

  it('ranks between claude (80) and claude-plugins (70)', async () => {
    const { base, ctx } = await workspace({});
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({ 'kit@m': [entry(join(base, 'kit'))], 'other@m': [entry(join(base, 'other'))] }),
      'kit/plugin.json': agentManifest('kit'),
      'kit/skills/x/SKILL.md': SK({ name: 'x', description: 'agent plugin' }),
      'kit/skills/y/SKILL.md': SK({ name: 'y', description: 'agent plugin' }),
      'H/.claude/skills/x/SKILL.md': SK({ description: 'claude' }),
      'other/skills/y/SKILL.md': SK({ description: 'claude plugin' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.id]),
      [
        ['x', 'claude:user'],
        ['y', 'agent-plugins:user'],
      ],
    );
    assert.deepEqual(
      result.collisions.map((c) => [c.name, c.shadowed.map((s) => [s.source.id, s.source.plugin, s.reason])]),
      [
        ['x', [['agent-plugins:user', 'kit', 'precedence']]],
        ['y', [['claude-plugins:user', 'other@m', 'precedence']]],
      ],
    );
  });
});

describe('agent-plugins: skills', () => {
  const long = (n: number) => 'd'.repeat(n);
  const CASES: Array<[title: string, dir: string, text: string, reason: string | null]> = [
    [
      'all allowed fields',
      'ok',
      '---\nname: ok\ndescription: Fine\nlicense: MIT\nallowed-tools: Read Bash\nmetadata:\n  author: me\ncompatibility: node 20\n---\nBody\n',
      null,
    ],
    ['malformed YAML', 'bad-yaml', '---\nname: bad-yaml\ndescription: [unclosed\n---\n', 'malformed YAML frontmatter'],
    ['no repair of `a: b` values', 'colon', '---\nname: colon\ndescription: a: b\n---\n', 'malformed YAML frontmatter'],
    ['no frontmatter', 'none', '# Just a body\n', 'no YAML frontmatter'],
    [
      'enabled is not a field',
      'en',
      '---\nname: en\ndescription: x\nenabled: false\n---\n',
      'unknown frontmatter field "enabled"',
    ],
    [
      'hide is not a field',
      'hd',
      '---\nname: hd\ndescription: x\nhide: true\n---\n',
      'unknown frontmatter field "hide"',
    ],
    [
      'keys as written',
      'dmi',
      '---\nname: dmi\ndescription: x\ndisable-model-invocation: true\n---\n',
      'unknown frontmatter field "disable-model-invocation"',
    ],
    ['upper case name', 'up', '---\nname: Up\ndescription: x\n---\n', 'invalid name "Up"'],
    ['double hyphen', 'a--b', '---\nname: a--b\ndescription: x\n---\n', 'invalid name "a--b"'],
    ['trailing hyphen', 'a-', '---\nname: a-\ndescription: x\n---\n', 'invalid name "a-"'],
    [
      '65 characters',
      'n'.repeat(65),
      `---\nname: ${'n'.repeat(65)}\ndescription: x\n---\n`,
      `invalid name "${'n'.repeat(65)}"`,
    ],
    [
      'name differs from the directory',
      'dir',
      '---\nname: other\ndescription: x\n---\n',
      'name "other" does not match its directory',
    ],
    ['missing name', 'anon', '---\ndescription: x\n---\n', 'missing name'],
    ['missing description', 'nodesc', '---\nname: nodesc\n---\n', 'missing description'],
    ['1,024 characters', 'max', `---\nname: max\ndescription: ${long(1024)}\n---\n`, null],
    [
      '1,025 characters',
      'over',
      `---\nname: over\ndescription: ${long(1025)}\n---\n`,
      'description longer than 1024 characters',
    ],
    [
      'compatibility of 501',
      'compat',
      `---\nname: compat\ndescription: x\ncompatibility: ${long(501)}\n---\n`,
      'compatibility is not a string of at most 500 characters',
    ],
    [
      'metadata not a string map',
      'meta',
      '---\nname: meta\ndescription: x\nmetadata:\n  n: 1\n---\n',
      'metadata is not a string map',
    ],
    ['NFKC before the rules', 'full', '---\nname: ｆｕｌｌ\ndescription: x\n---\n', null],
  ];

  it('reads frontmatter strictly: one skip warning per broken rule', async () => {
    const tree: Record<string, TreeEntry> = { 'kit/plugin.json': agentManifest('kit') };
    for (const [, dir, text] of CASES) tree[`kit/skills/${dir}/SKILL.md`] = text;
    const { ctx } = await withKit(tree);
    const result = await discoverSkills(ctx);
    const accepted = CASES.filter(([, , , reason]) => reason === null).map(([, dir]) => dir);
    assert.deepEqual(result.skills.map((skill) => skill.name).sort(), accepted.sort());
    const sortedDirs = CASES.filter(([, , , reason]) => reason !== null).sort(([, a], [, b]) => (a < b ? -1 : 1));
    assert.deepEqual(
      messages(result),
      sortedDirs.map(([, dir, , reason]) => `[Agent Plugins] [agent-plugins] kit: Skipping skill "${dir}": ${reason}`),
    );
    const ok = result.skills.find((skill) => skill.name === 'ok');
    assert.deepEqual(ok?.frontmatter, {
      name: 'ok',
      description: 'Fine',
      license: 'MIT',
      'allowed-tools': 'Read Bash',
      metadata: { author: 'me' },
      compatibility: 'node 20',
    });
  });

  it('keeps every SKILL.md inside the realpath of the root; filePath is the realpath', async () => {
    const { base, ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit'),
      'kit/skills/evil': { symlink: '../../outside/evil' },
      'outside/evil/SKILL.md': SK({ name: 'evil', description: 'x' }),
      'kit/skills/file-link/SKILL.md': { symlink: '../../../outside/evil/SKILL.md' },
      'kit/skills/inner': { symlink: '../lib/inner' },
      'kit/lib/inner/SKILL.md': SK({ name: 'inner', description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => [
        skill.name,
        skill.filePath.slice(base.length + 1),
        skill.baseDir.slice(base.length + 1),
      ]),
      [['inner', 'kit/lib/inner/SKILL.md', 'kit/lib/inner']],
    );
    assert.deepEqual(messages(result), [
      '[Agent Plugins] [agent-plugins] kit: Skipping skill "evil": SKILL.md resolves outside the plugin root',
      '[Agent Plugins] [agent-plugins] kit: Skipping skill "file-link": SKILL.md resolves outside the plugin root',
    ]);
  });

  it("is not a provider of xcsh: there the root is claude-plugins'", async () => {
    const { ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit'),
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
    });
    const result = await discoverSkills({ ...ctx, settings: { ...ctx.settings, profile: 'xcsh' } });
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.id]),
      [['kit:alpha', 'claude-plugins:user']],
    );
  });
});
