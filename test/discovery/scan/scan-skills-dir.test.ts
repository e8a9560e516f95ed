import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_SKILL_FILE_BYTES, readSkillFile } from '../../../src/discovery/scan/read-skill-file.js';
import type { ScanOptions } from '../../../src/discovery/scan/scan-options.js';
import { scanSkillsDir } from '../../../src/discovery/scan/scan-skills-dir.js';
import type { Skill } from '../../../src/discovery/types.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../../helpers/temp-tree.js';

const NATIVE: ScanOptions = {
  requireDescription: true,
  profile: 'musepi',
  provider: 'native',
  providerName: 'MusePi',
  level: 'project',
};
const OPEN: ScanOptions = { ...NATIVE, requireDescription: false };

/** A fresh temp dir holding `tree` under `skills/`; returns the skills dir. */
async function tree(t: { after: (fn: () => Promise<void>) => void }, entries: Record<string, TreeEntry>) {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(join(dir, 'skills'), entries);
  return { root: dir, skills: join(dir, 'skills') };
}

function names(skills: Skill[]): string[] {
  return skills.map((skill) => skill.name);
}

describe('scanSkillsDir: the skill record (docs/discovery.md §1)', () => {
  it('builds the record of worked example 1', async (t) => {
    const { skills: dir } = await tree(t, { 'pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) });
    assert.deepEqual(await scanSkillsDir(dir, NATIVE), {
      warnings: [],
      skills: [
        {
          name: 'pdf',
          description: 'PDF tools',
          filePath: `${dir}/pdf/SKILL.md`,
          baseDir: `${dir}/pdf`,
          hide: false,
          source: {
            id: 'native:project',
            provider: 'native',
            providerName: 'MusePi',
            level: 'project',
            path: `${dir}/pdf/SKILL.md`,
          },
          frontmatter: { name: 'pdf', description: 'PDF tools' },
        },
      ],
    });
  });

  it('takes provider, display name and level from the options', async (t) => {
    const { skills: dir } = await tree(t, { 'x/SKILL.md': SK({ description: 'd' }) });
    const options: ScanOptions = { ...NATIVE, provider: 'custom', providerName: 'Custom', level: 'user' };
    const [skill] = (await scanSkillsDir(dir, options)).skills;
    assert.deepEqual(skill?.source, {
      id: 'custom:user',
      provider: 'custom',
      providerName: 'Custom',
      level: 'user',
      path: `${dir}/x/SKILL.md`,
    });
  });

  const nameCases: Array<[string, string, string]> = [
    ['a frontmatter name', 'name: pdf-tools', 'pdf-tools'],
    ['a name with spaces around it, trimmed', "name: '  spaced  '", 'spaced'],
    ['a blank name: the directory', "name: '   '", 'dir-name'],
    ['an empty name: the directory', 'name:', 'dir-name'],
    ['a numeric name: the directory', 'name: 42', 'dir-name'],
    ['a list name: the directory', 'name: [a]', 'dir-name'],
    ['no name: the directory', 'other: 1', 'dir-name'],
    ['case kept', 'name: PDF', 'PDF'],
  ];
  for (const [label, line, expected] of nameCases) {
    it(`name: ${label}`, async (t) => {
      const { skills: dir } = await tree(t, { 'dir-name/SKILL.md': `---\n${line}\ndescription: d\n---\n` });
      assert.deepEqual(names((await scanSkillsDir(dir, NATIVE)).skills), [expected]);
    });
  }

  const descriptionCases: Array<[string, string, string]> = [
    ['a string, verbatim', 'description: "  padded  "', '  padded  '],
    ['a list (non-empty, not a string): ""', 'description: [a, b]', ''],
    ['a number: ""', 'description: 7', ''],
    ['true: ""', 'description: true', ''],
    ['a map: ""', 'description: {a: 1}', ''],
  ];
  for (const [label, line, expected] of descriptionCases) {
    it(`description: ${label} (passes requireDescription)`, async (t) => {
      const { skills: dir } = await tree(t, { 's/SKILL.md': `---\n${line}\n---\n` });
      const { skills } = await scanSkillsDir(dir, NATIVE);
      assert.deepEqual(
        skills.map((skill) => skill.description),
        [expected],
      );
    });
  }

  const hideCases: Array<[string, string, boolean]> = [
    ['hide: true', 'hide: true', true],
    ['hide: false', 'hide: false', false],
    ['hide: "true" (a string)', 'hide: "true"', false],
    ['hide: yes (a string in YAML 1.2)', 'hide: yes', false],
    ['hide: 1', 'hide: 1', false],
    ['disable-model-invocation: true', 'disable-model-invocation: true', true],
    ['disableModelInvocation: true', 'disableModelInvocation: true', true],
    ['disable-model-invocation: "true"', 'disable-model-invocation: "true"', false],
    ['neither', 'other: true', false],
  ];
  for (const [label, line, expected] of hideCases) {
    it(`hide: ${label} → ${expected}; xcsh always false`, async (t) => {
      const { skills: dir } = await tree(t, { 's/SKILL.md': `---\ndescription: d\n${line}\n---\n` });
      const musepi = (await scanSkillsDir(dir, NATIVE)).skills;
      const xcsh = (await scanSkillsDir(dir, { ...NATIVE, profile: 'xcsh' })).skills;
      assert.deepEqual(
        musepi.map((skill) => skill.hide),
        [expected],
      );
      assert.deepEqual(
        xcsh.map((skill) => skill.hide),
        [false],
      );
    });
  }

  it('keeps the normalised frontmatter, unknown keys included', async (t) => {
    const text =
      '---\ndescription: d\nallowed-tools: [Read]\nglobs: ["*.ts"]\nalways-apply: true\ncustom-key: {sub-key: 1}\n---\n';
    const { skills: dir } = await tree(t, { 's/SKILL.md': text });
    const [skill] = (await scanSkillsDir(dir, NATIVE)).skills;
    assert.deepEqual(skill?.frontmatter, {
      description: 'd',
      allowedTools: ['Read'],
      globs: ['*.ts'],
      alwaysApply: true,
      customKey: { subKey: 1 },
    });
  });

  it('reads a CRLF SKILL.md', async (t) => {
    const { skills: dir } = await tree(t, { 's/SKILL.md': '---\r\nname: crlf\r\ndescription: d\r\n---\r\nBody\r\n' });
    assert.deepEqual(names((await scanSkillsDir(dir, NATIVE)).skills), ['crlf']);
  });
});

describe('scanSkillsDir: which files are skills (docs/discovery.md §3)', () => {
  const requireDescriptionCases: Array<[string, string, boolean]> = [
    ['missing', 'name: s', false],
    ['null', 'description: null', false],
    ['~', 'description: ~', false],
    ['empty string', 'description: ""', false],
    ['0', 'description: 0', false],
    ['false', 'description: false', false],
    ['a space', 'description: " "', true],
    ['"0" (a string)', 'description: "0"', true],
    ['"false" (a string)', 'description: "false"', true],
    ['1', 'description: 1', true],
    ['an empty list (an object)', 'description: []', true],
  ];
  for (const [label, line, kept] of requireDescriptionCases) {
    it(`requireDescription, description ${label}: ${kept ? 'kept' : 'skipped'}; kept without the requirement`, async (t) => {
      const { skills: dir } = await tree(t, { s: { dir: true }, 's/SKILL.md': `---\n${line}\n---\n` });
      assert.deepEqual(names((await scanSkillsDir(dir, NATIVE)).skills), kept ? ['s'] : []);
      assert.deepEqual(names((await scanSkillsDir(dir, OPEN)).skills), ['s']);
    });
  }

  const enabledCases: Array<[string, boolean]> = [
    ['enabled: false', false],
    ['enabled: true', true],
    ['enabled: "false"', true],
    ['enabled: no', true],
    ['enabled: 0', true],
    ['enabled: null', true],
  ];
  for (const [line, kept] of enabledCases) {
    it(`${line}: ${kept ? 'kept' : 'skipped'}`, async (t) => {
      const { skills: dir } = await tree(t, { 's/SKILL.md': `---\ndescription: d\n${line}\n---\n` });
      for (const options of [NATIVE, OPEN]) {
        const result = await scanSkillsDir(dir, options);
        assert.deepEqual(
          { names: names(result.skills), warnings: result.warnings },
          { names: kept ? ['s'] : [], warnings: [] },
        );
      }
    });
  }

  const layoutCases: Array<[string, Record<string, TreeEntry>, string[]]> = [
    ['a 0-byte SKILL.md is skipped', { 'empty/SKILL.md': '', 'ok/SKILL.md': SK({ d: 1 }) }, ['ok']],
    ['a whitespace-only SKILL.md is a skill named after its directory', { 'blank/SKILL.md': '\n \n' }, ['blank']],
    ['a SKILL.md without frontmatter is a skill named after its directory', { 'plain/SKILL.md': '# Hi\n' }, ['plain']],
    ['a directory named SKILL.md is skipped', { 'dir/SKILL.md': { dir: true } }, []],
    ['a hidden directory is skipped', { '.hidden/SKILL.md': SK({ name: 'h' }), 'v/SKILL.md': SK({}) }, ['v']],
    ['files directly in the directory are ignored', { 'SKILL.md': SK({ name: 'top' }), 'loose.md': SK({}) }, []],
    ['a nested group/skill/SKILL.md is not found', { 'group/skill/SKILL.md': SK({ name: 'deep' }) }, []],
    ['a lower-case skill.md is not found', { 'lower/skill.md': SK({ name: 'lower' }) }, []],
    ['a Skill.md is not found', { 'mixed/Skill.md': SK({ name: 'mixed' }) }, []],
    ['a directory without SKILL.md is ignored', { 'nothing/README.md': 'x' }, []],
    ['a dangling symlink is ignored', { dangling: { symlink: '../does-not-exist' } }, []],
    ['a symlink to a file is ignored', { 'target.txt': 'x', linked: { symlink: 'target.txt' } }, []],
    [
      'a symlinked SKILL.md is followed',
      { 'real.md': SK({ name: 'via-link' }), 's/SKILL.md': { symlink: '../real.md' } },
      ['via-link'],
    ],
    ['a dangling SKILL.md symlink is skipped', { 's/SKILL.md': { symlink: '../missing.md' } }, []],
    ['a SKILL.md symlinked to a directory is skipped', { d: { dir: true }, 's/SKILL.md': { symlink: '../d' } }, []],
  ];
  for (const [label, entries, expected] of layoutCases) {
    it(label, async (t) => {
      const { skills: dir } = await tree(t, entries);
      assert.deepEqual(await scanSkillsDir(dir, OPEN).then((r) => ({ names: names(r.skills), warnings: r.warnings })), {
        names: expected,
        warnings: [],
      });
    });
  }

  it('finds a symlinked skill directory; paths go through the link, unresolved', async (t) => {
    const { root, skills: dir } = await tree(t, { linked: { symlink: '../elsewhere/real' } });
    await writeTree(root, { 'elsewhere/real/SKILL.md': SK({ name: 'linked-skill', description: 'd' }) });
    const [skill] = (await scanSkillsDir(dir, NATIVE)).skills;
    assert.equal(skill?.name, 'linked-skill');
    assert.equal(skill?.filePath, `${dir}/linked/SKILL.md`);
    assert.equal(skill?.baseDir, `${dir}/linked`);
    assert.equal(skill?.source.path, `${dir}/linked/SKILL.md`);
  });

  it('says why a skill directory linked to a missing target is skipped (a path outside the mounted volumes)', async (t) => {
    const { skills: dir } = await tree(t, {
      gone: { symlink: '/mnt/not-mounted/skills/gone' },
      'kept/SKILL.md': SK({ description: 'd' }),
    });
    const diagnostics: NonNullable<ScanOptions['diagnostics']> = [];
    const result = await scanSkillsDir(dir, { ...NATIVE, diagnostics });
    assert.deepEqual(names(result.skills), ['kept']);
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(diagnostics, [
      {
        skillPath: `${dir}/gone/SKILL.md`,
        message:
          'the skill directory is a symbolic link to /mnt/not-mounted/skills/gone, which does not exist here (in a ' +
          'container: a path outside the mounted volumes); the skill is skipped',
      },
    ]);
  });

  it('scans through a symlinked skills directory without resolving it', async (t) => {
    const { root } = await tree(t, { 'a/SKILL.md': SK({ description: 'd' }) });
    await writeTree(root, { alias: { symlink: 'skills' } });
    const [skill] = (await scanSkillsDir(join(root, 'alias'), NATIVE)).skills;
    assert.equal(skill?.filePath, `${root}/alias/a/SKILL.md`);
  });

  it('a missing directory gives nothing and no warning', async (t) => {
    const { root } = await tree(t, {});
    assert.deepEqual(await scanSkillsDir(join(root, 'nope'), NATIVE), { skills: [], warnings: [] });
    assert.deepEqual(await scanSkillsDir(join(root, 'nope', 'deeper'), NATIVE), { skills: [], warnings: [] });
  });

  it('a file where the directory should be gives the exact warning', async (t) => {
    const { root } = await tree(t, { 'x/SKILL.md': SK({}) });
    const file = join(root, 'a-file');
    await writeFile(file, 'x');
    assert.deepEqual(await scanSkillsDir(file, NATIVE), {
      skills: [],
      warnings: [`Failed to read skills directory: ${file} (Error: ENOTDIR: not a directory, scandir '${file}')`],
    });
    const below = join(file, 'skills');
    assert.deepEqual(await scanSkillsDir(below, NATIVE), {
      skills: [],
      warnings: [`Failed to read skills directory: ${below} (Error: ENOTDIR: not a directory, scandir '${below}')`],
    });
  });

  it('a directory that cannot be listed gives the exact warning', { skip: process.getuid?.() === 0 }, async (t) => {
    // Skipped as root: root lists a mode-000 directory without error.
    const { skills: dir } = await tree(t, { 'x/SKILL.md': SK({}) });
    const { chmod } = await import('node:fs/promises');
    await chmod(dir, 0o000);
    t.after(() => chmod(dir, 0o755));
    assert.deepEqual(await scanSkillsDir(dir, NATIVE), {
      skills: [],
      warnings: [`Failed to read skills directory: ${dir} (Error: EACCES: permission denied, scandir '${dir}')`],
    });
  });
});

describe('scanSkillsDir: order (docs/discovery.md §1)', () => {
  it('sorts by lower-cased name in code-unit order, then exact name, then filePath', async (t) => {
    const entries: Record<string, TreeEntry> = {};
    const layout: Array<[string, string]> = [
      ['d1', 'beta'],
      ['d2', 'alpha'],
      ['d3', 'Alpha'],
      ['d4', 'alpha'],
      ['d5', 'Zeta'],
      ['d6', '_under'],
      ['d7', 'éclair'],
      ['d8', '[bracket'],
      ['d9', 'a-b'],
      ['d10', 'a_b'],
    ];
    for (const [dirName, name] of layout) entries[`${dirName}/SKILL.md`] = SK({ name, description: 'd' });
    const { skills: dir } = await tree(t, entries);
    const { skills } = await scanSkillsDir(dir, NATIVE);
    assert.deepEqual(
      skills.map((skill) => [skill.name, skill.filePath.slice(dir.length + 1)]),
      [
        ['[bracket', 'd8/SKILL.md'],
        ['_under', 'd6/SKILL.md'],
        ['a-b', 'd9/SKILL.md'],
        ['a_b', 'd10/SKILL.md'],
        ['Alpha', 'd3/SKILL.md'],
        ['alpha', 'd2/SKILL.md'],
        ['alpha', 'd4/SKILL.md'],
        ['beta', 'd1/SKILL.md'],
        ['Zeta', 'd5/SKILL.md'],
        ['éclair', 'd7/SKILL.md'],
      ],
    );
  });

  it('finds 10,000 skills in one directory, in order', async (t) => {
    const { root } = await tree(t, {});
    const dir = join(root, 'skills');
    const count = 10_000;
    const expected = Array.from({ length: count }, (_, i) => `skill-${String(i).padStart(5, '0')}`);
    // Written in reverse, in batches, so creation order says nothing about the expected order.
    const reversed = [...expected].reverse();
    for (let start = 0; start < count; start += 500) {
      await Promise.all(
        reversed.slice(start, start + 500).map(async (name) => {
          await mkdir(join(dir, name), { recursive: true });
          await writeFile(join(dir, name, 'SKILL.md'), `---\ndescription: ${name}\n---\n`);
        }),
      );
    }
    const { skills, warnings } = await scanSkillsDir(dir, NATIVE);
    assert.deepEqual(warnings, []);
    assert.deepEqual(names(skills), expected);
    assert.equal(skills[9_999]?.description, 'skill-09999');
  });
});

describe('scanSkillsDir: large files', () => {
  it('loads a 10 MB SKILL.md whose frontmatter is at the head, reading at most 1 MiB', async (t) => {
    const head = SK({ name: 'huge', description: 'big file' });
    const { skills: dir } = await tree(t, { 'huge/SKILL.md': head + 'x'.repeat(10 * 1024 * 1024) });
    const text = await readSkillFile(join(dir, 'huge', 'SKILL.md'));
    assert.equal(MAX_SKILL_FILE_BYTES, 1024 * 1024);
    assert.equal(text.length, MAX_SKILL_FILE_BYTES);
    assert.equal(text.startsWith(head), true);
    const { skills } = await scanSkillsDir(dir, NATIVE);
    assert.deepEqual(
      skills.map((skill) => [skill.name, skill.description]),
      [['huge', 'big file']],
    );
  });

  it('a frontmatter that closes beyond the cap is not seen', async (t) => {
    const text = `---\nname: late\ndescription: d\nfiller: ${'y'.repeat(MAX_SKILL_FILE_BYTES)}\n---\n`;
    const { skills: dir } = await tree(t, { late: { dir: true }, 'late/SKILL.md': text });
    assert.deepEqual(names((await scanSkillsDir(dir, NATIVE)).skills), []);
    assert.deepEqual(names((await scanSkillsDir(dir, OPEN)).skills), ['late']);
  });

  it('reads a small file whole and a file of exactly the cap whole', async (t) => {
    const { skills: dir } = await tree(t, { small: 'abc', exact: 'z'.repeat(MAX_SKILL_FILE_BYTES) });
    assert.equal(await readSkillFile(join(dir, 'small')), 'abc');
    assert.equal((await readSkillFile(join(dir, 'exact'))).length, MAX_SKILL_FILE_BYTES);
    assert.equal(await readSkillFile(join(dir, 'small'), 2), 'ab');
  });

  it('skips a FIFO or a device named SKILL.md without blocking', async (t) => {
    const { skills: dir } = await tree(t, {
      fifo: { dir: true },
      'zero/SKILL.md': { symlink: '/dev/zero' },
      'null/SKILL.md': { symlink: '/dev/null' },
      'ok/SKILL.md': SK({ description: 'd' }),
    });
    execFileSync('mkfifo', [join(dir, 'fifo', 'SKILL.md')]);
    assert.deepEqual(names((await scanSkillsDir(dir, OPEN)).skills), ['ok']);
    // Opened directly, a FIFO with no writer is refused at once rather than waited on.
    await assert.rejects(readSkillFile(join(dir, 'fifo', 'SKILL.md')), /not a regular file/);
  });

  it('refuses to read a directory', async (t) => {
    const { skills: dir } = await tree(t, { d: { dir: true } });
    await assert.rejects(readSkillFile(join(dir, 'd')));
  });
});
