// agent-plugins (docs/plugins.md, "Agent Plugins"): which roots are Agent Plugins, rejected roots, unknown manifest fields, strict
// frontmatter (table), realpath containment, levels from either registry, ranking.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
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

  // The manifest checks in their order, each case failing exactly one (docs/plugins.md, "Agent Plugins").
  const V2 = AGENT_SCHEMA.replace('1.0.0', '2.0.0');
  const MCP = AGENT_SCHEMA.replace('plugin.schema.json', 'mcp.schema.json');
  const REJECTIONS: Array<[label: string, manifest: string, reason: string]> = [
    [
      'another version',
      JSON.stringify({ $schema: V2, name: 'kit' }),
      `unsupported Agent Plugins version ($schema: ${V2})`,
    ],
    [
      'another schema of 1.0.0',
      JSON.stringify({ $schema: MCP, name: 'kit' }),
      `unsupported Agent Plugins version ($schema: ${MCP})`,
    ],
    [
      'any other text under the prefix',
      JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/latest', name: 'kit' }),
      'unsupported Agent Plugins version ($schema: https://agent-plugins.org/schemas/latest)',
    ],
    ['a name with a space', agentManifest('Bad Name'), 'invalid plugin name "Bad Name"'],
    ['a doubled hyphen', agentManifest('a--b'), 'invalid plugin name "a--b"'],
    ['a doubled dot', agentManifest('a..b'), 'invalid plugin name "a..b"'],
    ['65 characters', agentManifest('x'.repeat(65)), `invalid plugin name "${'x'.repeat(65)}"`],
    ['a missing name', JSON.stringify({ $schema: AGENT_SCHEMA }), 'invalid plugin name undefined'],
    ['a name that is not a string', JSON.stringify({ $schema: AGENT_SCHEMA, name: 5 }), 'invalid plugin name 5'],
    ['unknown fields are dropped with a rejection', agentManifest('Bad', { hooks: {} }), 'invalid plugin name "Bad"'],
    ['a version that is not a string', agentManifest('kit', { version: 1 }), '"version" must be a string'],
    [
      'the first of the string fields, in their order',
      agentManifest('kit', { license: 1, homepage: 2, description: 3 }),
      '"description" must be a string',
    ],
    ['a repository that is not a string', agentManifest('kit', { repository: {} }), '"repository" must be a string'],
    ['keywords that are not a list', agentManifest('kit', { keywords: 'x' }), '"keywords" must be an array of strings'],
    [
      'keywords that are not strings',
      agentManifest('kit', { keywords: ['a', 1] }),
      '"keywords" must be an array of strings',
    ],
    ['an author list', agentManifest('kit', { author: ['me'] }), '"author" must be an object'],
    ['an author string', agentManifest('kit', { author: 'me' }), '"author" must be an object'],
    [
      'an unknown author field',
      agentManifest('kit', { author: { name: 'me', twitter: '@me', email: 1 } }),
      'unknown "author" field "twitter"',
    ],
    [
      'an author field that is not a string',
      agentManifest('kit', { author: { email: 1 } }),
      '"author.email" must be a string',
    ],
  ];
  for (const [label, manifest, reason] of REJECTIONS) {
    it(`rejects ${label}, for every provider`, async () => {
      const { base, ctx } = await withKit({
        'kit/plugin.json': manifest,
        'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
      });
      const result = await discoverSkills(ctx);
      assert.deepEqual(result.skills, []);
      assert.deepEqual(messages(result), [
        `[Agent Plugins] [agent-plugins] Rejected plugin at ${join(base, 'kit')}: ${reason}`,
      ]);
    });
  }

  it('rejects a plugin.json that resolves outside the root, before reading it', async () => {
    const { base, ctx } = await withKit({
      'kit/plugin.json': { symlink: '../elsewhere/plugin.json' },
      'elsewhere/plugin.json': 'not even JSON',
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(result.skills, []);
    assert.deepEqual(messages(result), [
      `[Agent Plugins] [agent-plugins] Rejected plugin at ${join(base, 'kit')}: plugin.json resolves outside the plugin root`,
    ]);
  });

  it('warns of a non-object "extensions" after the unknown fields, and keeps the plugin', async () => {
    const { ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit', { extensions: 'x', displayName: 'Kit', hooks: {} }),
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => skill.name),
      ['alpha'],
    );
    assert.deepEqual(messages(result), [
      '[Agent Plugins] [agent-plugins] kit: Ignoring unknown plugin.json field "displayName"',
      '[Agent Plugins] [agent-plugins] kit: Ignoring unknown plugin.json field "hooks"',
      '[Agent Plugins] [agent-plugins] kit: Ignoring non-object "extensions" field',
    ]);
  });

  it('accepts every field of the manifest in its right shape', async () => {
    const { ctx } = await withKit({
      'kit/plugin.json': agentManifest('kit.tools-2', {
        version: '1.0.0',
        description: 'd',
        author: { name: 'me', email: 'me@example.com', url: 'https://example.com' },
        homepage: 'https://example.com',
        repository: 'https://example.com/r',
        license: 'MIT',
        keywords: ['a', 'b'],
        extensions: {},
      }),
      'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.plugin]),
      [['alpha', 'kit.tools-2']],
    );
    assert.deepEqual(result.warnings, []);
  });

  it('reports each plugin in root order, its manifest warnings before its skills', async () => {
    const made = await workspace({});
    const { base, ctx } = made;
    await writeTree(base, {
      [CLAUDE_REGISTRY]: registry({
        'one@m': [entry(join(base, 'one'))],
        'two@m': [entry(join(base, 'two'))],
        'three@m': [entry(join(base, 'three'))],
      }),
      'one/plugin.json': agentManifest('one', { hooks: {} }),
      'one/skills/bad/SKILL.md': '---\nname: bad\n---\n',
      'two/plugin.json': agentManifest('Two'),
      'three/plugin.json': agentManifest('three', { commands: [] }),
      'three/skills/worse/SKILL.md': '---\ndescription: x\n---\n',
    });
    const result = await discoverSkills(ctx);
    assert.deepEqual(messages(result), [
      '[Agent Plugins] [agent-plugins] one: Ignoring unknown plugin.json field "hooks"',
      '[Agent Plugins] [agent-plugins] one: Skipping skill "bad": missing required "description"',
      `[Agent Plugins] [agent-plugins] Rejected plugin at ${join(base, 'two')}: invalid plugin name "Two"`,
      '[Agent Plugins] [agent-plugins] three: Ignoring unknown plugin.json field "commands"',
      '[Agent Plugins] [agent-plugins] three: Skipping skill "worse": missing required "name"',
    ]);
  });

  it('leaves a root with a $schema of another kind, or none, to claude-plugins', async () => {
    for (const manifest of [
      JSON.stringify({ $schema: 'https://json.schemastore.org/claude-code-plugin.json', name: 'kit' }),
      JSON.stringify({ name: 'kit' }),
      JSON.stringify({
        $schema: 'https://example.com/agent-plugins.org/schemas/1.0.0/plugin.schema.json',
        name: 'kit',
      }),
      JSON.stringify({ $schema: 7, name: 'kit' }),
      JSON.stringify([AGENT_SCHEMA]),
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
    ['no frontmatter: an empty one', 'none', '# Just a body\n', 'missing required "name"'],
    [
      'enabled is not a field',
      'en',
      '---\nname: en\ndescription: x\nenabled: false\n---\n',
      'unexpected frontmatter field "enabled"',
    ],
    [
      'hide is not a field',
      'hd',
      '---\nname: hd\ndescription: x\nhide: true\n---\n',
      'unexpected frontmatter field "hide"',
    ],
    [
      'keys as written',
      'dmi',
      '---\nname: dmi\ndescription: x\ndisable-model-invocation: true\n---\n',
      'unexpected frontmatter field "disable-model-invocation"',
    ],
    [
      'an unexpected field comes before every name check',
      'first',
      '---\nname: Not Valid\nzeta: 1\nalpha: 2\n---\n',
      'unexpected frontmatter field "zeta"',
    ],
    ['upper case name', 'up', '---\nname: Up\ndescription: x\n---\n', '"name" must be lowercase'],
    ['double hyphen', 'a--b', '---\nname: a--b\ndescription: x\n---\n', '"name" cannot contain consecutive hyphens'],
    ['trailing hyphen', 'a-', '---\nname: a-\ndescription: x\n---\n', '"name" cannot start or end with a hyphen'],
    ['leading hyphen', 'lead', '---\nname: -lead\ndescription: x\n---\n', '"name" cannot start or end with a hyphen'],
    [
      '65 characters',
      'n'.repeat(65),
      `---\nname: ${'n'.repeat(65)}\ndescription: x\n---\n`,
      '"name" exceeds 64 characters',
    ],
    [
      '65 code points outside the BMP',
      'wide',
      `---\nname: ${'\u{20000}'.repeat(65)}\ndescription: x\n---\n`,
      '"name" exceeds 64 characters',
    ],
    [
      '60 code points outside the BMP (120 UTF-16 units)',
      '\u{20000}'.repeat(60),
      `---\nname: ${'\u{20000}'.repeat(60)}\ndescription: x\n---\n`,
      null,
    ],
    ['an underscore', 'a_b', '---\nname: a_b\ndescription: x\n---\n', 'invalid "name" "a_b"'],
    ['Unicode letters', 'café-tools', '---\nname: café-tools\ndescription: x\n---\n', null],
    ['a name trimmed first', 'spaced', '---\nname: "  spaced  "\ndescription: x\n---\n', null],
    [
      'name differs from the directory',
      'mismatch',
      '---\nname: other\ndescription: x\n---\n',
      '"name" "other" does not match directory "mismatch"',
    ],
    ['missing name', 'anon', '---\ndescription: x\n---\n', 'missing required "name"'],
    ['a blank name', 'blank', '---\nname: "   "\ndescription: x\n---\n', 'missing required "name"'],
    ['a name that is not a string', 'num', '---\nname: 5\ndescription: x\n---\n', 'missing required "name"'],
    ['missing description', 'nodesc', '---\nname: nodesc\n---\n', 'missing required "description"'],
    [
      'a blank description',
      'blankdesc',
      '---\nname: blankdesc\ndescription: "  "\n---\n',
      'missing required "description"',
    ],
    ['1,024 characters', 'max', `---\nname: max\ndescription: ${long(1024)}\n---\n`, null],
    [
      '1,025 characters',
      'over',
      `---\nname: over\ndescription: ${long(1025)}\n---\n`,
      '"description" exceeds 1024 characters',
    ],
    [
      '1,025 characters counted untrimmed',
      'padded',
      `---\nname: padded\ndescription: "${' '.repeat(1000)}${long(25)}"\n---\n`,
      '"description" exceeds 1024 characters',
    ],
    [
      'a license that is not a string',
      'lic',
      '---\nname: lic\ndescription: x\nlicense: 5\n---\n',
      '"license" must be a string',
    ],
    [
      'compatibility that is not a string',
      'compat-type',
      '---\nname: compat-type\ndescription: x\ncompatibility: [a]\n---\n',
      '"compatibility" must be a string',
    ],
    [
      'compatibility of 501',
      'compat',
      `---\nname: compat\ndescription: x\ncompatibility: ${long(501)}\n---\n`,
      '"compatibility" exceeds 500 characters',
    ],
    [
      'metadata that is not a map',
      'meta-list',
      '---\nname: meta-list\ndescription: x\nmetadata: [a]\n---\n',
      '"metadata" must be a map of string keys to string values',
    ],
    [
      'the first metadata value that is not a string',
      'meta',
      '---\nname: meta\ndescription: x\nmetadata:\n  a: ok\n  n: 1\n  m: 2\n---\n',
      '"metadata.n" must be a string',
    ],
    [
      'allowed-tools that is not a string',
      'tools',
      '---\nname: tools\ndescription: x\nallowed-tools: [Read]\n---\n',
      '"allowed-tools" must be a string',
    ],
    [
      'the order: description before license, compatibility, metadata and allowed-tools',
      'order',
      '---\nname: order\nallowed-tools: [x]\nmetadata: [x]\ncompatibility: 1\nlicense: 1\n---\n',
      'missing required "description"',
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

  const FOLDERS: Array<[label: string, tree: Record<string, TreeEntry>, warnings: string[]]> = [
    [
      'a skills/ that resolves outside the root',
      {
        'kit/skills': { symlink: '../elsewhere' },
        'elsewhere/alpha/SKILL.md': SK({ name: 'alpha', description: 'x' }),
      },
      ['[Agent Plugins] [agent-plugins] kit: skills/ resolves outside the plugin root'],
    ],
    [
      'a skills/ that is a file',
      { 'kit/skills': 'not a directory' },
      ['[Agent Plugins] [agent-plugins] kit: skills/ does not resolve to a directory'],
    ],
    ['no skills/ at all', {}, []],
  ];
  for (const [label, tree, warnings] of FOLDERS) {
    it(`reports ${label} after the manifest's warnings`, async () => {
      const { ctx } = await withKit({ 'kit/plugin.json': agentManifest('kit', { hooks: {} }), ...tree });
      const result = await discoverSkills(ctx);
      assert.deepEqual(result.skills, []);
      assert.deepEqual(messages(result), [
        '[Agent Plugins] [agent-plugins] kit: Ignoring unknown plugin.json field "hooks"',
        ...warnings,
      ]);
    });
  }

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
