// docs/discovery.md §11, examples 1–9, exactly as written: H = HOME, P = the project (P/.git exists, CWD = P), profile musepi,
// defaults unless stated. Each example runs in a fresh temp tree with its own HOME and project.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryResult, Level, Settings } from '../../src/discovery/types.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../helpers/temp-tree.js';

interface Example {
  root: string;
  H: string;
  P: string;
  result: DiscoveryResult;
}

/** Builds `tree` (paths starting with `H/`, `P/` or any other top-level name under the root), then discovers. */
async function example(
  tree: Record<string, TreeEntry>,
  configure: (settings: Settings, root: string) => void = () => {},
): Promise<Example & { cleanup: () => Promise<void> }> {
  const { dir: root, cleanup } = await makeTempDir('skillsd-example-');
  await writeTree(root, { 'H/.keep': '', 'P/.git/HEAD': 'ref: refs/heads/main\n', ...tree });
  const settings = defaultSettings();
  configure(settings, root);
  const H = join(root, 'H');
  const P = join(root, 'P');
  const result = await discoverSkills({ home: H, cwd: P, env: {}, settings });
  return { root, H, P, result, cleanup };
}

function source(provider: string, providerName: string, level: Level, path: string) {
  return { id: `${provider}:${level}`, provider, providerName, level, path };
}

