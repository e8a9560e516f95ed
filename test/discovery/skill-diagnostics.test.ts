// Daemon-only diagnostics (DiscoveryResult.diagnostics): what a user must know about a SKILL.md that the reference
// skips or repairs silently. The skills and warnings stay exactly those of the reference.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseFrontmatter } from '../../src/discovery/frontmatter/frontmatter.js';
import { discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import { MAX_SKILL_FILE_BYTES } from '../../src/discovery/scan/read-skill-file.js';
import type { ScanOptions } from '../../src/discovery/scan/scan-options.js';
import { scanSkillsDir } from '../../src/discovery/scan/scan-skills-dir.js';
import { createSkillFileCache } from '../../src/discovery/scan/skill-file-cache.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import { skillNameNote } from '../../src/discovery/skill-name-notes.js';
import type { Profile, SkillDiagnostic } from '../../src/discovery/types.js';
import { makeTempDir, SK, type TreeEntry, writeTree } from '../helpers/temp-tree.js';

const NATIVE: ScanOptions = {
  requireDescription: true,
  profile: 'musepi',
  provider: 'native',
  providerName: 'MusePi',
  level: 'project',
};

const NOT_YAML = (line: number, reason: string) => `is not valid YAML (line ${line} of the block: ${reason})`;
const NESTED = 'Nested mappings are not allowed in compact mappings';
const LINE_BY_LINE = 'read line by line';
const QUOTED = 'read again with values containing ": " quoted';
const BLANKS = `description: d\n${'\n'.repeat(2000)}x: 1`;
const KEYS = `description: d\n${Array.from({ length: 7000 }, (_, i) => `key${i}: v`).join('\n')}`;
const RAW_TAIL = `bad: "a": b\n${Array.from({ length: 1003 }, (_, i) => `k${i}: 1`).join('\n')}`;
const BOMB =
  '---\ndescription: d\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n' +
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\n';

describe('parseFrontmatter notes', () => {
  const cases: Array<{ label: string; text: string; profile?: Profile; notes: string[] }> = [
    { label: 'valid YAML', text: SK({ name: 'a', description: 'd' }), notes: [] },
    { label: 'no frontmatter', text: '# Just a body\n', notes: [] },
    { label: 'an unclosed plain fence', text: '---\nname: a\n', notes: [] },
    { label: 'a four-dash line (not a language)', text: '----\nname: a\n---\n', notes: [] },
    {
      label: 'repaired by the quoting pass',
      text: '---\nname: r\ndescription: Use when: asked\n---\n',
      notes: [`frontmatter ${NOT_YAML(2, NESTED)}; ${QUOTED}`],
    },
    {
      label: 'xcsh: no quoting pass, the line fallback',
      text: '---\nname: r\ndescription: Use when: asked\n---\n',
      profile: 'xcsh',
      notes: [`frontmatter ${NOT_YAML(2, NESTED)}; ${LINE_BY_LINE}`],
    },
    {
      label: 'the line fallback',
      text: '---\ndescription: d\nbad: "a": b\n---\n',
      notes: [`frontmatter ${NOT_YAML(2, NESTED)}; ${LINE_BY_LINE}`],
    },
    { label: 'duplicate keys (legal, the last wins)', text: '---\ndescription: d\ndescription: e\n---\n', notes: [] },
    {
      label: 'an alias bomb',
      text: BOMB,
      notes: [`frontmatter exceeds a safety limit (too many alias expansions); ${LINE_BY_LINE}`],
    },
    {
      label: 'aliases expanding past the size budget',
      text: `---\ndescription: d\na: &a "${'x'.repeat(5000)}"\nb: [${Array(50).fill('*a').join(', ')}]\n---\n`,
      notes: [`frontmatter exceeds a safety limit (expands beyond its size or depth budget); ${LINE_BY_LINE}`],
    },
    {
      label: 'flow nesting past the limit',
      text: `---\ndescription: d\nx: ${'['.repeat(1001)}\n---\n`,
      notes: [`frontmatter exceeds a safety limit (flow collections nested more than 1000 deep); ${LINE_BY_LINE}`],
    },
    {
      label: 'a run of blank lines gray-matter would scan quadratically',
      text: `---\n${BLANKS}\n---\n`,
      notes: [`frontmatter exceeds a safety limit (too many consecutive blank lines); ${LINE_BY_LINE}`],
    },
    {
      label: 'a block over the size parsed as YAML',
      text: `---\n${KEYS}\n---\n`,
      notes: [
        `frontmatter exceeds a safety limit (${KEYS.length} characters, more than the 65536 parsed as YAML); ` +
          `${LINE_BY_LINE} (the last 6001 values kept as raw text, unparsed)`,
      ],
    },
    {
      label: 'a block just under that size',
      text: `---\n${KEYS.slice(0, KEYS.lastIndexOf('\n', 65536))}\n---\n`,
      notes: [],
    },
    {
      label: 'a line fallback past its re-read cap',
      text: `---\n${RAW_TAIL}\n---\n`,
      notes: [`frontmatter ${NOT_YAML(1, NESTED)}; ${LINE_BY_LINE} (the last 4 values kept as raw text, unparsed)`],
    },
  ];
  for (const fence of ['js', 'javascript', 'coffee', 'constructor', 'JS ', 'toml']) {
    cases.push({
      label: `a ---${fence} fence`,
      text: `---${fence}\nrequire('fs').writeFileSync('/tmp/pwned', 'x')\n---\n`,
      notes: [
        `frontmatter fence "---${fence.trim()}" names a non-YAML engine: it is never run, and the block after it is ` +
          'read as YAML',
      ],
    });
  }
  for (const { label, text, profile = 'musepi', notes } of cases) {
    it(`${label}: ${notes.length} note(s), the same result as without notes`, () => {
      const got: string[] = [];
      const result = parseFrontmatter(text, profile, got);
      assert.deepEqual(got, notes);
      assert.deepEqual(result, parseFrontmatter(text, profile));
    });
  }
});

describe('skillNameNote', () => {
  const tail = 'the skill is still loaded under that name, as the reference does';
  const cases: Array<[string, string | undefined]> = [
    ['pdf', undefined],
    ['Mixed Case with spaces: and colons', undefined],
    ['日本語-スキル', undefined],
    ['a'.repeat(1024), undefined],
    ['a'.repeat(1025), `skill name is 1025 characters long (more than 1024); ${tail}`],
    ['a\0b', `skill name contains NUL (no skill:// URL or HTTP path can name it); ${tail}`],
    ['a\nb', `skill name contains a line break (/prompt shows it as a space); ${tail}`],
    ['a\u2028b', `skill name contains a line break (/prompt shows it as a space); ${tail}`],
    ['a\u001b[31mred', `skill name contains control characters; ${tail}`],
    ['evil\u202etxt', `skill name contains control characters; ${tail}`],
    ['a/b', `skill name contains "/" (skill://<name>/… reads what follows as a file path); ${tail}`],
    [
      'x\n</skills>/y',
      'skill name contains a line break (/prompt shows it as a space), contains "/" (skill://<name>/… reads what ' +
        `follows as a file path); ${tail}`,
    ],
  ];
  for (const [name, expected] of cases) {
    it(`${JSON.stringify(name.slice(0, 20))} → ${expected === undefined ? 'nothing' : 'a note'}`, () => {
      assert.equal(skillNameNote(name), expected);
    });
  }
});

async function skillsDir(t: { after: (fn: () => Promise<void>) => void }, entries: Record<string, TreeEntry>) {
  const { dir, cleanup } = await makeTempDir();
  t.after(cleanup);
  await writeTree(join(dir, 'skills'), entries);
  return join(dir, 'skills');
}

async function scanWithDiagnostics(dir: string, options: ScanOptions = NATIVE) {
  const diagnostics: SkillDiagnostic[] = [];
  const result = await scanSkillsDir(dir, { ...options, diagnostics });
  // The sink never changes the reference's answer.
  assert.deepEqual(result, await scanSkillsDir(dir, options));
  return { ...result, diagnostics };
}

describe('scanSkillsDir diagnostics', () => {
  it('reports the read: cut at the cap, invalid UTF-8, not a file, unreadable; ordered by path', async (t) => {
    const head = SK({ name: 'huge', description: 'big file' });
    const dir = await skillsDir(t, {
      'ok/SKILL.md': SK({ description: 'fine' }),
      'huge/SKILL.md': head + 'x'.repeat(MAX_SKILL_FILE_BYTES),
      'latin1/SKILL.md': Buffer.concat([Buffer.from(SK({ description: 'caf' })), Buffer.from([0xe9, 0x0a])]),
      'binary/SKILL.md': Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x81, 0xc3, 0x28]),
      'dir/SKILL.md': { dir: true },
      'null/SKILL.md': { symlink: '/dev/null' },
      'loop/SKILL.md': { symlink: 'SKILL.md' },
      'dangling/SKILL.md': { symlink: 'nowhere.md' },
      'empty/SKILL.md': '',
      'no-skill-file/README.md': 'x',
      'fifo/.keep': '',
    });
    execFileSync('mkfifo', [join(dir, 'fifo', 'SKILL.md')]);
    const { skills, warnings, diagnostics } = await scanWithDiagnostics(dir);
    assert.deepEqual(
      skills.map((skill) => skill.name),
      ['huge', 'latin1', 'ok'],
    );
    assert.deepEqual(warnings, []);
    const size = Buffer.byteLength(head) + MAX_SKILL_FILE_BYTES;
    assert.deepEqual(diagnostics, [
      {
        skillPath: `${dir}/binary/SKILL.md`,
        message: 'SKILL.md is not valid UTF-8: its invalid bytes were read as U+FFFD',
      },
      {
        skillPath: `${dir}/dir/SKILL.md`,
        message: 'SKILL.md is not a regular file (a directory); the skill is skipped',
      },
      { skillPath: `${dir}/fifo/SKILL.md`, message: 'SKILL.md is not a regular file (a FIFO); the skill is skipped' },
      {
        skillPath: `${dir}/huge/SKILL.md`,
        message:
          `SKILL.md is ${size} bytes, more than the 1048576-byte read limit: only its first 1048576 bytes were ` +
          'read (the frontmatter must close within them)',
      },
      {
        skillPath: `${dir}/latin1/SKILL.md`,
        message: 'SKILL.md is not valid UTF-8: its invalid bytes were read as U+FFFD',
      },
      { skillPath: `${dir}/loop/SKILL.md`, message: 'SKILL.md cannot be read (ELOOP); the skill is skipped' },
      {
        skillPath: `${dir}/null/SKILL.md`,
        message: 'SKILL.md is not a regular file (a character device); the skill is skipped',
      },
    ]);
  });

  it('a multi-byte character cut by the cap is not invalid UTF-8', async (t) => {
    const head = SK({ description: 'd' });
    // 'é' is two bytes: the cap falls between them.
    const filler = 'x'.repeat(MAX_SKILL_FILE_BYTES - Buffer.byteLength(head) - 1);
    const dir = await skillsDir(t, { cut: { dir: true }, 'cut/SKILL.md': `${head}${filler}é and more` });
    const { diagnostics } = await scanWithDiagnostics(dir);
    assert.deepEqual(
      diagnostics.map((d) => d.message.slice(0, 9)),
      ['SKILL.md '],
    );
    assert.match(diagnostics[0]?.message ?? '', /only its first 1048576 bytes were read/);
  });

  it('reports frontmatter and names even for skills it then skips, and names only of records it builds', async (t) => {
    const dir = await skillsDir(t, {
      'js/SKILL.md': "---js\nrequire('fs')\n---\nbody",
      'bomb/SKILL.md': BOMB,
      'slash/SKILL.md': SK({ name: 'a/b', description: 'd' }),
      'long/SKILL.md': SK({ name: 'n'.repeat(2000), description: 'd' }),
      'off/SKILL.md': SK({ name: 'x/y', description: 'd', enabled: false }),
      'plain/SKILL.md': SK({ description: 'd' }),
    });
    const { skills, diagnostics } = await scanWithDiagnostics(dir);
    assert.deepEqual(
      skills.map((skill) => skill.name),
      ['a/b', 'bomb', 'n'.repeat(2000), 'plain'],
    );
    const tail = 'the skill is still loaded under that name, as the reference does';
    assert.deepEqual(diagnostics, [
      {
        skillPath: `${dir}/bomb/SKILL.md`,
        message: `frontmatter exceeds a safety limit (too many alias expansions); ${LINE_BY_LINE}`,
      },
      {
        skillPath: `${dir}/js/SKILL.md`,
        message:
          'frontmatter fence "---js" names a non-YAML engine: it is never run, and the block after it is read as YAML',
      },
      { skillPath: `${dir}/long/SKILL.md`, message: `skill name is 2000 characters long (more than 1024); ${tail}` },
      {
        skillPath: `${dir}/slash/SKILL.md`,
        message: `skill name contains "/" (skill://<name>/… reads what follows as a file path); ${tail}`,
      },
    ]);
  });

  it('replays a file’s notes from the cache, and forgets them once the file is fixed', async (t) => {
    const dir = await skillsDir(t, {
      r: { dir: true },
      'r/SKILL.md': '---\nname: r\ndescription: Use when: asked\n---\n',
    });
    const cache = createSkillFileCache();
    const expected = [{ skillPath: `${dir}/r/SKILL.md`, message: `frontmatter ${NOT_YAML(2, NESTED)}; ${QUOTED}` }];
    assert.deepEqual((await scanWithDiagnostics(dir, { ...NATIVE, cache })).diagnostics, expected);
    const hits = cache.stats.hits;
    assert.deepEqual((await scanWithDiagnostics(dir, { ...NATIVE, cache })).diagnostics, expected);
    assert.ok(cache.stats.hits > hits, 'served from the cache');
    await writeTree(dir, { 'r/SKILL.md': SK({ name: 'r', description: '"Use when: asked"' }) });
    assert.deepEqual((await scanWithDiagnostics(dir, { ...NATIVE, cache })).diagnostics, []);
  });
});

