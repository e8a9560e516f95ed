// The pipeline of docs/discovery.md §5, rule by rule. Each test builds its own HOME `H` and project `P` (P/.git, CWD = P).

import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { createSkillFileCache } from '../../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../../src/discovery/settings.js';
import type { DiscoveryEnv, DiscoveryResult, Settings, SkillsSettings } from '../../../src/discovery/types.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../../helpers/temp-tree.js';

let root = '';
let cleanup: () => Promise<void> = async () => {};
let counter = 0;

interface Run {
  base: string;
  H: string;
  P: string;
  result: DiscoveryResult;
}

async function discover(
  tree: Record<string, TreeEntry>,
  configure: (settings: Settings, base: string) => void = () => {},
  env: DiscoveryEnv = {},
): Promise<Run> {
  const base = join(root, String(counter++));
  await writeTree(base, { 'H/.keep': '', 'P/.git/HEAD': '', ...tree });
  const settings = defaultSettings();
  configure(settings, base);
  const H = join(base, 'H');
  const P = join(base, 'P');
  const result = await discoverSkills({ home: H, cwd: P, env, settings });
  return { base, H, P, result };
}

/** `[filePath, baseDir, source.path]` of a skill in `dir`, all absolute. */
function inside(dir: string): [string, string, string] {
  return [join(dir, 'SKILL.md'), dir, join(dir, 'SKILL.md')];
}

/** `[name, source id, filePath relative to base]` of every skill. */
function loaded(run: Run): string[][] {
  return run.result.skills.map((s) => [s.name, s.source.id, s.filePath.slice(run.base.length + 1)]);
}

function names(run: Run): string[] {
  return run.result.skills.map((s) => s.name);
}

/** The exact text the scan gives for an unreadable directory (docs/discovery.md §3 step 1). */
async function readFailure(dir: string): Promise<string> {
  const error = await readdir(dir).then(
    () => new Error('expected readdir to fail'),
    (e: unknown) => e,
  );
  return `Failed to read skills directory: ${dir} (${String(error)})`;
}

/** One skill in every toggled source, plus the fallback-gated ones. */
const ALL_SOURCES: Record<string, TreeEntry> = {
  'P/.musepi/skills/pi-project/SKILL.md': SK({ description: 'd' }),
  'H/.musepi/agent/skills/pi-user/SKILL.md': SK({ description: 'd' }),
  'H/.claude/skills/claude-user/SKILL.md': SK({ description: 'd' }),
  'P/.claude/skills/claude-project/SKILL.md': SK({ description: 'd' }),
  'H/.agents/skills/agents-user/SKILL.md': SK({ description: 'd' }),
  'P/.agent/skills/agents-project/SKILL.md': SK({ description: 'd' }),
  'H/.codex/skills/codex-user/SKILL.md': SK({ description: 'd' }),
  'P/.codex/skills/codex-project/SKILL.md': SK({ description: 'd' }),
  'H/.config/opencode/skills/opencode-user/SKILL.md': SK({ description: 'd' }),
  'P/.opencode/skills/opencode-project/SKILL.md': SK({ description: 'd' }),
  'P/.github/skills/github-project/SKILL.md': SK({ description: 'd' }),
  'H/.musepi/agent/managed-skills/managed-user/SKILL.md': SK({ description: 'd' }),
};
const ALL_NAMES = [
  'agents-project',
  'agents-user',
  'claude-project',
  'claude-user',
  'codex-project',
  'codex-user',
  'github-project',
  'managed-user',
  'opencode-project',
  'opencode-user',
  'pi-project',
  'pi-user',
];
const GATED = ['codex-project', 'github-project', 'opencode-project', 'opencode-user'];

function turnOff(...keys: Array<keyof SkillsSettings>) {
  return (settings: Settings) => {
    for (const key of keys) (settings.skills as unknown as Record<string, boolean>)[key] = false;
  };
}

