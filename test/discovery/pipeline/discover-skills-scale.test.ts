// 10,000 skills over several providers and a custom directory: nothing lost, nothing duplicated, exact order.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../../src/discovery/settings.js';
import type { DiscoveryResult } from '../../../src/discovery/types.js';
import { makeTempDir, SK } from '../../helpers/temp-tree.js';

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

/**
 * A temp directory on tmpfs when the machine has one: creating and removing 20,000 inodes on a disk-backed temp
 * directory took most of this test's time on a busy machine, and tmpfs is just as real a file system for discovery.
 */
async function makeScaleTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  if (!existsSync('/dev/shm')) return makeTempDir();
  const dir = await realpath(await mkdtemp(join('/dev/shm', 'skillsd-scale-')));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Skill files in a few parent directories: the parents are made once, each skill directory with one mkdir. */
function writeSkills(root: string, files: Array<[string, string]>): void {
  const parents = new Set(files.map(([relative]) => dirname(dirname(join(root, relative)))));
  for (const parent of parents) mkdirSync(parent, { recursive: true });
  for (const [relative, content] of files) {
    const path = join(root, relative);
    mkdirSync(dirname(path));
    writeFileSync(path, content);
  }
}

describe('discoverSkills at scale', () => {
  let root = '';
  let cleanup: () => Promise<void> = async () => {};
  let result: DiscoveryResult;

  before(async () => {
    ({ dir: root, cleanup } = await makeScaleTempDir());
    mkdirSync(join(root, 'P/.git'), { recursive: true });
    mkdirSync(join(root, 'H'));
    const files: Array<[string, string]> = [];
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
    writeSkills(root, files);
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
