import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { fallbackGate, isSourceEnabled, planProviders } from '../../../src/discovery/pipeline/providers.js';
import { defaultSettings } from '../../../src/discovery/settings.js';
import type { DiscoveryEnv, Level, Profile, Skill, SkillsSettings } from '../../../src/discovery/types.js';
import { resolveWorkspaceContext } from '../../../src/discovery/workspace-context.js';
import { makeTempDir, SK, writeTree } from '../../helpers/temp-tree.js';

/** One expected skills directory: path relative to the temp root, provider id, display name, level. */
type Row = [dir: string, provider: string, providerName: string, level: Level];

function musepiFamilyRows(cfg: string, native: string, managed: string, walk: string[], home: string): Row[] {
  const projectWalk = walk.filter((d) => d !== home);
  return [
    ...walk.map((d): Row => [`${d}/${cfg}/skills`, 'native', native, 'project']),
    [`${home}/${cfg}/agent/skills`, 'native', native, 'user'],
    [`${home}/.claude/skills`, 'claude', 'Claude Code', 'user'],
    ...projectWalk.map((d): Row => [`${d}/.claude/skills`, 'claude', 'Claude Code', 'project']),
    ...projectWalk.flatMap((d): Row[] => [
      [`${d}/.agent/skills`, 'agents', 'Agent Dirs (.agent/.agents)', 'project'],
      [`${d}/.agents/skills`, 'agents', 'Agent Dirs (.agent/.agents)', 'project'],
    ]),
    [`${home}/.agent/skills`, 'agents', 'Agent Dirs (.agent/.agents)', 'user'],
    [`${home}/.agents/skills`, 'agents', 'Agent Dirs (.agent/.agents)', 'user'],
    [`${home}/.codex/skills`, 'codex', 'OpenAI Codex', 'user'],
    [`${walk[0]}/.codex/skills`, 'codex', 'OpenAI Codex', 'project'],
    [`${home}/.config/opencode/skills`, 'opencode', 'OpenCode', 'user'],
    [`${walk[0]}/.opencode/skills`, 'opencode', 'OpenCode', 'project'],
    [`${walk[0]}/.github/skills`, 'github', 'GitHub Copilot', 'project'],
    [`${home}/${cfg}/agent/managed-skills`, managed, 'Managed Skills (auto-learn)', 'user'],
  ];
}

/** xcsh: no github, no managed, claude and agents walks keep HOME, agents named `Agents (standard)`. */
function xcshRows(walk: string[], home: string): Row[] {
  return [
    ...walk.map((d): Row => [`${d}/.xcsh/skills`, 'native', 'OMP', 'project']),
    [`${home}/.xcsh/agent/skills`, 'native', 'OMP', 'user'],
    [`${home}/.claude/skills`, 'claude', 'Claude Code', 'user'],
    ...walk.map((d): Row => [`${d}/.claude/skills`, 'claude', 'Claude Code', 'project']),
    ...walk.flatMap((d): Row[] => [
      [`${d}/.agent/skills`, 'agents', 'Agents (standard)', 'project'],
      [`${d}/.agents/skills`, 'agents', 'Agents (standard)', 'project'],
    ]),
    [`${home}/.agent/skills`, 'agents', 'Agents (standard)', 'user'],
    [`${home}/.agents/skills`, 'agents', 'Agents (standard)', 'user'],
    [`${home}/.codex/skills`, 'codex', 'OpenAI Codex', 'user'],
    [`${walk[0]}/.codex/skills`, 'codex', 'OpenAI Codex', 'project'],
    [`${home}/.config/opencode/skills`, 'opencode', 'OpenCode', 'user'],
    [`${walk[0]}/.opencode/skills`, 'opencode', 'OpenCode', 'project'],
  ];
}

