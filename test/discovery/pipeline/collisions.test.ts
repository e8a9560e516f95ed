// Collision records (docs/discovery.md §5 last paragraph, docs/api.md `Collision`): one test per reason, plus the cases without a
// record and the ordering rules.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../../src/discovery/settings.js';
import type { DiscoveryResult, Settings } from '../../../src/discovery/types.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../../helpers/temp-tree.js';

let root = '';
let cleanup: () => Promise<void> = async () => {};
let counter = 0;

/** A fresh HOME `H` and project `P` (with `.git`, CWD = P) under the shared temp root. */
async function discover(
  tree: Record<string, TreeEntry>,
  configure: (settings: Settings, base: string) => void = () => {},
): Promise<{ base: string; result: DiscoveryResult }> {
  const base = join(root, String(counter++));
  await writeTree(base, { 'H/.keep': '', 'P/.git/HEAD': '', ...tree });
  const settings = defaultSettings();
  configure(settings, base);
  const result = await discoverSkills({ home: join(base, 'H'), cwd: join(base, 'P'), env: {}, settings });
  return { base, result };
}

/** `[name, winner filePath, [[shadowed filePath, source id, reason], …]]` relative to `base`. */
function summary(base: string, result: DiscoveryResult) {
  const rel = (path: string) => path.slice(base.length + 1);
  return result.collisions.map((c) => [
    c.name,
    rel(c.winner.filePath),
    c.winner.source.id,
    c.shadowed.map((s) => [rel(s.filePath), s.source.id, s.reason]),
  ]);
}