describe('docs/discovery.md §11 worked examples', () => {
  it('1. a native project skill', async () => {
    const { P, result, cleanup } = await example({
      'P/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    });
    try {
      const filePath = join(P, '.musepi/skills/pdf/SKILL.md');
      assert.deepEqual(result.skills, [
        {
          name: 'pdf',
          description: 'PDF tools',
          filePath,
          baseDir: join(P, '.musepi/skills/pdf'),
          hide: false,
          source: source('native', 'MusePi', 'project', filePath),
          frontmatter: { name: 'pdf', description: 'PDF tools' },
        },
      ]);
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, []);
      assert.equal(result.repoRoot, P);
    } finally {
      await cleanup();
    }
  });

  it('2. a native user skill named after its directory', async () => {
    const { H, result, cleanup } = await example({
      'H/.musepi/agent/skills/git-helper/SKILL.md': SK({ description: 'Git ops' }),
    });
    try {
      const filePath = join(H, '.musepi/agent/skills/git-helper/SKILL.md');
      assert.deepEqual(result.skills, [
        {
          name: 'git-helper',
          description: 'Git ops',
          filePath,
          baseDir: join(H, '.musepi/agent/skills/git-helper'),
          hide: false,
          source: source('native', 'MusePi', 'user', filePath),
          frontmatter: { description: 'Git ops' },
        },
      ]);
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, []);
    } finally {
      await cleanup();
    }
  });

  it('3. no description: native requires one, claude does not', async () => {
    const { P, result, cleanup } = await example({
      'P/.musepi/skills/nd/SKILL.md': SK({ name: 'nd' }),
      'P/.claude/skills/nd/SKILL.md': SK({ name: 'nd' }),
    });
    try {
      const filePath = join(P, '.claude/skills/nd/SKILL.md');
      assert.deepEqual(result.skills, [
        {
          name: 'nd',
          description: '',
          filePath,
          baseDir: join(P, '.claude/skills/nd'),
          hide: false,
          source: source('claude', 'Claude Code', 'project', filePath),
          frontmatter: { name: 'nd' },
        },
      ]);
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, [], 'the native one was never a candidate');
    } finally {
      await cleanup();
    }
  });

  it('4. nested, loose and top-level SKILL.md files are not skills', async () => {
    const { result, cleanup } = await example({
      'P/.musepi/skills/team/internal/SKILL.md': SK({ description: 'nested' }),
      'P/.musepi/skills/loose.md': SK({ description: 'loose' }),
      'P/.musepi/skills/SKILL.md': SK({ description: 'top' }),
    });
    try {
      assert.deepEqual(result.skills, []);
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, []);
    } finally {
      await cleanup();
    }
  });

  it('5. native beats claude: no warning, one precedence collision', async () => {
    const { P, result, cleanup } = await example({
      'P/.musepi/skills/dup/SKILL.md': SK({ description: 'N' }),
      'P/.claude/skills/dup/SKILL.md': SK({ description: 'C' }),
    });
    try {
      const native = join(P, '.musepi/skills/dup/SKILL.md');
      const claude = join(P, '.claude/skills/dup/SKILL.md');
      assert.deepEqual(
        result.skills.map((s) => [s.name, s.source.id, s.filePath, s.baseDir, s.description]),
        [['dup', 'native:project', native, join(P, '.musepi/skills/dup'), 'N']],
      );
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, [
        {
          name: 'dup',
          winner: { filePath: native, source: source('native', 'MusePi', 'project', native) },
          shadowed: [
            { filePath: claude, source: source('claude', 'Claude Code', 'project', claude), reason: 'precedence' },
          ],
        },
      ]);
    } finally {
      await cleanup();
    }
  });

  it('6. claude user beats claude project', async () => {
    const { H, P, result, cleanup } = await example({
      'H/.claude/skills/x/SKILL.md': SK({ description: 'U' }),
      'P/.claude/skills/x/SKILL.md': SK({ description: 'P' }),
    });
    try {
      const user = join(H, '.claude/skills/x/SKILL.md');
      const project = join(P, '.claude/skills/x/SKILL.md');
      assert.deepEqual(
        result.skills.map((s) => [s.name, s.source.id, s.filePath, s.baseDir, s.description]),
        [['x', 'claude:user', user, join(H, '.claude/skills/x'), 'U']],
      );
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, [
        {
          name: 'x',
          winner: { filePath: user, source: source('claude', 'Claude Code', 'user', user) },
          shadowed: [
            { filePath: project, source: source('claude', 'Claude Code', 'project', project), reason: 'precedence' },
          ],
        },
      ]);
    } finally {
      await cleanup();
    }
  });

  it('7. a disabled native project skill does not hide the agents one', async () => {
    const { P, result, cleanup } = await example(
      {
        'P/.musepi/skills/t/SKILL.md': SK({ description: 'N' }),
        'P/.agents/skills/t/SKILL.md': SK({ description: 'A' }),
      },
      (settings) => {
        settings.skills.enablePiProject = false;
      },
    );
    try {
      const native = join(P, '.musepi/skills/t/SKILL.md');
      const agents = join(P, '.agents/skills/t/SKILL.md');
      assert.deepEqual(
        result.skills.map((s) => [s.name, s.source.id, s.source.providerName, s.filePath, s.baseDir, s.description]),
        [['t', 'agents:project', 'Agent Dirs (.agent/.agents)', agents, join(P, '.agents/skills/t'), 'A']],
      );
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, [
        {
          name: 't',
          winner: { filePath: agents, source: source('agents', 'Agent Dirs (.agent/.agents)', 'project', agents) },
          shadowed: [{ filePath: native, source: source('native', 'MusePi', 'project', native), reason: 'disabled' }],
        },
      ]);
    } finally {
      await cleanup();
    }
  });

  it('7, xcsh (with .xcsh): the disabled winner makes the name disappear', async () => {
    const { result, cleanup } = await example(
      {
        'P/.xcsh/skills/t/SKILL.md': SK({ description: 'N' }),
        'P/.agents/skills/t/SKILL.md': SK({ description: 'A' }),
      },
      (settings) => {
        settings.profile = 'xcsh';
        settings.skills.enablePiProject = false;
      },
    );
    try {
      assert.deepEqual(result.skills, []);
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, [], 'no winner, no collision record');
    } finally {
      await cleanup();
    }
  });

  it('8. two custom directories with the same name: the first stays, the second warns', async () => {
    const { root, result, cleanup } = await example(
      {
        'C1/same-name/SKILL.md': SK({ description: 'd' }),
        'C2/same-name/SKILL.md': SK({ description: 'd' }),
      },
      (settings, root) => {
        settings.skills.customDirectories = [join(root, 'C1'), join(root, 'C2')];
      },
    );
    try {
      const first = join(root, 'C1/same-name/SKILL.md');
      const second = join(root, 'C2/same-name/SKILL.md');
      assert.deepEqual(result.skills, [
        {
          name: 'same-name',
          description: 'd',
          filePath: first,
          baseDir: join(root, 'C1/same-name'),
          hide: false,
          source: source('custom', 'Custom', 'user', first),
          frontmatter: { description: 'd' },
        },
      ]);
      assert.deepEqual(result.warnings, [
        {
          skillPath: second,
          message: `name collision: "same-name" already loaded from ${first}, skipping this one`,
        },
      ]);
      assert.deepEqual(result.collisions, [
        {
          name: 'same-name',
          winner: { filePath: first, source: source('custom', 'Custom', 'user', first) },
          shadowed: [
            { filePath: second, source: source('custom', 'Custom', 'user', second), reason: 'custom-collision' },
          ],
        },
      ]);
    } finally {
      await cleanup();
    }
  });

  it('9. a custom skill replaces a provider skill silently', async () => {
    const { root, P, result, cleanup } = await example(
      {
        'P/.claude/skills/shared-name/SKILL.md': SK({ description: 'default' }),
        'C/shared-name/SKILL.md': SK({ description: 'custom' }),
      },
      (settings, root) => {
        settings.skills.customDirectories = [join(root, 'C')];
      },
    );
    try {
      const custom = join(root, 'C/shared-name/SKILL.md');
      const claude = join(P, '.claude/skills/shared-name/SKILL.md');
      assert.deepEqual(
        result.skills.map((s) => [s.name, s.source.id, s.source.providerName, s.filePath, s.baseDir, s.description]),
        [['shared-name', 'custom:user', 'Custom', custom, join(root, 'C/shared-name'), 'custom']],
      );
      assert.deepEqual(result.warnings, []);
      assert.deepEqual(result.collisions, [
        {
          name: 'shared-name',
          winner: { filePath: custom, source: source('custom', 'Custom', 'user', custom) },
          shadowed: [
            {
              filePath: claude,
              source: source('claude', 'Claude Code', 'project', claude),
              reason: 'custom-override',
            },
          ],
        },
      ]);
    } finally {
      await cleanup();
    }
  });
});