function rowsFor(profile: Profile, walk: string[], home: string): Row[] {
  if (profile === 'musepi') return musepiFamilyRows('.musepi', 'MusePi', 'musepi-managed', walk, home);
  if (profile === 'omp') return musepiFamilyRows('.omp', 'OMP', 'omp-managed', walk, home);
  return xcshRows(walk, home);
}

/** The first row of each distinct directory: where a skill placed there is reported from. */
function distinctRows(rows: Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter(([dir]) => !seen.has(dir) && seen.add(dir) !== undefined);
}

function skillName(dir: string): string {
  return `s-${dir.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`.slice(0, 64).replace(/-+$/, '');
}

const PROFILES: Profile[] = ['musepi', 'omp', 'xcsh'];

interface Scenario {
  title: string;
  home: string;
  cwd: string;
  walk: string[];
  repo: string | null;
}

describe('providers: every directory of every profile (docs/discovery.md §4)', () => {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
  });
  after(() => cleanup());

  const scenarios = (): Scenario[] => [
    {
      title: 'repository under HOME (walk stops at REPO, HOME not reached)',
      home: 'h1',
      cwd: 'h1/proj/sub',
      walk: ['h1/proj/sub', 'h1/proj'],
      repo: 'h1/proj',
    },
    {
      title: 'no repository, CWD under HOME (walk includes HOME)',
      home: 'h2',
      cwd: 'h2/plain/sub',
      walk: ['h2/plain/sub', 'h2/plain', 'h2'],
      repo: null,
    },
    {
      title: 'REPO marked by a .git file',
      home: 'h3',
      cwd: 'h3/wt/a',
      walk: ['h3/wt/a', 'h3/wt'],
      repo: 'h3/wt',
    },
  ];

  for (const profile of PROFILES) {
    for (const scenario of scenarios()) {
      it(`${profile}: ${scenario.title}`, async () => {
        const base = join(root, profile);
        const rows = rowsFor(profile, scenario.walk, scenario.home);
        const tree: Record<string, string | { dir: true }> = { [`${scenario.cwd}/.keep`]: '' };
        if (scenario.repo === 'h3/wt') tree['h3/wt/.git'] = 'gitdir: /nowhere\n';
        else if (scenario.repo !== null) tree[`${scenario.repo}/.git`] = { dir: true };
        for (const [dir] of distinctRows(rows)) {
          const name = skillName(dir);
          tree[`${dir}/${name}/SKILL.md`] = SK({ name, description: `in ${dir}` });
        }
        await writeTree(base, tree);
        const settings = { ...defaultSettings(), profile };
        const result = await discoverSkills({
          home: join(base, scenario.home),
          cwd: join(base, scenario.cwd),
          env: {},
          settings,
        });
        assert.deepEqual(result.warnings, []);
        assert.equal(result.repoRoot, scenario.repo === null ? null : join(base, scenario.repo));
        assert.deepEqual(
          result.scannedDirs,
          distinctRows(rows).map(([dir]) => join(base, dir)),
        );
        const expected = distinctRows(rows).map(([dir, provider, providerName, level]) =>
          expectedSkill(join(base, dir), skillName(dir), `in ${dir}`, provider, providerName, level),
        );
        assert.deepEqual(
          result.skills.map(withoutFrontmatter),
          expected.sort((a, b) => (a.name < b.name ? -1 : 1)),
        );
      });
    }
  }

  it('a CWD outside HOME without a repository walks to the filesystem root', async () => {
    const base = join(root, 'outside');
    await writeTree(base, {
      'home/.keep': '',
      'work/a/b/.keep': '',
      'work/.claude/skills/up/SKILL.md': SK({ description: 'ancestor' }),
      'work/.musepi/skills/native-up/SKILL.md': SK({ description: 'ancestor' }),
      'work/a/b/.agents/skills/here/SKILL.md': SK({ description: 'cwd' }),
    });
    const cwd = join(base, 'work/a/b');
    const result = await discoverSkills({ home: join(base, 'home'), cwd, env: {}, settings: defaultSettings() });
    assert.equal(result.repoRoot, null);
    assert.deepEqual(
      result.skills.map((s) => [s.name, s.source.id, s.filePath]),
      [
        ['here', 'agents:project', join(cwd, '.agents/skills/here/SKILL.md')],
        ['native-up', 'native:project', join(base, 'work/.musepi/skills/native-up/SKILL.md')],
        ['up', 'claude:project', join(base, 'work/.claude/skills/up/SKILL.md')],
      ],
    );
    assert.ok(result.scannedDirs.includes('/.musepi/skills'), 'the walk reaches /');
    assert.ok(result.scannedDirs.includes('/.claude/skills'));
  });

  it('PI_CODING_AGENT_DIR moves the native user and managed directories', async () => {
    const base = join(root, 'agent-dir');
    await writeTree(base, {
      'home/.musepi/agent/skills/old/SKILL.md': SK({ description: 'default agent dir' }),
      'home/.musepi/agent/managed-skills/old-managed/SKILL.md': SK({ description: 'default agent dir' }),
      'agent/skills/moved/SKILL.md': SK({ description: 'moved' }),
      'agent/managed-skills/moved-managed/SKILL.md': SK({ description: 'moved' }),
      'proj/.git/HEAD': '',
    });
    const env: DiscoveryEnv = { PI_CODING_AGENT_DIR: join(base, 'agent') };
    const result = await discoverSkills({
      home: join(base, 'home'),
      cwd: join(base, 'proj'),
      env,
      settings: defaultSettings(),
    });
    assert.deepEqual(
      result.skills.map((s) => [s.name, s.source.id, s.filePath]),
      [
        ['moved', 'native:user', join(base, 'agent/skills/moved/SKILL.md')],
        ['moved-managed', 'musepi-managed:user', join(base, 'agent/managed-skills/moved-managed/SKILL.md')],
      ],
    );
  });

  it('CLAUDE_CONFIG_DIR moves the claude user directory', async () => {
    const base = join(root, 'claude-dir');
    await writeTree(base, {
      'home/.claude/skills/old/SKILL.md': SK({ description: 'default claude dir' }),
      'claude-config/skills/moved/SKILL.md': SK({ description: 'moved' }),
      'proj/.git/HEAD': '',
    });
    const env: DiscoveryEnv = { CLAUDE_CONFIG_DIR: join(base, 'claude-config') };
    const result = await discoverSkills({
      home: join(base, 'home'),
      cwd: join(base, 'proj'),
      env,
      settings: defaultSettings(),
    });
    assert.deepEqual(
      result.skills.map((s) => [s.name, s.source.id, s.source.providerName, s.filePath]),
      [['moved', 'claude:user', 'Claude Code', join(base, 'claude-config/skills/moved/SKILL.md')]],
    );
    assert.equal(result.scannedDirs.includes(join(base, 'home/.claude/skills')), false);
  });
});

