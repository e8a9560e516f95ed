// 10,000 skills over several providers and a custom directory: nothing lost, nothing duplicated, exact order.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverSkills } from '../../src/discovery/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { DiscoveryResult } from '../../src/discovery/types.js';
import { makeTempDir, SK } from '../helpers/temp-tree.js';

const PER_SOURCE = 1980;
const SHARED = 100;

/** Where each group of skills lives, relative to the temp root, and the source it must be reported from. */
const SOURCES: Array<[prefix: string, dir: string, sourceId: string]> = [
  ['Native', 'P/.musepi/skills', 'native:project'],
  ['claude', 'H/.claude/skills', 'claude:user'],
  ['agents', 'P/.agents/skills', 'agents:project'],
  ['codex', 'H/.codex/skills', 'codex:user'],
  ['Custom', 'C', 'custom:user'],
];

function pad(n: number): string {
  return String(n).padStart(5, '0');
}

async function writeSkills(root: string, files: Array<[string, string]>): Promise<void> {
  // A few hundred writes at a time: fast without running out of file descriptors.
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(
      files.slice(i, i + 256).map(async ([relative, content]) => {
        const path = join(root, relative);
        await mkdir(join(path, '..'), { recursive: true });
        await writeFile(path, content);
      }),
    );
  }
}

describe('discoverSkills at scale', () => {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  let result: DiscoveryResult;

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    const files: Array<[string, string]> = [
      ['P/.git/HEAD', ''],
      ['H/.keep', ''],
    ];
    for (const [prefix, dir] of SOURCES) {
      for (let i = 0; i < PER_SOURCE; i++) {
        files.push([`${dir}/${prefix}-${pad(i)}/SKILL.md`, SK({ description: `${prefix} ${i}` })]);
      }
    }
    // The same names in native and claude: native wins, claude is shadowed.
    for (let i = 0; i < SHARED; i++) {
      files.push([`P/.musepi/skills/shared-${pad(i)}/SKILL.md`, SK({ description: `native shared ${i}` })]);
      files.push([`H/.claude/skills/shared-${pad(i)}/SKILL.md`, SK({ description: `claude shared ${i}` })]);
    }
    await writeSkills(root, files);
    const settings = defaultSettings();
    settings.skills.customDirectories = [join(root, 'C')];
    result = await discoverSkills({ home: join(root, 'H'), cwd: join(root, 'P'), env: {}, settings });
  });
  after(() => cleanup());

  it('finds every skill once', () => {
    assert.equal(result.skills.length, SOURCES.length * PER_SOURCE + SHARED);
    assert.equal(result.skills.length, 10_000);
    assert.equal(new Set(result.skills.map((s) => s.name)).size, 10_000);
    assert.deepEqual(result.warnings, []);
    for (const [prefix, , sourceId] of SOURCES) {
      const group = result.skills.filter((s) => s.name.startsWith(`${prefix}-`));
      assert.equal(group.length, PER_SOURCE, prefix);
      assert.ok(
        group.every((s) => s.source.id === sourceId),
        `${prefix} from ${sourceId}`,
      );
    }
  });

  it('keeps the exact records', () => {
    const byName = new Map(result.skills.map((s) => [s.name, s]));
    const native = byName.get('Native-01234');
    const nativePath = join(root, 'P/.musepi/skills/Native-01234/SKILL.md');
    assert.deepEqual(native, {
      name: 'Native-01234',
      description: 'Native 1234',
      filePath: nativePath,
      baseDir: join(root, 'P/.musepi/skills/Native-01234'),
      hide: false,
      source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: nativePath },
      frontmatter: { description: 'Native 1234' },
    });
    assert.equal(byName.get('Custom-01979')?.filePath, join(root, 'C/Custom-01979/SKILL.md'));
    assert.equal(byName.get('codex-00000')?.description, 'codex 0');
    assert.equal(byName.get('shared-00042')?.description, 'native shared 42');
  });

  it('sorts by lower-cased name, then name', () => {
    const expected = [...result.skills.map((s) => s.name)].sort((a, b) => {
      const la = a.toLowerCase();
      const lb = b.toLowerCase();
      if (la !== lb) return la < lb ? -1 : 1;
      return a < b ? -1 : a > b ? 1 : 0;
    });
    assert.deepEqual(
      result.skills.map((s) => s.name),
      expected,
    );
    assert.equal(result.skills[0]?.name, 'agents-00000');
    assert.equal(result.skills[PER_SOURCE * 2]?.name, 'codex-00000');
    assert.equal(result.skills.at(-1)?.name, 'shared-00099');
  });

  it('reports one collision per shared name', () => {
    assert.equal(result.collisions.length, SHARED);
    const claudePath = join(root, 'H/.claude/skills/shared-00000/SKILL.md');
    const nativePath = join(root, 'P/.musepi/skills/shared-00000/SKILL.md');
    assert.deepEqual(result.collisions[0], {
      name: 'shared-00000',
      winner: {
        filePath: nativePath,
        source: {
          id: 'native:project',
          provider: 'native',
          providerName: 'MusePi',
          level: 'project',
          path: nativePath,
        },
      },
      shadowed: [
        {
          filePath: claudePath,
          source: {
            id: 'claude:user',
            provider: 'claude',
            providerName: 'Claude Code',
            level: 'user',
            path: claudePath,
          },
          reason: 'precedence',
        },
      ],
    });
    assert.deepEqual(
      result.collisions.map((c) => c.name),
      Array.from({ length: SHARED }, (_, i) => `shared-${pad(i)}`),
    );
  });
});