describe('discoverSkills (docs/discovery.md §5)', () => {
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
  });
  after(() => cleanup());

  describe('step 0: skills.enabled === false', () => {
    it('returns an empty result without touching the file system', async () => {
      const base = join(root, 'disabled');
      // Everything here would give a skill or a warning if it were read.
      await writeTree(base, {
        'P/.git/HEAD': '',
        'P/.musepi/skills/x/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills': 'a file where a directory is expected',
        'custom-file': 'not a directory',
      });
      const settings = defaultSettings();
      settings.skills.enabled = false;
      settings.skills.customDirectories = [join(base, 'custom-file')];
      const result = await discoverSkills({
        home: join(base, 'no-such-home'),
        cwd: join(base, 'P'),
        env: { PI_CODING_AGENT_DIR: join(base, 'custom-file') },
        settings,
      });
      assert.deepEqual(result, {
        skills: [],
        warnings: [],
        collisions: [],
        diagnostics: [],
        scannedDirs: [],
        repoRoot: null,
      });
    });

    it('does not even look at CWD: a CWD that is not a path at all still answers empty', async () => {
      const settings = defaultSettings();
      settings.skills.enabled = false;
      const result = await discoverSkills({ home: '/no\0such', cwd: '/no\0such/cwd', env: {}, settings });
      assert.deepEqual(result.skills, []);
      assert.deepEqual(result.warnings, []);
    });

    it('a HOME that does not exist, with discovery on, is just empty', async () => {
      const result = await discoverSkills({
        home: join(root, 'missing-home'),
        cwd: join(root, 'missing-home/work'),
        env: {},
        settings: defaultSettings(),
      });
      assert.deepEqual(result.skills, []);
      assert.deepEqual(result.warnings, []);
      assert.ok(result.scannedDirs.length > 0);
    });
  });

  describe('source toggles (§4)', () => {
    it('all defaults: every source is on', async () => {
      assert.deepEqual(names(await discover(ALL_SOURCES)), ALL_NAMES);
    });

    const toggles: Array<[keyof SkillsSettings, string]> = [
      ['enablePiProject', 'pi-project'],
      ['enablePiUser', 'pi-user'],
      ['enableClaudeUser', 'claude-user'],
      ['enableClaudeProject', 'claude-project'],
      ['enableAgentsUser', 'agents-user'],
      ['enableAgentsProject', 'agents-project'],
      ['enableCodexUser', 'codex-user'],
    ];
    for (const [toggle, name] of toggles) {
      it(`${toggle}: false removes exactly ${name}`, async () => {
        const run = await discover(ALL_SOURCES, turnOff(toggle));
        assert.deepEqual(
          names(run),
          ALL_NAMES.filter((n) => n !== name),
        );
      });
    }

    it('fallback gate off when the five codex/claude/pi toggles are off: agents and managed stay', async () => {
      const run = await discover(
        ALL_SOURCES,
        turnOff('enableCodexUser', 'enableClaudeUser', 'enableClaudeProject', 'enablePiUser', 'enablePiProject'),
      );
      assert.deepEqual(names(run), ['agents-project', 'agents-user', 'managed-user']);
    });

    it('the agents toggles do not count for the gate', async () => {
      const run = await discover(ALL_SOURCES, turnOff('enableAgentsUser', 'enableAgentsProject'));
      assert.deepEqual(
        names(run),
        ALL_NAMES.filter((n) => !n.startsWith('agents-')),
      );
      for (const name of GATED) assert.ok(names(run).includes(name), name);
    });

    it('one gate toggle left on keeps the gate open', async () => {
      const run = await discover(
        ALL_SOURCES,
        turnOff('enableClaudeUser', 'enableClaudeProject', 'enablePiUser', 'enablePiProject'),
      );
      assert.deepEqual(names(run), [
        'agents-project',
        'agents-user',
        'codex-project',
        'codex-user',
        'github-project',
        'managed-user',
        'opencode-project',
        'opencode-user',
      ]);
    });

    it('xcsh: agents have no toggles of their own and follow the gate', async () => {
      const tree = {
        'P/.xcsh/skills/pi-project/SKILL.md': SK({ description: 'd' }),
        'H/.agents/skills/agents-user/SKILL.md': SK({ description: 'd' }),
        'P/.agent/skills/agents-project/SKILL.md': SK({ description: 'd' }),
        'P/.opencode/skills/opencode-project/SKILL.md': SK({ description: 'd' }),
      };
      const xcsh =
        (...keys: Array<keyof SkillsSettings>) =>
        (settings: Settings) => {
          settings.profile = 'xcsh';
          turnOff(...keys)(settings);
        };
      assert.deepEqual(names(await discover(tree, xcsh('enableAgentsUser', 'enableAgentsProject'))), [
        'agents-project',
        'agents-user',
        'opencode-project',
        'pi-project',
      ]);
      assert.deepEqual(
        names(
          await discover(
            tree,
            xcsh('enableCodexUser', 'enableClaudeUser', 'enableClaudeProject', 'enablePiUser', 'enablePiProject'),
          ),
        ),
        [],
      );
    });
  });

  describe('step 1: providers', () => {
    it('disabledProviders: the provider is not run, its directories not scanned', async () => {
      const run = await discover(ALL_SOURCES, (settings) => {
        settings.disabledProviders = ['claude', 'musepi-managed', 'opencode'];
      });
      assert.deepEqual(
        names(run),
        ALL_NAMES.filter((n) => !/^(claude|managed|opencode)-/.test(n)),
      );
      assert.equal(
        run.result.scannedDirs.some((d) => /\.claude|managed-skills|opencode/.test(d)),
        false,
      );
    });

    it('a disabled provider hides nothing: the next provider takes the name', async () => {
      const run = await discover(
        {
          'P/.musepi/skills/x/SKILL.md': SK({ description: 'native' }),
          'P/.claude/skills/x/SKILL.md': SK({ description: 'claude' }),
        },
        (settings) => {
          settings.disabledProviders = ['native'];
        },
      );
      assert.deepEqual(loaded(run), [['x', 'claude:project', 'P/.claude/skills/x/SKILL.md']]);
      assert.deepEqual(run.result.collisions, []);
    });

    it('provider warnings carry the display name prefix and no skillPath', async () => {
      const run = await discover({
        'H/.claude/skills': 'a file',
        'P/.agents/skills': 'a file',
        'P/.musepi/skills': 'a file',
      });
      assert.deepEqual(run.result.warnings, [
        { skillPath: '', message: `[MusePi] ${await readFailure(join(run.P, '.musepi/skills'))}` },
        { skillPath: '', message: `[Claude Code] ${await readFailure(join(run.H, '.claude/skills'))}` },
        {
          skillPath: '',
          message: `[Agent Dirs (.agent/.agents)] ${await readFailure(join(run.P, '.agents/skills'))}`,
        },
      ]);
    });

    it('omp and xcsh prefix native warnings with OMP; xcsh names the agents provider Agents (standard)', async () => {
      const omp = await discover({ 'P/.omp/skills': 'a file' }, (settings) => {
        settings.profile = 'omp';
      });
      assert.deepEqual(
        omp.result.warnings.map((w) => w.message),
        [`[OMP] ${await readFailure(join(omp.P, '.omp/skills'))}`],
      );
      const xcsh = await discover({ 'P/.xcsh/skills': 'a file', 'P/.agent/skills': 'a file' }, (settings) => {
        settings.profile = 'xcsh';
      });
      assert.deepEqual(
        xcsh.result.warnings.map((w) => w.message),
        [
          `[OMP] ${await readFailure(join(xcsh.P, '.xcsh/skills'))}`,
          `[Agents (standard)] ${await readFailure(join(xcsh.P, '.agent/skills'))}`,
        ],
      );
    });

    it('disabledExtensions drops skill:<name> everywhere, exact names only', async () => {
      const run = await discover(
        {
          'P/.musepi/skills/pdf/SKILL.md': SK({ description: 'native' }),
          'P/.claude/skills/pdf/SKILL.md': SK({ description: 'claude' }),
          'C/pdf/SKILL.md': SK({ description: 'custom' }),
          'H/.musepi/agent/managed-skills/pdf/SKILL.md': SK({ description: 'managed' }),
          'P/.claude/skills/pdf-2/SKILL.md': SK({ description: 'claude' }),
          'P/.claude/skills/Pdf/SKILL.md': SK({ description: 'claude' }),
        },
        (settings, base) => {
          settings.disabledExtensions = ['skill:pdf', 'skill:pdf-*', 'pdf-2'];
          settings.skills.customDirectories = [join(base, 'C')];
        },
      );
      assert.deepEqual(names(run), ['Pdf', 'pdf-2']);
      assert.deepEqual(run.result.collisions, []);
      assert.deepEqual(run.result.warnings, []);
    });
  });

  describe('step 2: filters and first-enabled-wins', () => {
    const globTree: Record<string, TreeEntry> = {
      'P/.claude/skills/alpha/SKILL.md': SK({ description: 'd' }),
      'P/.claude/skills/beta/SKILL.md': SK({ description: 'd' }),
      'P/.claude/skills/gamma/SKILL.md': SK({ description: 'd' }),
      'P/.claude/skills/Alpha-Upper/SKILL.md': SK({ description: 'd' }),
      'P/.claude/skills/dot/SKILL.md': SK({ name: '.dotted', description: 'd' }),
      'P/.claude/skills/tmp-1/SKILL.md': SK({ description: 'd' }),
      'P/.claude/skills/tmp-2/SKILL.md': SK({ description: 'd' }),
    };
    const cases: Array<[string, string[], string[], string[]]> = [
      ['no globs', [], [], ['.dotted', 'alpha', 'Alpha-Upper', 'beta', 'gamma', 'tmp-1', 'tmp-2']],
      ['ignored exact and wildcard', ['alpha', 'tmp-*'], [], ['.dotted', 'Alpha-Upper', 'beta', 'gamma']],
      ['ignored is case-sensitive', ['alpha*'], [], ['.dotted', 'Alpha-Upper', 'beta', 'gamma', 'tmp-1', 'tmp-2']],
      ['ignored braces', ['{alpha,beta}'], [], ['.dotted', 'Alpha-Upper', 'gamma', 'tmp-1', 'tmp-2']],
      ['ignored classes', ['tmp-[12]', '[ab]*'], [], ['.dotted', 'Alpha-Upper', 'gamma']],
      ['ignored * matches dot names', ['*'], [], []],
      ['ignored negated: everything but beta', ['!beta'], [], ['beta']],
      ['include list', [], ['alpha', 'gamma'], ['alpha', 'gamma']],
      ['include with a class and a dot name', [], ['tmp-[2-9]', '.*'], ['.dotted', 'tmp-2']],
      ['include negated', [], ['!tmp-*'], ['.dotted', 'alpha', 'Alpha-Upper', 'beta', 'gamma']],
      ['ignored wins over included', ['tmp-1'], ['tmp-*'], ['tmp-2']],
      ['include whole name only', [], ['alph'], []],
    ];
    for (const [title, ignoredSkills, includeSkills, expected] of cases) {
      it(`globs: ${title}`, async () => {
        const run = await discover(globTree, (settings) => {
          settings.skills.ignoredSkills = ignoredSkills;
          settings.skills.includeSkills = includeSkills;
        });
        assert.deepEqual(names(run), expected);
      });
    }

    it('first enabled wins: a disabled higher-priority skill does not hide a lower one', async () => {
      const run = await discover(
        {
          'P/.musepi/skills/t/SKILL.md': SK({ description: 'native' }),
          'H/.claude/skills/t/SKILL.md': SK({ description: 'claude user' }),
          'P/.claude/skills/t/SKILL.md': SK({ description: 'claude project' }),
        },
        turnOff('enablePiProject', 'enableClaudeUser'),
      );
      assert.deepEqual(loaded(run), [['t', 'claude:project', 'P/.claude/skills/t/SKILL.md']]);
    });

    it('xcsh: dedup first, then filter — the disabled winner takes the name with it', async () => {
      const tree = {
        'P/.xcsh/skills/t/SKILL.md': SK({ description: 'native' }),
        'P/.claude/skills/t/SKILL.md': SK({ description: 'claude' }),
        'P/.claude/skills/u/SKILL.md': SK({ description: 'claude' }),
      };
      const run = await discover(tree, (settings) => {
        settings.profile = 'xcsh';
        settings.skills.enablePiProject = false;
      });
      assert.deepEqual(loaded(run), [['u', 'claude:project', 'P/.claude/skills/u/SKILL.md']]);
      const enabled = await discover(tree, (settings) => {
        settings.profile = 'xcsh';
      });
      assert.deepEqual(loaded(enabled), [
        ['t', 'native:project', 'P/.xcsh/skills/t/SKILL.md'],
        ['u', 'claude:project', 'P/.claude/skills/u/SKILL.md'],
      ]);
    });

    it('xcsh: hide is always false', async () => {
      const run = await discover(
        { 'P/.claude/skills/h/SKILL.md': SK({ description: 'd', hide: true }) },
        (settings) => {
          settings.profile = 'xcsh';
        },
      );
      assert.deepEqual(
        run.result.skills.map((s) => [s.name, s.hide]),
        [['h', false]],
      );
      const musepi = await discover({ 'P/.claude/skills/h/SKILL.md': SK({ description: 'd', hide: true }) });
      assert.deepEqual(
        musepi.result.skills.map((s) => [s.name, s.hide]),
        [['h', true]],
      );
    });
  });

  describe('step 3: realpath dedup', () => {
    it('a symlinked skill directory under another name is dropped silently', async () => {
      const run = await discover({
        'P/.musepi/skills/real/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/alias': { symlink: '../../.musepi/skills/real' },
        'H/.agents/skills/other-alias': { symlink: '../../../P/.musepi/skills/real' },
      });
      assert.deepEqual(loaded(run), [['real', 'native:project', 'P/.musepi/skills/real/SKILL.md']]);
      assert.deepEqual(run.result.warnings, []);
    });

    it('the first path by provider order is kept, symlinked or not', async () => {
      const run = await discover({
        'shared/one/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/via-claude': { symlink: '../../../shared/one' },
        'P/.agents/skills/via-agents': { symlink: '../../../shared/one' },
      });
      assert.deepEqual(loaded(run), [['via-claude', 'claude:project', 'P/.claude/skills/via-claude/SKILL.md']]);
    });

    it('a symlinked SKILL.md file counts by its target too', async () => {
      const run = await discover({
        'P/.musepi/skills/a/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/b/SKILL.md': { symlink: '../../../.musepi/skills/a/SKILL.md' },
      });
      assert.deepEqual(names(run), ['a']);
    });
  });

  describe('step 4: custom directories', () => {
    it('expands ~, ~/x and ~x against HOME and relative paths against CWD, in the given order', async () => {
      const run = await discover(
        {
          'H/home-root/SKILL.md': SK({ description: 'in HOME itself' }),
          'H/tilde-slash/a/SKILL.md': SK({ description: 'd' }),
          'H/tildeword/b/SKILL.md': SK({ description: 'd' }),
          'P/rel/c/SKILL.md': SK({ description: 'd' }),
          'abs/d/SKILL.md': SK({ description: 'd' }),
        },
        (settings, base) => {
          settings.skills.customDirectories = ['~', '~/tilde-slash', '~tildeword', 'rel', join(base, 'abs')];
        },
      );
      assert.deepEqual(
        run.result.skills.map((s) => [s.name, s.source.id, s.filePath, s.baseDir, s.source.path]),
        [
          ['a', 'custom:user', ...inside(join(run.H, 'tilde-slash/a'))],
          ['b', 'custom:user', ...inside(join(run.H, 'tildeword/b'))],
          // A relative directory stays relative in filePath and baseDir; source.path is absolute.
          ['c', 'custom:user', 'rel/c/SKILL.md', 'rel/c', join(run.P, 'rel/c/SKILL.md')],
          ['d', 'custom:user', ...inside(join(run.base, 'abs/d'))],
          ['home-root', 'custom:user', ...inside(join(run.H, 'home-root'))],
        ],
      );
      assert.deepEqual(run.result.scannedDirs.slice(-5), [
        run.H,
        join(run.H, 'tilde-slash'),
        join(run.H, 'tildeword'),
        join(run.P, 'rel'),
        join(run.base, 'abs'),
      ]);
      const skill = run.result.skills[0];
      assert.deepEqual(skill?.source, {
        id: 'custom:user',
        provider: 'custom',
        providerName: 'Custom',
        level: 'user',
        path: join(run.H, 'tilde-slash/a/SKILL.md'),
      });
    });

    it('requires a description', async () => {
      const run = await discover(
        {
          'C/with/SKILL.md': SK({ description: 'd' }),
          'C/without/SKILL.md': SK({ name: 'without' }),
          'C/empty/SKILL.md': SK({ description: '""' }),
        },
        (settings, base) => {
          settings.skills.customDirectories = [join(base, 'C')];
        },
      );
      assert.deepEqual(names(run), ['with']);
    });

    it('overrides a provider skill silently and keeps the first of two custom skills with a warning', async () => {
      const run = await discover(
        {
          'P/.musepi/skills/n/SKILL.md': SK({ description: 'native' }),
          'C1/n/SKILL.md': SK({ description: 'c1' }),
          'C2/n/SKILL.md': SK({ description: 'c2' }),
          'C2/m/SKILL.md': SK({ description: 'c2' }),
        },
        (settings, base) => {
          settings.skills.customDirectories = [join(base, 'C1'), join(base, 'C2')];
        },
      );
      assert.deepEqual(loaded(run), [
        ['m', 'custom:user', 'C2/m/SKILL.md'],
        ['n', 'custom:user', 'C1/n/SKILL.md'],
      ]);
      assert.deepEqual(run.result.warnings, [
        {
          skillPath: join(run.base, 'C2/n/SKILL.md'),
          message: `name collision: "n" already loaded from ${join(run.base, 'C1/n/SKILL.md')}, skipping this one`,
        },
      ]);
    });

    it('xcsh: a custom skill never replaces a provider skill', async () => {
      const run = await discover(
        {
          'P/.xcsh/skills/n/SKILL.md': SK({ description: 'native' }),
          'C/n/SKILL.md': SK({ description: 'custom' }),
          'C/o/SKILL.md': SK({ description: 'custom' }),
        },
        (settings, base) => {
          settings.profile = 'xcsh';
          settings.skills.customDirectories = [join(base, 'C')];
        },
      );
      assert.deepEqual(loaded(run), [
        ['n', 'native:project', 'P/.xcsh/skills/n/SKILL.md'],
        ['o', 'custom:user', 'C/o/SKILL.md'],
      ]);
      assert.deepEqual(run.result.warnings, [
        {
          skillPath: join(run.base, 'C/n/SKILL.md'),
          message: `name collision: "n" already loaded from ${join(run.P, '.xcsh/skills/n/SKILL.md')}, skipping this one`,
        },
      ]);
    });

    it('drops disabled, ignored and not-included names', async () => {
      const run = await discover(
        {
          'C/keep/SKILL.md': SK({ description: 'd' }),
          'C/off/SKILL.md': SK({ description: 'd' }),
          'C/tmp-x/SKILL.md': SK({ description: 'd' }),
          'C/other/SKILL.md': SK({ description: 'd' }),
        },
        (settings, base) => {
          settings.skills.customDirectories = [join(base, 'C')];
          settings.disabledExtensions = ['skill:off'];
          settings.skills.ignoredSkills = ['tmp-*'];
          settings.skills.includeSkills = ['keep', 'off', 'tmp-*'];
        },
      );
      assert.deepEqual(names(run), ['keep']);
    });

    it('custom skills are not subject to source toggles', async () => {
      const run = await discover({ 'C/c/SKILL.md': SK({ description: 'd' }) }, (settings, base) => {
        settings.skills.customDirectories = [join(base, 'C')];
        turnOff(
          'enableCodexUser',
          'enableClaudeUser',
          'enableClaudeProject',
          'enablePiUser',
          'enablePiProject',
          'enableAgentsUser',
          'enableAgentsProject',
        )(settings);
      });
      assert.deepEqual(names(run), ['c']);
    });

    it('scan warnings carry the expanded directory as written as skillPath and no prefix', async () => {
      const run = await discover({ 'H/not-a-dir': 'file', 'P/also-file': 'file' }, (settings) => {
        settings.skills.customDirectories = ['~/not-a-dir', 'missing', 'also-file', '~//not-a-dir/'];
      });
      assert.deepEqual(run.result.warnings, [
        { skillPath: join(run.H, 'not-a-dir'), message: await readFailure(join(run.H, 'not-a-dir')) },
        {
          skillPath: 'also-file',
          message: `Failed to read skills directory: also-file (Error: ENOTDIR: not a directory, scandir 'also-file')`,
        },
        { skillPath: `${run.H}//not-a-dir/`, message: await readFailure(`${run.H}//not-a-dir/`) },
      ]);
    });

    it('an empty entry finds nothing, silently (not the workspace)', async () => {
      const run = await discover({ 'P/ws/SKILL.md': SK({ description: 'd' }) }, (settings) => {
        settings.skills.customDirectories = [''];
      });
      assert.deepEqual(run.result.skills, []);
      assert.deepEqual(run.result.warnings, []);
      assert.equal(run.result.scannedDirs.includes(run.P), false);
    });

    it('reads the text as written: a missing directory before `..` fails, `//` is kept in warnings', async () => {
      const run = await discover({ 'T/C1/one/SKILL.md': SK({ description: 'd' }), 'T/f': 'file' }, (settings, base) => {
        settings.skills.customDirectories = [`${base}/T/missing/../C1`, `${base}/T//f`, `${base}/T/C1/../C1`];
      });
      // `T/missing/../C1` does not exist as written (ENOENT: no warning); `T/C1/../C1` does.
      assert.deepEqual(
        run.result.skills.map((s) => [s.name, s.filePath]),
        [['one', join(run.base, 'T/C1/one/SKILL.md')]],
      );
      assert.deepEqual(run.result.warnings, [
        { skillPath: `${run.base}/T//f`, message: await readFailure(`${run.base}/T//f`) },
      ]);
      assert.match(run.result.warnings[0]?.message ?? '', /T\/\/f \(Error: ENOTDIR/);
    });
  });

  describe('step 5: managed skills', () => {
    const managed = (name: string, description = 'learned') => ({
      [`H/.musepi/agent/managed-skills/${name}/SKILL.md`]: SK({ description }),
    });

    it('accepts valid names and refuses the rest', async () => {
      const run = await discover({
        ...managed('ok-name'),
        ...managed('9lives'),
        ...managed('Bad'),
        ...managed('under_score'),
        ...managed('-lead'),
        ...managed('x'.repeat(64)),
        ...managed('y'.repeat(65)),
        'H/.musepi/agent/managed-skills/fm/SKILL.md': SK({ name: 'Front Matter', description: 'd' }),
      });
      assert.deepEqual(loaded(run), [
        ['9lives', 'musepi-managed:user', 'H/.musepi/agent/managed-skills/9lives/SKILL.md'],
        ['ok-name', 'musepi-managed:user', 'H/.musepi/agent/managed-skills/ok-name/SKILL.md'],
        ['x'.repeat(64), 'musepi-managed:user', `H/.musepi/agent/managed-skills/${'x'.repeat(64)}/SKILL.md`],
      ]);
      assert.equal(run.result.skills[0]?.source.providerName, 'Managed Skills (auto-learn)');
    });

    it('omp uses omp-managed; xcsh has no managed skills', async () => {
      const omp = await discover({ 'H/.omp/agent/managed-skills/m/SKILL.md': SK({ description: 'd' }) }, (settings) => {
        settings.profile = 'omp';
      });
      assert.deepEqual(loaded(omp), [['m', 'omp-managed:user', 'H/.omp/agent/managed-skills/m/SKILL.md']]);
      const xcsh = await discover(
        { 'H/.xcsh/agent/managed-skills/m/SKILL.md': SK({ description: 'd' }) },
        (settings) => {
          settings.profile = 'xcsh';
        },
      );
      assert.deepEqual(loaded(xcsh), []);
      assert.equal(
        xcsh.result.scannedDirs.some((d) => d.endsWith('managed-skills')),
        false,
      );
    });

    it('defers to any authored skill with an enabled source, even one that lost', async () => {
      const run = await discover(
        {
          ...managed('authored'),
          ...managed('lost'),
          ...managed('custom'),
          'P/.claude/skills/authored/SKILL.md': SK({ description: 'claude' }),
          // `lost` under codex loses to nothing but is dropped as a realpath duplicate of `kept`.
          'P/.musepi/skills/kept/SKILL.md': SK({ description: 'native' }),
          'H/.codex/skills/lost': { symlink: '../../../P/.musepi/skills/kept' },
          'C/custom/SKILL.md': SK({ description: 'custom' }),
        },
        (settings, base) => {
          settings.skills.customDirectories = [join(base, 'C')];
        },
      );
      assert.deepEqual(loaded(run), [
        ['authored', 'claude:project', 'P/.claude/skills/authored/SKILL.md'],
        ['custom', 'custom:user', 'C/custom/SKILL.md'],
        ['kept', 'native:project', 'P/.musepi/skills/kept/SKILL.md'],
      ]);
    });

    it('takes a name whose only authored skill has a disabled source', async () => {
      const run = await discover(
        { ...managed('m'), 'P/.musepi/skills/m/SKILL.md': SK({ description: 'native' }) },
        turnOff('enablePiProject'),
      );
      assert.deepEqual(loaded(run), [['m', 'musepi-managed:user', 'H/.musepi/agent/managed-skills/m/SKILL.md']]);
    });

    it('is filtered by disabledExtensions, ignoredSkills and includeSkills', async () => {
      const run = await discover(
        { ...managed('off'), ...managed('tmp-a'), ...managed('other'), ...managed('keep') },
        (settings) => {
          settings.disabledExtensions = ['skill:off'];
          settings.skills.ignoredSkills = ['tmp-*'];
          settings.skills.includeSkills = ['keep', 'off', 'tmp-*'];
        },
      );
      assert.deepEqual(names(run), ['keep']);
    });

    it('drops a managed skill whose file is already loaded, and the second of two with one name', async () => {
      const run = await discover({
        'P/.musepi/skills/orig/SKILL.md': SK({ description: 'd' }),
        'H/.musepi/agent/managed-skills/copy': { symlink: '../../../../P/.musepi/skills/orig' },
        'H/.musepi/agent/managed-skills/a/SKILL.md': SK({ name: 'same', description: 'first' }),
        'H/.musepi/agent/managed-skills/b/SKILL.md': SK({ name: 'same', description: 'second' }),
      });
      assert.deepEqual(
        run.result.skills.map((s) => [s.name, s.description]),
        [
          ['orig', 'd'],
          ['same', 'first'],
        ],
      );
    });

    it('sanitises the description', async () => {
      const run = await discover({
        'H/.musepi/agent/managed-skills/s/SKILL.md':
          '---\ndescription: "  Use <b>this</b> `now`\\x00\\u200b~~~strike~~\\t\\n\\nend\\u202e.  "\n---\n\n# Body\n',
        'P/.claude/skills/plain/SKILL.md':
          '---\ndescription: "authored <b>kept</b> `as is` ~~\\u200b"\n---\n\n# Body\n',
      });
      assert.deepEqual(
        run.result.skills.map((s) => [s.name, s.description]),
        [
          ['plain', 'authored <b>kept</b> `as is` ~~\u200b'],
          ['s', 'Use bthis/b now ~strike~ end .'],
        ],
      );
    });
  });

  describe('step 6: order', () => {
    it('sorts by lower-cased name in code-unit order, then exact name', async () => {
      const run = await discover({
        'P/.claude/skills/zeta/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/Beta/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/alpha/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/Alpha/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/élan/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/_under/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/10/SKILL.md': SK({ description: 'd' }),
        'P/.claude/skills/9/SKILL.md': SK({ description: 'd' }),
      });
      assert.deepEqual(names(run), ['10', '9', '_under', 'Alpha', 'alpha', 'Beta', 'zeta', 'élan']);
    });

    it('warnings: provider warnings in provider order, then custom scan warnings, then collision warnings', async () => {
      const run = await discover(
        {
          'P/.github/skills': 'file',
          'H/.codex/skills': 'file',
          'P/.musepi/skills': 'file',
          C0: 'file',
          'C1/n/SKILL.md': SK({ description: 'd' }),
          'C2/n/SKILL.md': SK({ description: 'd' }),
          C3: 'file',
        },
        (settings, base) => {
          settings.skills.customDirectories = ['C1', 'C0', 'C2', 'C3'].map((d) => join(base, d));
        },
      );
      assert.deepEqual(run.result.warnings, [
        { skillPath: '', message: `[MusePi] ${await readFailure(join(run.P, '.musepi/skills'))}` },
        { skillPath: '', message: `[OpenAI Codex] ${await readFailure(join(run.H, '.codex/skills'))}` },
        { skillPath: '', message: `[GitHub Copilot] ${await readFailure(join(run.P, '.github/skills'))}` },
        { skillPath: join(run.base, 'C0'), message: await readFailure(join(run.base, 'C0')) },
        { skillPath: join(run.base, 'C3'), message: await readFailure(join(run.base, 'C3')) },
        {
          skillPath: join(run.base, 'C2/n/SKILL.md'),
          message: `name collision: "n" already loaded from ${join(run.base, 'C1/n/SKILL.md')}, skipping this one`,
        },
      ]);
    });
  });

  describe('result bookkeeping', () => {
    it('scannedDirs lists every directory tried, in scan order, managed and custom last', async () => {
      const run = await discover({}, (settings) => {
        settings.skills.customDirectories = ['custom-a', '~/custom-b'];
      });
      const { H, P } = run;
      assert.deepEqual(run.result.scannedDirs, [
        join(P, '.musepi/skills'),
        join(H, '.musepi/agent/skills'),
        join(H, '.claude/skills'),
        join(P, '.claude/skills'),
        join(P, '.agent/skills'),
        join(P, '.agents/skills'),
        join(H, '.agent/skills'),
        join(H, '.agents/skills'),
        join(H, '.codex/skills'),
        join(P, '.codex/skills'),
        join(H, '.config/opencode/skills'),
        join(P, '.opencode/skills'),
        join(P, '.github/skills'),
        join(H, '.musepi/agent/managed-skills'),
        join(P, 'custom-a'),
        join(H, 'custom-b'),
      ]);
      assert.equal(run.result.repoRoot, P);
    });

    it('a shared file cache gives the same answer and follows edits', async () => {
      const base = join(root, 'cache');
      await writeTree(base, {
        'H/.keep': '',
        'P/.git/HEAD': '',
        'P/.claude/skills/c/SKILL.md': SK({ description: 'first' }),
      });
      const cache = createSkillFileCache();
      const ctx = { home: join(base, 'H'), cwd: join(base, 'P'), env: {}, settings: defaultSettings() };
      const first = await discoverSkills(ctx, { cache });
      const second = await discoverSkills(ctx, { cache });
      assert.deepEqual(second, first);
      assert.deepEqual(
        first.skills.map((s) => s.description),
        ['first'],
      );
      await writeTree(base, { 'P/.claude/skills/c/SKILL.md': SK({ description: 'changed, and longer' }) });
      const third = await discoverSkills(ctx, { cache });
      assert.deepEqual(
        third.skills.map((s) => s.description),
        ['changed, and longer'],
      );
    });
  });
});