describe('providers: order inside each provider (docs/discovery.md §4 "order inside")', () => {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
  });
  after(() => cleanup());

  // The same name in every directory of one provider: the first directory of the documented order wins and the others
  // are shadowed in that order. Walk: CWD = h/p/sub, REPO = h/p.
  const cases: Array<[string, string[]]> = [
    [
      'native: project closest first, then user',
      ['h/p/sub/.musepi/skills', 'h/p/.musepi/skills', 'h/.musepi/agent/skills'],
    ],
    [
      'claude: user first, then project closest first',
      ['h/.claude/skills', 'h/p/sub/.claude/skills', 'h/p/.claude/skills'],
    ],
    [
      'agents: project closest first, .agent before .agents, then user',
      [
        'h/p/sub/.agent/skills',
        'h/p/sub/.agents/skills',
        'h/p/.agent/skills',
        'h/p/.agents/skills',
        'h/.agent/skills',
        'h/.agents/skills',
      ],
    ],
    ['codex: user, then project', ['h/.codex/skills', 'h/p/sub/.codex/skills']],
    ['opencode: user, then project', ['h/.config/opencode/skills', 'h/p/sub/.opencode/skills']],
  ];
  cases.forEach(([title, dirs], index) => {
    it(title, async () => {
      const base = join(root, String(index));
      const tree: Record<string, string> = { 'h/p/.git/HEAD': '', 'h/p/sub/.keep': '' };
      for (const dir of dirs) tree[`${dir}/same/SKILL.md`] = SK({ description: dir });
      await writeTree(base, tree);
      const result = await discoverSkills({
        home: join(base, 'h'),
        cwd: join(base, 'h/p/sub'),
        env: {},
        settings: defaultSettings(),
      });
      assert.deepEqual(
        result.skills.map((s) => [s.name, s.filePath, s.description]),
        [['same', join(base, dirs[0] ?? '', 'same/SKILL.md'), dirs[0]]],
      );
      assert.deepEqual(
        result.collisions.flatMap((c) => c.shadowed.map((s) => [c.name, s.filePath, s.reason])),
        dirs.slice(1).map((dir) => ['same', join(base, dir, 'same/SKILL.md'), 'precedence']),
      );
    });
  });
});

