// `missing-referenced-file` (docs/doctor.md "Rules"): a body that names a file of its skill that is not there, with
// the file's real name when only its case differs; never a URL, an anchor, an absolute path, `../`, or a file of the
// user's project. Checked on real trees, and through the memo a live workspace keeps (doctor-memo.ts).

import assert from 'node:assert/strict';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseWorkspace } from '../../../src/discovery/doctor/diagnose-workspace.js';
import { DoctorMemo } from '../../../src/discovery/doctor/doctor-memo.js';
import { fileReferences } from '../../../src/discovery/doctor/referenced-files.js';
import { discoverSkills } from '../../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryContext } from '../../../src/discovery/types.js';
import { workspaceFactory } from '../../helpers/discovery-workspace.js';

const workspace = workspaceFactory('skillsd-doctor-refs-');

async function missing(ctx: DiscoveryContext, memo?: DoctorMemo) {
  const result = await discoverSkills(ctx);
  const { findings } = await diagnoseWorkspace({
    ctx,
    skills: result.skills,
    collisions: result.collisions,
    ...(memo === undefined ? {} : { memo }),
  });
  return findings
    .filter((finding) => finding.rule === 'missing-referenced-file')
    .map(({ path, line, message, hint }) => ({ path: path.slice(ctx.cwd.length + 1), line, message, hint }));
}

const BODY = [
  '---',
  'name: docx',
  'description: Word documents',
  '---',
  '',
  '# DOCX',
  '',
  'Read [the reference](REFERENCE.md) first, then [forms](./forms.md#fields "Forms").',
  'Run `scripts/convert.py` or scripts/Check.py, see ![diagram](assets/flow.png).',
  'Never checked: https://example.com/scripts/x.py, [top](#docx), [abs](/etc/x.md), [up](../other/SKILL.md),',
  '~/notes.md, your package.json, src/app.ts, mailto:a@b.md, [site](http://x.io/a.md).',
  '[def]: templates/letter.md',
  '',
].join('\n');

describe('doctor: files the body names', () => {
  it('finds links, link definitions and bare paths that point into the skill, first mention first', () => {
    const references = fileReferences(BODY, BODY.indexOf('# DOCX'));
    assert.deepEqual(
      references.map(({ written, segments, line, link }) => [written, segments.join('/'), line, link]),
      [
        ['REFERENCE.md', 'REFERENCE.md', 8, true],
        ['./forms.md', 'forms.md', 8, true],
        ['scripts/convert.py', 'scripts/convert.py', 9, false],
        ['scripts/Check.py', 'scripts/Check.py', 9, false],
        ['assets/flow.png', 'assets/flow.png', 9, true],
        ['package.json', 'package.json', 11, false],
        ['src/app.ts', 'src/app.ts', 11, false],
        ['templates/letter.md', 'templates/letter.md', 12, true],
      ],
    );
  });

  it('warns of each missing one, naming the file when only its case differs; not of project files', async () => {
    const S = 'P/.claude/skills/docx';
    const { ctx } = await workspace({
      [`${S}/SKILL.md`]: BODY,
      [`${S}/reference.md`]: 'ref\n',
      [`${S}/forms.md`]: 'forms\n',
      [`${S}/scripts/check.py`]: 'print(1)\n',
      [`${S}/assets/flow.png`]: 'png',
      'P/.claude/skills/plain/SKILL.md': '---\nname: plain\ndescription: d\n---\n\nSee REFERENCE.md and [x](x.md).\n',
    });
    const file = '.claude/skills/docx/SKILL.md';
    const notAFile = (verb: string, path: string) =>
      `the body ${verb} ${path}, which is not a file of the skill: reading it fails (the file route answers 404)`;
    assert.deepEqual(await missing(ctx), [
      {
        path: file,
        line: 8,
        message: notAFile('links to', 'REFERENCE.md'),
        hint: 'the file is reference.md: write that name (file names are case-sensitive)',
      },
      {
        path: file,
        line: 9,
        message: notAFile('names', 'scripts/convert.py'),
        hint: 'add the file to the skill folder, or correct the path',
      },
      {
        path: file,
        line: 9,
        message: notAFile('names', 'scripts/Check.py'),
        hint: 'the file is scripts/check.py: write that name (file names are case-sensitive)',
      },
      {
        path: file,
        line: 12,
        message: notAFile('links to', 'templates/letter.md'),
        hint: 'add the file to the skill folder, or correct the path',
      },
      // A bare REFERENCE.md with no reference.md at all may be the user's: only the link is the skill's.
      {
        path: '.claude/skills/plain/SKILL.md',
        line: 6,
        message: notAFile('links to', 'x.md'),
        hint: 'add the file to the skill folder, or correct the path',
      },
    ]);
  });

  it('a live workspace’s memo forgets a skill’s findings when a file of the skill comes or goes', async () => {
    const S = 'P/.claude/skills/pdf';
    const { base, ctx } = await workspace({
      [`${S}/SKILL.md`]: '---\nname: pdf\ndescription: d\n---\n\nSee [forms](forms.md) and scripts/fill.py.\n',
      [`${S}/scripts/keep.py`]: '\n',
    });
    const dir = join(base, S);
    const memo = new DoctorMemo();
    const lines = async () => (await missing(ctx, memo)).map((finding) => finding.message.split(',')[0]);
    assert.deepEqual(await lines(), ['the body links to forms.md', 'the body names scripts/fill.py']);
    // A file beside SKILL.md: the folder's listing changes.
    await writeFile(join(dir, 'forms.md'), 'forms\n');
    await memo.invalidate(false, [join(dir, 'forms.md')]);
    assert.deepEqual(await lines(), ['the body names scripts/fill.py']);
    // A file deeper in the skill: only the report of its path tells.
    await writeFile(join(dir, 'scripts/fill.py'), '\n');
    await memo.invalidate(false, [join(dir, 'scripts/fill.py')]);
    assert.deepEqual(await lines(), []);
    await rename(join(dir, 'scripts/fill.py'), join(dir, 'scripts/Fill.py'));
    await memo.invalidate(false, [join(dir, 'scripts/fill.py'), join(dir, 'scripts/Fill.py')]);
    assert.deepEqual(await missing(ctx, memo), [
      {
        path: '.claude/skills/pdf/SKILL.md',
        line: 6,
        message:
          'the body names scripts/fill.py, which is not a file of the skill: reading it fails (the file route answers 404)',
        hint: 'the file is scripts/Fill.py: write that name (file names are case-sensitive)',
      },
    ]);
    await rm(join(dir, 'forms.md'));
    await memo.invalidate(false, [join(dir, 'forms.md')]);
    assert.deepEqual(await lines(), ['the body links to forms.md', 'the body names scripts/fill.py']);
  });
});
