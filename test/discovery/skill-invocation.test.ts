import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SkillsdError } from '../../src/discovery/errors.js';
import { MAX_SKILL_FILE_BYTES } from '../../src/discovery/scan/read-skill-file.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import {
  type InvocationResult,
  invokeSkill,
  parseSkillInvocation,
  stripFrontmatter,
} from '../../src/discovery/skill-invocation.js';
import type { Profile, Settings, Skill } from '../../src/discovery/types.js';
import { skillAt } from '../helpers/skill-records.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

function settingsFor(profile: Profile, enableSkillCommands = true): Settings {
  const settings = defaultSettings();
  settings.profile = profile;
  settings.skills.enableSkillCommands = enableSkillCommands;
  return settings;
}

const HINT =
  'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.';

function handled(result: InvocationResult) {
  assert.equal(result.handled, true);
  return result as Extract<InvocationResult, { handled: true }>;
}

describe('parseSkillInvocation (docs/discovery.md §7)', () => {
  // [text, profile, expected name and args or null]
  const cases: Array<[string, Profile, { name: string; args: string } | null]> = [
    // Form 1
    ['/skill:pdf', 'musepi', { name: 'pdf', args: '' }],
    ['/skill:pdf focus on tables', 'musepi', { name: 'pdf', args: 'focus on tables' }],
    ['  \n\t/skill:pdf   a  b  ', 'musepi', { name: 'pdf', args: 'a  b' }],
    ['/skill:pdf\tx', 'musepi', { name: 'pdf\tx', args: '' }],
    ['/skill:pdf\nline two', 'musepi', { name: 'pdf\nline', args: 'two' }],
    ['/skill:pdf/x y', 'musepi', { name: 'pdf/x', args: 'y' }],
    ['/skill:', 'musepi', null],
    ['/skill: pdf', 'musepi', null],
    // Form 2: other commands and shell sigils
    ['/compact /skill:pdf', 'musepi', null],
    ['/skills /skill:pdf', 'musepi', null],
    ['!echo /skill:pdf', 'musepi', null],
    ['! /skill:pdf', 'musepi', null],
    ['$ ls /skill:pdf', 'musepi', null],
    ['$$ ls /skill:pdf', 'musepi', null],
    ['$\t/skill:pdf', 'musepi', null],
    ['$\r/skill:pdf', 'musepi', null],
    ['$\n/skill:pdf', 'musepi', null],
    ['$', 'musepi', null],
    ['$$', 'musepi', null],
    ['$echo /skill:pdf', 'musepi', { name: 'pdf', args: '$echo' }],
    ['$$echo /skill:pdf', 'musepi', { name: 'pdf', args: '$$echo' }],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable in what the user typed, not a template
    ['${HOME} /skill:pdf', 'musepi', { name: 'pdf', args: '${HOME}' }],
    ['$200 /skill:pdf now', 'musepi', { name: 'pdf', args: '$200 now' }],
    // Form 3
    ['fix the bug /skill:pdf focus on auth', 'musepi', { name: 'pdf', args: 'fix the bug focus on auth' }],
    ['fix the bug /skill:pdf', 'musepi', { name: 'pdf', args: 'fix the bug' }],
    ['please\t/skill:pdf\tnow', 'musepi', { name: 'pdf', args: 'please now' }],
    [
      'line one\nline two /skill:pdf\nline three\nline four',
      'musepi',
      {
        name: 'pdf',
        args: 'line one\nline two line three\nline four',
      },
    ],
    ['use /skill:a and /skill:b', 'musepi', { name: 'a', args: 'use and /skill:b' }],
    ['use /skill:pdf/x', 'musepi', null],
    ['use /skill:pdf/x then /skill:pdf', 'musepi', { name: 'pdf', args: 'use /skill:pdf/x then' }],
    ['https://example.com/skill:pdf', 'musepi', null],
    ['use/skill:pdf', 'musepi', null],
    ['use /skill: pdf', 'musepi', null],
    ['no command here', 'musepi', null],
    ['', 'musepi', null],
    // The omp profile has MusePi semantics
    ['fix /skill:pdf', 'omp', { name: 'pdf', args: 'fix' }],
    // xcsh: form 1 only
    ['/skill:pdf focus', 'xcsh', { name: 'pdf', args: 'focus' }],
    ['fix the bug /skill:pdf', 'xcsh', null],
    ['$echo /skill:pdf', 'xcsh', null],
  ];
  for (const [text, profile, expected] of cases) {
    it(`${JSON.stringify(text)} (${profile}) → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseSkillInvocation(text, profile), expected);
    });
  }
});

describe('stripFrontmatter', () => {
  const cases: Array<[string, string, string]> = [
    ['a block', '---\nname: x\n---\n\n# Body\n', '\n# Body\n'],
    ['no block', '# Body\n', '# Body\n'],
    ['CRLF lines', '---\r\nname: x\r\n---\r\n\r\nBody\r\n', '---\r\nname: x\r\n---\r\n\r\nBody\r\n'],
    ['an empty ---/--- block', '---\n---\n# Body\n', '---\n---\n# Body\n'],
    ['one blank line inside', '---\n\n---\nBody', 'Body'],
    ['an unclosed block', '---\nname: x\n# Body\n', '---\nname: x\n# Body\n'],
    ['a closing line at the very end without newline', '---\nname: x\n---', '---\nname: x\n---'],
    ['a BOM first', '\uFEFF---\nname: x\n---\nBody', '\uFEFF---\nname: x\n---\nBody'],
    ['only the first closing line', '---\na: 1\n---\nB\n---\nC', 'B\n---\nC'],
  ];
  for (const [label, input, expected] of cases) {
    it(label, () => assert.equal(stripFrontmatter(input), expected));
  }
});

describe('invokeSkill (docs/discovery.md §7)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let pdf: Skill;
  let skills: Skill[];
  const musepi = settingsFor('musepi');

  before(async () => {
    ({ dir, cleanup } = await makeTempDir());
    await writeTree(dir, {
      'P/.git': { dir: true },
      'P/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'P/.musepi/skills/secret/SKILL.md': SK({ name: 'secret', description: 'd', hide: true }),
      'P/.musepi/skills/other/SKILL.md': '---\nname: other\ndescription: d\n---\n\nOther body\n',
    });
    pdf = skillAt('pdf', join(dir, 'P/.musepi/skills/pdf'));
    skills = [
      pdf,
      skillAt('secret', join(dir, 'P/.musepi/skills/secret'), true),
      skillAt('other', join(dir, 'P/.musepi/skills/other')),
    ];
  });
  after(() => cleanup());

  async function withSkillFile(name: string, content: string | Buffer): Promise<Skill> {
    await writeTree(dir, { [`S/${name}/SKILL.md`]: content });
    return skillAt(name, join(dir, `S/${name}`));
  }

  describe('worked example 11 (§11)', () => {
    it('handles /skill:pdf focus on tables', async () => {
      const result = handled(await invokeSkill('/skill:pdf focus on tables', skills, musepi));
      assert.deepEqual(result.details, { name: 'pdf', path: pdf.filePath, args: 'focus on tables', lineCount: 1 });
      assert.equal(
        result.message,
        [
          '[IMPORTANT: User invoked the "pdf" skill; follow its instructions. Full skill below.]',
          '',
          '# Body',
          '',
          '---',
          '',
          `[Skill directory: ${pdf.baseDir}]`,
          HINT,
          'User: focus on tables',
        ].join('\n'),
      );
    });
    it('handles an inline command with text around it', async () => {
      const result = handled(await invokeSkill('fix the bug /skill:pdf focus on auth', skills, musepi));
      assert.equal(result.details.args, 'fix the bug focus on auth');
      assert.ok(result.message.endsWith('\nUser: fix the bug focus on auth'));
    });
    for (const text of ['/compact /skill:pdf', '!echo /skill:pdf', 'https://example.com/skill:pdf']) {
      it(`does not handle ${JSON.stringify(text)}`, async () => {
        assert.deepEqual(await invokeSkill(text, skills, musepi), { handled: false });
      });
    }
  });

  it('leaves out the User line and args when there are none', async () => {
    const result = handled(await invokeSkill('/skill:pdf', skills, musepi));
    assert.equal(result.details.args, undefined);
    assert.deepEqual(result.details, { name: 'pdf', path: pdf.filePath, lineCount: 1 });
    assert.equal(
      result.message,
      [
        '[IMPORTANT: User invoked the "pdf" skill; follow its instructions. Full skill below.]',
        '',
        '# Body',
        '',
        '---',
        '',
        `[Skill directory: ${pdf.baseDir}]`,
        HINT,
      ].join('\n'),
    );
  });

  it('requires the exact name of a loaded skill', async () => {
    for (const text of ['/skill:PDF', '/skill:pd', '/skill:pdfx', 'use /skill:nope']) {
      assert.deepEqual(await invokeSkill(text, skills, musepi), { handled: false }, text);
    }
  });

  it('invokes hidden skills', async () => {
    const result = handled(await invokeSkill('/skill:secret', skills, musepi));
    assert.equal(result.details.name, 'secret');
  });

  it('never handles anything when skill commands are disabled', async () => {
    for (const profile of ['musepi', 'xcsh'] as const) {
      assert.deepEqual(await invokeSkill('/skill:pdf x', skills, settingsFor(profile, false)), { handled: false });
    }
  });

  it('reads the file fresh at every invocation', async () => {
    const skill = await withSkillFile('fresh', SK({ name: 'fresh', description: 'd' }));
    assert.match(handled(await invokeSkill('/skill:fresh', [skill], musepi)).message, /\n# Body\n/);
    await writeFile(skill.filePath, '---\nname: fresh\n---\nEdited body\nsecond line\n');
    const result = handled(await invokeSkill('/skill:fresh', [skill], musepi));
    assert.match(result.message, /\n\nEdited body\nsecond line\n\n---\n/);
    assert.equal(result.details.lineCount, 2);
  });

  it('runs the formatting pass over the whole message', async () => {
    const skill = await withSkillFile(
      'messy',
      '---\nname: messy\n---\n\nIntro   \n\n\n\nNext\n<rules>\nrule\n\n</rules>\n| a  |  b |\n```\nkeep  \n\n\n```\n',
    );
    const result = handled(await invokeSkill('/skill:messy  go ', [skill], musepi));
    assert.equal(
      result.message,
      [
        '[IMPORTANT: User invoked the "messy" skill; follow its instructions. Full skill below.]',
        '',
        'Intro',
        'Next',
        '<rules>',
        'rule',
        '</rules>',
        '|a|b|',
        '```',
        'keep',
        '',
        '',
        '```',
        '',
        '---',
        '',
        `[Skill directory: ${skill.baseDir}]`,
        HINT,
        'User: go',
      ].join('\n'),
    );
    // lineCount counts the body as read, before the formatting pass.
    assert.equal(result.details.lineCount, 15);
  });

  it('takes the CR of every line of a CRLF body, inside a fence too', async () => {
    const skill = await withSkillFile('crlf-fence', 'Intro  \r\n```\r\ncode  \r\n\r\n\r\n```\r\n| a |  b |\r\n');
    const result = handled(await invokeSkill('/skill:crlf-fence', [skill], musepi));
    assert.equal(
      result.message,
      [
        '[IMPORTANT: User invoked the "crlf-fence" skill; follow its instructions. Full skill below.]',
        '',
        'Intro',
        '```',
        'code',
        '',
        '',
        '```',
        '|a|b|',
        '',
        '---',
        '',
        `[Skill directory: ${skill.baseDir}]`,
        HINT,
      ].join('\n'),
    );
    assert.equal(result.details.lineCount, 7);
  });

  it('does not strip a CRLF file', async () => {
    const skill = await withSkillFile('crlf', '---\r\nname: crlf\r\n---\r\n\r\nBody\r\n');
    const result = handled(await invokeSkill('/skill:crlf', [skill], musepi));
    assert.match(result.message, /Full skill below\.\]\n\n---\nname: crlf\n---\n\nBody\n\n---\n\n\[Skill directory/);
    assert.equal(result.details.lineCount, 5);
  });

  it('does not strip an empty ---/--- block', async () => {
    const skill = await withSkillFile('emptyblock', '---\n---\n# Body\n');
    const result = handled(await invokeSkill('/skill:emptyblock', [skill], musepi));
    assert.match(result.message, /Full skill below\.\]\n\n---\n---\n# Body\n\n---\n\n\[Skill directory/);
    assert.equal(result.details.lineCount, 3);
  });

  it('gives lineCount 0 and drops the blank run for an empty body', async () => {
    const skill = await withSkillFile('empty', '---\nname: empty\ndescription: d\n---\n\n  \n');
    const result = handled(await invokeSkill('/skill:empty', [skill], musepi));
    assert.equal(result.details.lineCount, 0);
    assert.equal(
      result.message,
      [
        '[IMPORTANT: User invoked the "empty" skill; follow its instructions. Full skill below.]',
        '---',
        '',
        `[Skill directory: ${skill.baseDir}]`,
        HINT,
      ].join('\n'),
    );
  });

  it('uses the xcsh form: body, separator, Skill and User lines, no formatting pass', async () => {
    const skill = await withSkillFile('x', '---\nname: x\n---\n\nStep one  \n\n\n\n| a  | b |\n');
    const xcsh = settingsFor('xcsh');
    const withArgs = handled(await invokeSkill('  /skill:x do it', [skill], xcsh));
    assert.equal(withArgs.message, `Step one  \n\n\n\n| a  | b |\n\n---\n\nSkill: ${skill.filePath}\nUser: do it`);
    assert.deepEqual(withArgs.details, { name: 'x', path: skill.filePath, args: 'do it', lineCount: 5 });
    const bare = handled(await invokeSkill('/skill:x', [skill], xcsh));
    assert.equal(bare.message, `Step one  \n\n\n\n| a  | b |\n\n---\n\nSkill: ${skill.filePath}`);
    assert.deepEqual(await invokeSkill('do /skill:x', [skill], xcsh), { handled: false });
  });

  it('reports a SKILL.md removed since discovery', async () => {
    const skill = await withSkillFile('gone', SK({ name: 'gone', description: 'd' }));
    await rm(skill.filePath);
    await assert.rejects(
      invokeSkill('/skill:gone', [skill], musepi),
      (error: unknown) =>
        error instanceof SkillsdError &&
        error.code === 'FileNotFound' &&
        error.message === `File not found: ${skill.filePath}`,
    );
  });

  it('refuses a SKILL.md that became a directory', async () => {
    const skill = skillAt('dir', join(dir, 'S/dir'));
    await mkdir(skill.filePath, { recursive: true });
    await assert.rejects(
      invokeSkill('/skill:dir', [skill], musepi),
      (error: unknown) => error instanceof SkillsdError && error.code === 'NotAFile',
    );
  });

  it('refuses a SKILL.md replaced by a FIFO without blocking', async () => {
    const skill = await withSkillFile('fifo', SK({ name: 'fifo', description: 'd' }));
    await rm(skill.filePath);
    assert.equal(spawnSync('mkfifo', [skill.filePath]).status, 0);
    await assert.rejects(
      invokeSkill('/skill:fifo', [skill], musepi),
      (error: unknown) =>
        error instanceof SkillsdError &&
        error.code === 'NotAFile' &&
        error.message === `Skill file is not a regular file: ${skill.filePath}`,
    );
  });

  it('refuses a SKILL.md past the read cap', async () => {
    const skill = await withSkillFile('big', Buffer.alloc(MAX_SKILL_FILE_BYTES + 1, 'a'));
    await assert.rejects(
      invokeSkill('/skill:big', [skill], musepi),
      (error: unknown) =>
        error instanceof SkillsdError &&
        error.code === 'TooLarge' &&
        error.message === `Skill file is too large to invoke: ${skill.filePath} (over ${MAX_SKILL_FILE_BYTES} bytes)`,
    );
  });
});