describe('collisions', () => {
  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
  });
  after(() => cleanup());

  it('precedence: every lower-priority candidate, in discovery order', async () => {
    const { base, result } = await discover({
      'P/.musepi/skills/a/SKILL.md': SK({ description: 'native' }),
      'H/.claude/skills/a/SKILL.md': SK({ description: 'claude user' }),
      'P/.agents/skills/a/SKILL.md': SK({ description: 'agents' }),
      'H/.codex/skills/a/SKILL.md': SK({ description: 'codex' }),
      'P/.github/skills/a/SKILL.md': SK({ description: 'github' }),
    });
    assert.deepEqual(summary(base, result), [
      [
        'a',
        'P/.musepi/skills/a/SKILL.md',
        'native:project',
        [
          ['H/.claude/skills/a/SKILL.md', 'claude:user', 'precedence'],
          ['P/.agents/skills/a/SKILL.md', 'agents:project', 'precedence'],
          ['H/.codex/skills/a/SKILL.md', 'codex:user', 'precedence'],
          ['P/.github/skills/a/SKILL.md', 'github:project', 'precedence'],
        ],
      ],
    ]);
    assert.deepEqual(result.warnings, []);
  });

  it('precedence: a managed skill that defers to an authored one', async () => {
    const { base, result } = await discover({
      'H/.claude/skills/auto/SKILL.md': SK({ description: 'authored' }),
      'H/.musepi/agent/managed-skills/auto/SKILL.md': SK({ description: 'learned' }),
    });
    assert.deepEqual(summary(base, result), [
      [
        'auto',
        'H/.claude/skills/auto/SKILL.md',
        'claude:user',
        [['H/.musepi/agent/managed-skills/auto/SKILL.md', 'musepi-managed:user', 'precedence']],
      ],
    ]);
  });

  it('custom-override: the replaced provider skill and what it had shadowed', async () => {
    const { base, result } = await discover(
      {
        'P/.musepi/skills/o/SKILL.md': SK({ description: 'native' }),
        'P/.claude/skills/o/SKILL.md': SK({ description: 'claude' }),
        'C/o/SKILL.md': SK({ description: 'custom' }),
      },
      (settings, base) => {
        settings.skills.customDirectories = [join(base, 'C')];
      },
    );
    assert.deepEqual(summary(base, result), [
      [
        'o',
        'C/o/SKILL.md',
        'custom:user',
        [
          ['P/.musepi/skills/o/SKILL.md', 'native:project', 'custom-override'],
          ['P/.claude/skills/o/SKILL.md', 'claude:project', 'precedence'],
        ],
      ],
    ]);
    assert.deepEqual(result.warnings, []);
  });

  it('duplicate-file: the same skill directory reached through a symlink under the same name', async () => {
    const { base, result } = await discover({
      'P/.musepi/skills/real/SKILL.md': SK({ description: 'real' }),
      'P/.claude/skills/real': { symlink: '../../.musepi/skills/real' },
    });
    assert.deepEqual(summary(base, result), [
      [
        'real',
        'P/.musepi/skills/real/SKILL.md',
        'native:project',
        [['P/.claude/skills/real/SKILL.md', 'claude:project', 'duplicate-file']],
      ],
    ]);
  });

  it('duplicate-file: under another name, reported under the name of the skill holding the file', async () => {
    const { base, result } = await discover({
      'P/.musepi/skills/real/SKILL.md': SK({ description: 'real' }),
      'P/.claude/skills/alias': { symlink: '../../.musepi/skills/real' },
    });
    assert.deepEqual(
      result.skills.map((s) => s.name),
      ['real'],
    );
    assert.deepEqual(summary(base, result), [
      [
        'real',
        'P/.musepi/skills/real/SKILL.md',
        'native:project',
        [['P/.claude/skills/alias/SKILL.md', 'claude:project', 'duplicate-file']],
      ],
    ]);
  });

  it('duplicate-file: a custom directory pointing at a provider skill is dropped silently', async () => {
    const { base, result } = await discover(
      {
        'P/.musepi/skills/real/SKILL.md': SK({ description: 'real' }),
        'C/real': { symlink: '../P/.musepi/skills/real' },
      },
      (settings, base) => {
        settings.skills.customDirectories = [join(base, 'C')];
      },
    );
    assert.deepEqual(
      result.skills.map((s) => [s.name, s.source.id]),
      [['real', 'native:project']],
    );
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(summary(base, result), [
      [
        'real',
        'P/.musepi/skills/real/SKILL.md',
        'native:project',
        [['C/real/SKILL.md', 'custom:user', 'duplicate-file']],
      ],
    ]);
  });

  it('custom-collision: custom vs custom, and (xcsh) custom vs provider', async () => {
    const musepi = await discover(
      {
        'C1/n/SKILL.md': SK({ description: 'one' }),
        'C2/n/SKILL.md': SK({ description: 'two' }),
      },
      (settings, base) => {
        settings.skills.customDirectories = [join(base, 'C1'), join(base, 'C2')];
      },
    );
    assert.deepEqual(summary(musepi.base, musepi.result), [
      ['n', 'C1/n/SKILL.md', 'custom:user', [['C2/n/SKILL.md', 'custom:user', 'custom-collision']]],
    ]);
    const xcsh = await discover(
      {
        'P/.claude/skills/n/SKILL.md': SK({ description: 'claude' }),
        'C/n/SKILL.md': SK({ description: 'custom' }),
      },
      (settings, base) => {
        settings.profile = 'xcsh';
        settings.skills.customDirectories = [join(base, 'C')];
      },
    );
    assert.deepEqual(summary(xcsh.base, xcsh.result), [
      ['n', 'P/.claude/skills/n/SKILL.md', 'claude:project', [['C/n/SKILL.md', 'custom:user', 'custom-collision']]],
    ]);
    assert.deepEqual(xcsh.result.warnings, [
      {
        skillPath: join(xcsh.base, 'C/n/SKILL.md'),
        message: `name collision: "n" already loaded from ${join(xcsh.base, 'P/.claude/skills/n/SKILL.md')}, skipping this one`,
      },
    ]);
  });

  it('disabled: a candidate whose source toggle removed it while a lower one won', async () => {
    const { base, result } = await discover(
      {
        'H/.musepi/agent/skills/d/SKILL.md': SK({ description: 'native user' }),
        'H/.claude/skills/d/SKILL.md': SK({ description: 'claude user' }),
        'P/.claude/skills/d/SKILL.md': SK({ description: 'claude project' }),
      },
      (settings) => {
        settings.skills.enablePiUser = false;
        settings.skills.enableClaudeUser = false;
      },
    );
    assert.deepEqual(summary(base, result), [
      [
        'd',
        'P/.claude/skills/d/SKILL.md',
        'claude:project',
        [
          ['H/.musepi/agent/skills/d/SKILL.md', 'native:user', 'disabled'],
          ['H/.claude/skills/d/SKILL.md', 'claude:user', 'disabled'],
        ],
      ],
    ]);
  });

  it('disabled: an authored skill with a disabled source lets a managed skill win the name', async () => {
    const { base, result } = await discover(
      {
        'P/.musepi/skills/m/SKILL.md': SK({ description: 'native' }),
        'H/.musepi/agent/managed-skills/m/SKILL.md': SK({ description: 'learned' }),
      },
      (settings) => {
        settings.skills.enablePiProject = false;
      },
    );
    assert.deepEqual(summary(base, result), [
      [
        'm',
        'H/.musepi/agent/managed-skills/m/SKILL.md',
        'musepi-managed:user',
        [['P/.musepi/skills/m/SKILL.md', 'native:project', 'disabled']],
      ],
    ]);
  });

  it('no winner, no record: every candidate of the name filtered out', async () => {
    const ignored = await discover(
      {
        'P/.musepi/skills/gone/SKILL.md': SK({ description: 'native' }),
        'P/.claude/skills/gone/SKILL.md': SK({ description: 'claude' }),
      },
      (settings) => {
        settings.skills.ignoredSkills = ['gone'];
      },
    );
    assert.deepEqual(ignored.result.skills, []);
    assert.deepEqual(ignored.result.collisions, []);
    const toggled = await discover(
      {
        'P/.musepi/skills/gone/SKILL.md': SK({ description: 'native project' }),
        'H/.musepi/agent/skills/gone/SKILL.md': SK({ description: 'native user' }),
      },
      (settings) => {
        settings.skills.enablePiProject = false;
        settings.skills.enablePiUser = false;
      },
    );
    assert.deepEqual(toggled.result.skills, []);
    assert.deepEqual(toggled.result.collisions, []);
  });

  it('a name claimed once has no record; records are sorted like skills', async () => {
    const { base, result } = await discover({
      'P/.musepi/skills/zeta/SKILL.md': SK({ description: 'n' }),
      'P/.claude/skills/zeta/SKILL.md': SK({ description: 'c' }),
      'P/.musepi/skills/Alpha/SKILL.md': SK({ description: 'n' }),
      'P/.claude/skills/Alpha/SKILL.md': SK({ description: 'c' }),
      'P/.musepi/skills/alpha/SKILL.md': SK({ description: 'n' }),
      'P/.claude/skills/alpha/SKILL.md': SK({ description: 'c' }),
      'P/.musepi/skills/single/SKILL.md': SK({ description: 'n' }),
    });
    assert.deepEqual(
      summary(base, result).map(([name]) => name),
      ['Alpha', 'alpha', 'zeta'],
    );
  });
});