describe('provider plan', () => {
  it('lists the providers of each profile in priority order, reserved slots included', async () => {
    const expected: Record<Profile, Array<[string, number]>> = {
      musepi: [
        ['native', 100],
        ['omp-plugins', 90],
        ['claude', 80],
        ['agent-plugins', 75],
        ['claude-plugins', 70],
        ['agents', 70],
        ['codex', 70],
        ['opencode', 55],
        ['github', 30],
        ['musepi-managed', 5],
      ],
      omp: [
        ['native', 100],
        ['omp-plugins', 90],
        ['claude', 80],
        ['agent-plugins', 75],
        ['claude-plugins', 70],
        ['agents', 70],
        ['codex', 70],
        ['opencode', 55],
        ['github', 30],
        ['omp-managed', 5],
      ],
      xcsh: [
        ['native', 100],
        ['claude', 80],
        ['claude-plugins', 70],
        ['agents', 70],
        ['codex', 70],
        ['opencode', 55],
      ],
    };
    for (const profile of PROFILES) {
      const settings = { ...defaultSettings(), profile };
      const ws = await resolveWorkspaceContext({ home: '/nonexistent-h', cwd: '/nonexistent-h/w', env: {}, settings });
      const plans = planProviders(ws);
      assert.deepEqual(
        plans.map((p) => [p.id, p.priority]),
        expected[profile],
        profile,
      );
      for (const id of ['omp-plugins', 'agent-plugins', 'claude-plugins']) {
        const plan = plans.find((p) => p.id === id);
        if (plan !== undefined) assert.deepEqual(plan.dirs, [], `${id} is reserved`);
      }
    }
  });

  it('gives each provider its display name and description requirement', async () => {
    const ws = await resolveWorkspaceContext({
      home: '/nonexistent-h',
      cwd: '/nonexistent-h/w',
      env: {},
      settings: defaultSettings(),
    });
    assert.deepEqual(
      planProviders(ws).map((p) => [p.id, p.displayName, p.requireDescription]),
      [
        ['native', 'MusePi', true],
        ['omp-plugins', 'OMP Extension Packages', true],
        ['claude', 'Claude Code', false],
        ['agent-plugins', 'Agent Plugins', true],
        ['claude-plugins', 'Claude Code Marketplace', false],
        ['agents', 'Agent Dirs (.agent/.agents)', false],
        ['codex', 'OpenAI Codex', false],
        ['opencode', 'OpenCode', false],
        ['github', 'GitHub Copilot', true],
        ['musepi-managed', 'Managed Skills (auto-learn)', true],
      ],
    );
  });
});

