import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  AGENT_DIRS,
  CROWDED_DIR_INDEX,
  type Fixture,
  generateFixture,
  SKILL_DIRS,
  splitByWeight,
} from '../../bench/fixtures.js';
import { agentEnv } from '../../src/discovery/agents/agent-context.js';
import { computeAgentViews } from '../../src/discovery/agents/compute-views.js';
import { AgentFileTexts } from '../../src/discovery/agents/file-texts.js';
import type { ViewId } from '../../src/discovery/agents/types.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const SEED = 7;
// N = 100 with the weights of SKILL_DIRS, in that order.
const EXPECTED_COUNTS = [14, 12, 16, 12, 8, 8, 7, 6, 5, 4, 8];

/** Every file and symlink under `root` with a hash of its content (links: their target), sorted by path. */
async function treeDigest(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) out.push(`${relative(root, path)} -> ${relative(root, await readlink(path))}`);
      else if (entry.isDirectory()) await walk(path);
      else
        out.push(
          `${relative(root, path)} ${createHash('sha256')
            .update(await readFile(path))
            .digest('hex')}`,
        );
    }
  }
  await walk(root);
  return out.sort();
}

function nameOf(text: string, dirName: string): string {
  const match = /^name: (.+)$/m.exec(text.slice(0, text.indexOf('\n---', 3)));
  return match?.[1] ?? dirName;
}

describe('generateFixture (N = 100)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let fixture: Fixture;
  const skillDirs = (): string[] =>
    SKILL_DIRS.map((d) => join(d.base === 'home' ? fixture.home : fixture.workspace, d.dir));

  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-fixture-'));
    fixture = await generateFixture({ root: join(dir, 'a'), skills: 100, seed: SEED });
  });
  after(() => cleanup());

  test('splits N over the provider directories by weight', async () => {
    assert.deepEqual(splitByWeight(100), EXPECTED_COUNTS);
    // 7 × weights = 0.98, 0.84, 1.12, 0.84, 0.56, 0.56, 0.49, …: the remainder goes to the largest fractions.
    assert.deepEqual(splitByWeight(7), [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1]);
    const onDisk = await Promise.all(skillDirs().map(async (d) => (await readdir(d)).length));
    assert.deepEqual(onDisk, EXPECTED_COUNTS);
    assert.deepEqual(
      fixture.layout.map((l) => l.count),
      EXPECTED_COUNTS,
    );
    assert.equal((await stat(join(fixture.workspace, '.git'))).isDirectory(), true);
  });

  test('every skill is a SKILL.md of 1–21 KB with a name and a description; 2 names collide, 1 dir is a symlink', async () => {
    const namesByDir: string[][] = [];
    let symlinks = 0;
    for (const skillsDir of skillDirs()) {
      const names: string[] = [];
      for (const entry of await readdir(skillsDir)) {
        const entryPath = join(skillsDir, entry);
        if ((await lstat(entryPath)).isSymbolicLink()) {
          symlinks++;
          assert.equal((await realpath(entryPath)).startsWith(join(fixture.home, 'skill-library')), true);
        }
        const text = await readFile(join(entryPath, 'SKILL.md'), 'utf8');
        assert.equal(text.startsWith('---\n'), true);
        assert.match(text, /^description: .+$/m);
        const size = Buffer.byteLength(text);
        assert.equal(size >= 1000 && size <= 21 * 1024, true, `${entryPath}: ${size} bytes`);
        assert.equal(nameOf(text, entry), entry);
        names.push(entry);
      }
      namesByDir.push(names);
    }
    const all = namesByDir.flat();
    const unique = new Set(all);
    assert.equal(all.length, 100);
    assert.equal(unique.size, 98);
    assert.equal(fixture.collisions, 2);
    assert.equal(symlinks, 1);
    assert.equal(fixture.symlinks, 1);
    // A collision is always across directories, never two entries of one name in the same directory.
    for (const names of namesByDir) assert.equal(new Set(names).size, names.length);
    assert.deepEqual(fixture.names, [...unique].sort());
    assert.equal(fixture.editable.length, 95);
    assert.equal(fixture.references.length > 0, true);
    for (const ref of fixture.references) {
      const holder = fixture.editable.find((f) => f.endsWith(`/${ref.name}/SKILL.md`));
      assert.notEqual(holder, undefined);
      assert.equal((await stat(join(holder!, '..', ref.file))).isFile(), true);
    }
  });

  test('the same seed gives the same tree byte for byte; another seed does not', async () => {
    const again = await generateFixture({ root: join(dir, 'b'), skills: 100, seed: SEED });
    const other = await generateFixture({ root: join(dir, 'c'), skills: 100, seed: SEED + 1 });
    const digestA = await treeDigest(join(dir, 'a'));
    assert.equal(digestA.length > 100, true);
    assert.deepEqual(await treeDigest(join(dir, 'b')), digestA);
    assert.notDeepEqual(await treeDigest(join(dir, 'c')), digestA);
    assert.deepEqual(
      again.editable.map((f) => relative(join(dir, 'b'), f)),
      fixture.editable.map((f) => relative(join(dir, 'a'), f)),
    );
    assert.equal(other.names.length, 98);
  });

  test('the prose is shaped like English: function words first, a few words in every skill, a long tail', async () => {
    const counts = new Map<string, number>();
    const skillsHolding = new Map<string, number>();
    let words = 0;
    for (const file of fixture.editable) {
      const text = (await readFile(file, 'utf8')).toLowerCase();
      const body = (text.slice(text.indexOf('\n---', 3) + 4).match(/[a-z]+/g) ?? []) as string[];
      words += body.length;
      for (const word of body) counts.set(word, (counts.get(word) ?? 0) + 1);
      for (const word of new Set(body)) skillsHolding.set(word, (skillsHolding.get(word) ?? 0) + 1);
    }
    const ranked = [...counts].sort((a, b) => b[1] - a[1]);
    assert.deepEqual(
      ranked.slice(0, 10).map(([word]) => word),
      ['the', 'to', 'and', 'a', 'of', 'you', 'is', 'in', 'it', 'that'],
    );
    const held = [...skillsHolding.values()];
    // Of the 95 editable skills' bodies (83,032 words, 11,810 distinct): 6 words are in all of them, 6,831 in one.
    assert.deepEqual(
      [words, counts.size, held.filter((n) => n === 95).length, held.filter((n) => n === 1).length],
      [83_032, 11_810, 6, 6_831],
    );
    // About half of running English text is its 75 commonest words.
    const head = ranked.slice(0, 75).reduce((sum, [, n]) => sum + n, 0) / words;
    assert.equal(head > 0.45 && head < 0.6, true, `${head}`);
  });

  test('discovery loads exactly the fixture names and reports its 2 collisions', async () => {
    const result = await discoverSkills({
      home: fixture.home,
      cwd: fixture.workspace,
      env: {},
      settings: defaultSettings(),
    });
    assert.deepEqual(
      result.skills.map((s) => s.name),
      fixture.names,
    );
    assert.deepEqual(result.warnings, []);
    assert.equal(result.collisions.length, 2);
  });
});