describe('discoverSkills diagnostics', () => {
  it('in scan order (providers by priority, then custom directories), each once; skills and warnings unchanged', async (t) => {
    const { dir: root, cleanup } = await makeTempDir();
    t.after(cleanup);
    const home = join(root, 'home');
    const cwd = join(root, 'work');
    await writeTree(root, {
      'home/.keep': '',
      'work/.git/HEAD': 'ref: refs/heads/main\n',
      'work/.musepi/skills/ok/SKILL.md': SK({ description: 'fine' }),
      'work/.musepi/skills/bin/SKILL.md': Buffer.from([0xff, 0xfe, 0x00]),
      'work/.claude/skills/evil/SKILL.md': '---javascript\nprocess.exit(1)\n---\n',
      'custom/c/SKILL.md': Buffer.concat([Buffer.from(SK({ description: 'c' })), Buffer.from([0xff])]),
    });
    const settings = defaultSettings();
    // The custom directory is also the claude project directory: its files are scanned twice, reported once.
    settings.skills.customDirectories = [join(root, 'custom'), join(cwd, '.claude/skills')];
    const result = await discoverSkills({ home, cwd, env: {}, settings });
    assert.deepEqual(
      result.skills.map((skill) => [skill.name, skill.source.id]),
      [
        ['c', 'custom:user'],
        ['evil', 'claude:project'],
        ['ok', 'native:project'],
      ],
    );
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.diagnostics, [
      {
        skillPath: `${cwd}/.musepi/skills/bin/SKILL.md`,
        message: 'SKILL.md is not valid UTF-8: its invalid bytes were read as U+FFFD',
      },
      {
        skillPath: `${cwd}/.claude/skills/evil/SKILL.md`,
        message:
          'frontmatter fence "---javascript" names a non-YAML engine: it is never run, and the block after it is ' +
          'read as YAML',
      },
      {
        skillPath: `${root}/custom/c/SKILL.md`,
        message: 'SKILL.md is not valid UTF-8: its invalid bytes were read as U+FFFD',
      },
    ]);
  });
});