describe('source toggles and the fallback gate (docs/discovery.md §4)', () => {
  const off = (...keys: Array<keyof SkillsSettings>): SkillsSettings => {
    const skills = defaultSettings().skills;
    for (const key of keys) (skills as unknown as Record<string, boolean>)[key] = false;
    return skills;
  };
  const gateKeys: Array<keyof SkillsSettings> = [
    'enableCodexUser',
    'enableClaudeUser',
    'enableClaudeProject',
    'enablePiUser',
    'enablePiProject',
  ];

  it('the gate is on while any of the five toggles is on, whatever the agents toggles say', () => {
    assert.equal(fallbackGate(off()), true);
    for (const key of gateKeys) {
      assert.equal(fallbackGate(off(...gateKeys.filter((k) => k !== key))), true, `only ${key} on`);
    }
    assert.equal(fallbackGate(off(...gateKeys)), false);
    assert.equal(fallbackGate(off('enableAgentsUser', 'enableAgentsProject')), true);
  });

  const table: Array<[string, Level, keyof SkillsSettings | 'gate' | 'always']> = [
    ['native', 'project', 'enablePiProject'],
    ['native', 'user', 'enablePiUser'],
    ['claude', 'user', 'enableClaudeUser'],
    ['claude', 'project', 'enableClaudeProject'],
    ['agents', 'user', 'enableAgentsUser'],
    ['agents', 'project', 'enableAgentsProject'],
    ['codex', 'user', 'enableCodexUser'],
    ['codex', 'project', 'gate'],
    ['opencode', 'user', 'gate'],
    ['opencode', 'project', 'gate'],
    ['github', 'project', 'gate'],
    ['claude-plugins', 'user', 'gate'],
    ['omp-plugins', 'user', 'gate'],
    ['agent-plugins', 'project', 'gate'],
    ['musepi-managed', 'user', 'always'],
    ['omp-managed', 'user', 'always'],
    ['custom', 'user', 'always'],
  ];
  for (const [provider, level, toggle] of table) {
    it(`${provider}:${level} follows ${toggle}`, () => {
      assert.equal(isSourceEnabled('musepi', provider, level, off()), true);
      if (toggle === 'always') {
        assert.equal(isSourceEnabled('musepi', provider, level, off(...gateKeys, 'enableAgentsUser')), true);
      } else if (toggle === 'gate') {
        assert.equal(isSourceEnabled('musepi', provider, level, off(...gateKeys)), false);
        assert.equal(isSourceEnabled('musepi', provider, level, off(...gateKeys.slice(1))), true);
      } else {
        assert.equal(isSourceEnabled('musepi', provider, level, off(toggle)), false);
        const others = [...gateKeys, 'enableAgentsUser', 'enableAgentsProject'] as Array<keyof SkillsSettings>;
        assert.equal(isSourceEnabled('musepi', provider, level, off(...others.filter((k) => k !== toggle))), true);
      }
    });
  }

  it('xcsh: agents follow the fallback gate, not the agents toggles', () => {
    for (const level of ['user', 'project'] as const) {
      assert.equal(isSourceEnabled('xcsh', 'agents', level, off('enableAgentsUser', 'enableAgentsProject')), true);
      assert.equal(isSourceEnabled('xcsh', 'agents', level, off(...gateKeys)), false);
    }
  });
});

function expectedSkill(
  dir: string,
  name: string,
  description: string,
  provider: string,
  providerName: string,
  level: Level,
): Omit<Skill, 'frontmatter'> {
  const filePath = join(dir, name, 'SKILL.md');
  return {
    name,
    description,
    filePath,
    baseDir: join(dir, name),
    hide: false,
    source: { id: `${provider}:${level}`, provider, providerName, level, path: filePath },
  };
}

function withoutFrontmatter(skill: Skill): Omit<Skill, 'frontmatter'> {
  const { frontmatter: _frontmatter, ...rest } = skill;
  return rest;
}