describe('generateFixture, real shape (N = 600)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let fixture: Fixture;

  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-fixture-real-'));
    fixture = await generateFixture({ root: dir, skills: 600, seed: SEED, shape: 'real' });
  });
  after(() => cleanup());

  test('N/6 siblings in one directory, 5 % symlinks, about half the descriptions with an unquoted ": "', async () => {
    assert.equal(fixture.layout[CROWDED_DIR_INDEX]!.count, 100);
    assert.equal(fixture.layout[CROWDED_DIR_INDEX]!.dir, '~/.claude/skills');
    assert.equal(
      fixture.layout.reduce((sum, l) => sum + l.count, 0),
      600,
    );
    assert.equal(fixture.symlinks, 30);
    let colon = 0;
    for (const d of SKILL_DIRS) {
      const skillsDir = join(d.base === 'home' ? fixture.home : fixture.workspace, d.dir);
      for (const entry of await readdir(skillsDir)) {
        const text = await readFile(join(skillsDir, entry, 'SKILL.md'), 'utf8');
        const description = /^description: (.*)$/m.exec(text)![1]!;
        if (!description.startsWith('"') && description.includes(': ')) colon++;
      }
    }
    assert.equal(colon > 240 && colon < 360, true, `${colon} of 600`);
  });

  test('discovery loads every name without a warning: the unquoted ": " is read by the quoting pass', async () => {
    const result = await discoverSkills({
      home: fixture.home,
      cwd: fixture.workspace,
      env: {},
      settings: defaultSettings(),
    });
    assert.deepEqual(
      result.skills.map((s) => s.name),
      fixture.names,
    );
    assert.deepEqual(result.warnings, []);
    const colonSkill = result.skills.find((s) => s.description.includes('. Use when: '));
    assert.notEqual(colonSkill, undefined);
  });
});

