// GET /doctor over a real socket, on skills as they are found in the wild: findings ordered errors, warnings, info,
// counted per rule in `summary`, and `?severity=` keeping a severity and what is worse (docs/api.md §GET /doctor).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

/** Three skills with the fields real ones carry (`author`, `version`, `tags`), one broken, one shadowed. */
const TREE = {
  'home/.claude/skills/docx/SKILL.md':
    '---\nname: docx\ndescription: Word documents\nauthor: someone\nversion: 1.0.0\n---\n\n' +
    'Read [the reference](REFERENCE.md).\n',
  'home/.claude/skills/docx/reference.md': 'ref\n',
  'home/.claude/skills/xlsx/SKILL.md': '---\nname: xlsx\ndescription: Sheets\ntags: [office]\nauthor: a\n---\n',
  'home/.claude/skills/pptx/SKILL.md': SK({ name: 'pptx', description: 'Slides', version: '2' }),
  'home/.claude/skills/lower/skill.md': SK({ name: 'lower', description: 'd' }),
  'home/.claude/skills/named/SKILL.md': SK({ name: 'other', description: 'd' }),
  'work/.musepi/skills/pptx/SKILL.md': SK({ name: 'pptx', description: 'Slides, nearer' }),
};

type Row = [string, string];
const rows = (findings: Array<{ rule: string; severity: string }>): Row[] =>
  findings.map((finding) => [finding.severity, finding.rule]);

describe('GET /doctor: summary, order and ?severity=', () => {
  it('orders findings errors first, counts them per rule, and keeps a severity or worse', async (t) => {
    const server = await startServer(t, { tree: TREE });
    const all = await getJson(`${server.base}/doctor`);
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.summary, [
      { rule: 'wrong-case-skill-md', severity: 'error', count: 1 },
      { rule: 'missing-referenced-file', severity: 'warning', count: 1 },
      { rule: 'spec-name-folder', severity: 'warning', count: 1 },
      { rule: 'spec-unknown-field', severity: 'info', count: 5 },
      { rule: 'shadowed', severity: 'info', count: 1 },
    ]);
    // Within a severity, the order the doctor found them in (directories in pipeline order, files by name).
    assert.deepEqual(rows(all.body.findings), [
      ['error', 'wrong-case-skill-md'],
      ['warning', 'missing-referenced-file'],
      ['warning', 'spec-name-folder'],
      ['info', 'spec-unknown-field'],
      ['info', 'spec-unknown-field'],
      ['info', 'spec-unknown-field'],
      ['info', 'shadowed'],
      ['info', 'spec-unknown-field'],
      ['info', 'spec-unknown-field'],
    ]);
    assert.deepEqual(all.body.findings[1], {
      rule: 'missing-referenced-file',
      severity: 'warning',
      path: `${server.home}/.claude/skills/docx/SKILL.md`,
      message:
        'the body links to REFERENCE.md, which is not a file of the skill: reading it fails (the file route answers 404)',
      line: 8,
      hint: 'the file is reference.md: write that name (file names are case-sensitive)',
    });
    // What the finding says of the file route is what it answers.
    const gone = await fetch(`${server.base}/skill/docx/REFERENCE.md`);
    await gone.arrayBuffer();
    assert.equal(gone.status, 404);
    assert.equal(await (await fetch(`${server.base}/skill/docx/reference.md`)).text(), 'ref\n');

    const warnings = await getJson(`${server.base}/doctor?severity=warning`);
    assert.deepEqual(rows(warnings.body.findings), [
      ['error', 'wrong-case-skill-md'],
      ['warning', 'missing-referenced-file'],
      ['warning', 'spec-name-folder'],
    ]);
    assert.deepEqual(warnings.body.summary, all.body.summary.slice(0, 3));
    const errors = await getJson(`${server.base}/doctor?severity=error`);
    assert.deepEqual(rows(errors.body.findings), [['error', 'wrong-case-skill-md']]);
    assert.deepEqual(errors.body.summary, [{ rule: 'wrong-case-skill-md', severity: 'error', count: 1 }]);
    const info = await getJson(`${server.base}/doctor?severity=info`);
    assert.deepEqual(info.body, all.body);
  });

  it('GET /doctor/{name} filters and orders each list of findings the same way', async (t) => {
    const server = await startServer(t, { tree: TREE });
    const all = await getJson(`${server.base}/doctor/pptx`);
    assert.deepEqual(
      all.body.candidates.map((candidate: { outcome: string; findings: Array<{ rule: string; severity: string }> }) => [
        candidate.outcome,
        rows(candidate.findings),
      ]),
      [
        ['loaded', []],
        [
          'shadowed',
          [
            ['info', 'spec-unknown-field'],
            ['info', 'shadowed'],
          ],
        ],
      ],
    );
    const warnings = await getJson(`${server.base}/doctor/pptx?severity=warning`);
    assert.deepEqual(
      warnings.body.candidates.map((candidate: { findings: unknown[] }) => candidate.findings),
      [[], []],
    );
    assert.equal(warnings.body.winner.filePath, `${server.cwd}/.musepi/skills/pptx/SKILL.md`);
  });

  it('answers a severity it does not know with the 400 of any other bad query value', async (t) => {
    const server = await startServer(t, { tree: TREE });
    for (const path of ['/doctor?severity=warnings', '/doctor/pptx?severity=']) {
      const { status, body } = await getJson(`${server.base}${path}`);
      assert.equal(status, 400, path);
      assert.deepEqual(body, {
        statusCode: 400,
        code: 'BadRequest',
        error: 'Bad Request',
        message: 'querystring/severity must be equal to one of the allowed values: "error", "warning", "info"',
      });
    }
  });
});