describe('generateFixture, agents shape (N = 120)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let fixture: Fixture;
  const ALL_DIRS = [...SKILL_DIRS, ...AGENT_DIRS];
  const dirPath = (d: (typeof ALL_DIRS)[number]): string =>
    join(d.base === 'home' ? fixture.home : fixture.workspace, d.dir);

  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-fixture-agents-'));
    fixture = await generateFixture({ root: dir, skills: 120, seed: SEED, shape: 'agents' });
  });
  after(() => cleanup());

  test('the directories of the spread shape, then the roots only other agents read, by weight', async () => {
    // The weights sum to 120: N = 120 puts exactly each weight in its directory.
    const expected = [...EXPECTED_COUNTS, 4, 4, 4, 3, 3, 2];
    assert.deepEqual(
      fixture.layout.map((l) => l.dir),
      [
        ...SKILL_DIRS.map((d) => join(d.base === 'home' ? '~' : '.', d.dir)),
        '.gemini/skills',
        '~/.gemini/skills',
        '~/.copilot/skills',
        '.goose/skills',
        '~/.config/goose/skills',
        '~/.config/agents/skills',
      ],
    );
    assert.deepEqual(
      fixture.layout.map((l) => l.count),
      expected,
    );
    const onDisk = await Promise.all(ALL_DIRS.map(async (d) => (await readdir(dirPath(d))).length));
    assert.deepEqual(onDisk, expected);
    assert.equal(await readFile(join(fixture.workspace, '.git', 'HEAD'), 'utf8'), 'ref: refs/heads/main\n');
    assert.deepEqual(JSON.parse(await readFile(join(fixture.home, '.gemini', 'settings.json'), 'utf8')), {
      security: { folderTrust: { enabled: false } },
    });
  });

  test('names and editable files are those of the default view: the other roots are not in it', async () => {
    const result = await discoverSkills({
      home: fixture.home,
      cwd: fixture.workspace,
      env: {},
      settings: defaultSettings(),
    });
    assert.deepEqual(
      result.skills.map((s) => s.name),
      fixture.names,
    );
    assert.deepEqual(result.warnings, []);
    const defaultDirs = SKILL_DIRS.map(dirPath);
    for (const file of fixture.editable) assert.equal(defaultDirs.includes(join(file, '..', '..')), true, file);
    const agentOnly = (await Promise.all(AGENT_DIRS.map(async (d) => readdir(dirPath(d))))).flat();
    assert.equal(agentOnly.length, 20);
    // 118 distinct names (2 collisions); the 2 entries of those roots whose name a default directory holds too are
    // loaded from there: 118 − 18 = 100 names in the default view.
    assert.equal(agentOnly.filter((name) => fixture.names.includes(name)).length, 2);
    assert.equal(fixture.names.length, 100);
    assert.equal(fixture.editable.length, 97);
  });

  test("each agent's own root is read by that agent: Gemini CLI's (trusted workspace), Copilot's, Goose's", async () => {
    const views = await computeAgentViews({
      home: fixture.home,
      cwd: fixture.workspace,
      env: agentEnv({}),
      texts: new AgentFileTexts(),
      symlinks: 'contain',
      discoverProfile: (profile) =>
        discoverSkills({
          home: fixture.home,
          cwd: fixture.workspace,
          env: {},
          settings: { ...defaultSettings(), profile },
        }),
    });
    const readsFrom = (id: ViewId): Set<string> =>
      new Set((views.views.get(id)?.skills ?? []).map((skill) => join(skill.filePath, '..', '..')));
    const expectations: Array<[ViewId, string[]]> = [
      ['gemini-cli', ['.gemini/skills', '~/.gemini/skills', '.agents/skills', '~/.agents/skills']],
      ['copilot-cli', ['~/.copilot/skills', '.github/skills', '.agents/skills', '.claude/skills']],
      ['vscode', ['~/.copilot/skills', '.github/skills']],
      ['goose', ['.goose/skills', '~/.config/goose/skills', '~/.config/agents/skills', '.agents/skills']],
      ['codex', ['.codex/skills', '~/.codex/skills', '.agents/skills', '~/.agents/skills']],
    ];
    for (const [id, dirs] of expectations) {
      const read = readsFrom(id);
      for (const shown of dirs) {
        const d = ALL_DIRS.find((x) => join(x.base === 'home' ? '~' : '.', x.dir) === shown)!;
        assert.equal(read.has(dirPath(d)), true, `${id} reads ${shown}`);
      }
    }
  });
});
