// `skillsd doctor` of the built CLI, run as a user runs it, against a real daemon and with none: the findings grouped
// by rule, errors first, `--severity`, a fix that proposes only names the rules accept, the new rules
// (`missing-referenced-file`, `name-not-invocable`), and `doctor NAME` naming, for each agent, the file that agent's
// own view loads under NAME (docs/doctor.md, docs/cli.md).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-doctor-cli-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  const S = 'home/.claude/skills';
  await writeTree(dir, {
    [`${S}/pdf/SKILL.md`]: SK({ name: 'pdf', description: 'PDF tools' }),
    [`${S}/pdf-2/SKILL.md`]: SK({ name: 'pdf', description: 'PDF tools, a copy' }),
    [`${S}/accessibility-auditor/SKILL.md`]: SK({ name: 'Accessibility Auditor', description: 'Audits', tags: 'a11y' }),
    [`${S}/docx/SKILL.md`]:
      '---\nname: docx\ndescription: Word\nauthor: someone\nversion: 1.0.0\n---\n\nSee [it](REFERENCE.md).\n',
    [`${S}/docx/reference.md`]: 'ref\n',
    [`${S}/lower/skill.md`]: SK({ name: 'lower', description: 'd' }),
    'project/.git': { dir: true },
  });
  return { dir, home, project };
}

/** The text after the line `Findings (…)`, up to the next blank line. */
function findingsSection(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Findings ('));
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

const COMMANDS = [
  ['doctor'],
  ['doctor', '--severity', 'warning'],
  ['doctor', '--severity', 'error', '--json'],
  ['doctor', '--severity', 'loud'],
  ['doctor', 'pdf'],
  ['doctor', 'pdf', '--json'],
  ['doctor', 'pdf', '--severity', 'warning', '--json'],
];

describe('skillsd doctor: grouped, filtered, and the same with and without a daemon', () => {
  it('groups findings by rule with counts, errors first; --severity keeps that severity or worse', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const opts = { home, cwd: project };
    const all = await runClient(['doctor'], opts);
    assert.equal(all.code, 1, all.stderr);
    const C = '~/.claude/skills';
    assert.deepEqual(findingsSection(all.stdout), [
      'Findings (1 error, 5 warnings, 4 info)',
      '  error wrong-case-skill-md (1)',
      `    ${C}/lower/skill.md: the file is named skill.md: only SKILL.md, in exactly that case, is read`,
      `      fix: rename it to ${home}/.claude/skills/lower/SKILL.md`,
      '  warning spec-name-folder (2)',
      `    ${C}/accessibility-auditor/SKILL.md:2: name "Accessibility Auditor" differs from its folder "accessibility-auditor" (Agent Skills: they must be equal)`,
      '      fix: set name: accessibility-auditor',
      `    ${C}/pdf-2/SKILL.md:2: name "pdf" differs from its folder "pdf-2" (Agent Skills: they must be equal)`,
      '      fix: rename the folder to pdf or set name: pdf-2',
      '  warning missing-referenced-file (1)',
      `    ${C}/docx/SKILL.md:8: the body links to REFERENCE.md, which is not a file of the skill: reading it fails (the file route answers 404)`,
      '      fix: the file is reference.md: write that name (file names are case-sensitive)',
      '  warning name-not-invocable (1)',
      `    ${C}/accessibility-auditor/SKILL.md: "Accessibility Auditor" cannot be invoked as /skill:Accessibility Auditor (the name ends at the first space) and has no MCP prompt (nor MCP load_skill); the model still finds it in the prompt's list, and GET /skills/Accessibility%20Auditor, skillsd show "Accessibility Auditor" and MCP read_skill_file reach it`,
      '      fix: set name: accessibility-auditor',
      '  warning spec-name-charset (1)',
      `    ${C}/accessibility-auditor/SKILL.md:2: name "Accessibility Auditor" is not lower-case letters, digits and single hyphens (Agent Skills)`,
      '      fix: set name: accessibility-auditor',
      '  info spec-unknown-field (3)',
      `    ${C}/accessibility-auditor/SKILL.md:4: field "tags" is not in the Agent Skills specification`,
      `    ${C}/docx/SKILL.md:4: field "author" is not in the Agent Skills specification`,
      `    ${C}/docx/SKILL.md:5: field "version" is not in the Agent Skills specification`,
      '  info shadowed (1)',
      `    ${C}/pdf/SKILL.md: shadowed by ${home}/.claude/skills/pdf-2/SKILL.md (claude:user): both are in the same Claude Code directory, where the path that sorts first wins`,
    ]);

    const warnings = await runClient(['doctor', '--severity', 'warning'], opts);
    assert.equal(warnings.code, 1);
    const section = findingsSection(warnings.stdout);
    assert.equal(section[0], 'Findings (1 error, 5 warnings)');
    assert.deepEqual(
      section.filter((line) => /^ {2}\S/.test(line)),
      [
        '  error wrong-case-skill-md (1)',
        '  warning spec-name-folder (2)',
        '  warning missing-referenced-file (1)',
        '  warning name-not-invocable (1)',
        '  warning spec-name-charset (1)',
      ],
    );
    const errors = JSON.parse((await runClient(['doctor', '--severity', 'error', '--json'], opts)).stdout);
    assert.deepEqual(errors.summary, [{ rule: 'wrong-case-skill-md', severity: 'error', count: 1 }]);
    assert.deepEqual(
      errors.findings.map((finding: { rule: string }) => finding.rule),
      ['wrong-case-skill-md'],
    );
    const bad = await runClient(['doctor', '--severity', 'loud'], opts);
    assert.deepEqual(bad, {
      code: 2,
      stdout: '',
      stderr:
        'skillsd: doctor: querystring/severity must be equal to one of the allowed values: "error", "warning", "info"\n',
    });

    // On a terminal as wide as COLUMNS, every line fits.
    const narrow = await runClient(['doctor'], { ...opts, env: { COLUMNS: '72' } });
    for (const line of narrow.stdout.split('\n')) assert.ok(line.length <= 72, line);
    assert.ok(narrow.stdout.includes('\n      fix: the file is reference.md: write that name (file names are\n'));
  });

  it('doctor NAME names, for Claude Code and VS Code, the file their own views load under that name', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const opts = { home, cwd: project };
    const doctor = await runClient(['doctor', 'pdf'], opts);
    assert.equal(doctor.code, 0, doctor.stderr);
    const agents = doctor.stdout.split('\n');
    const at = agents.indexOf('Agents');
    const line = (id: string) => agents.slice(at).find((one) => one.startsWith(`${id}: `));
    for (const agent of ['claude-code', 'vscode']) {
      const view = JSON.parse((await runClient(['ls', '--agent', agent, '--json'], opts)).stdout);
      const pdf = view.skills.find((skill: { name: string }) => skill.name === 'pdf');
      assert.equal(pdf.filePath, `${home}/.claude/skills/pdf/SKILL.md`);
      assert.equal(line(agent), `${agent}: loaded ${pdf.filePath}`);
    }
    assert.equal(line('musepi'), `musepi: loaded ${home}/.claude/skills/pdf-2/SKILL.md`);
  });

  it('prints the same bytes and exits the same with a daemon and answered in-process', async (t) => {
    const { dir, home, project } = await fixture(t);
    const url = await deadUrl(t);
    const local = [];
    for (const command of COMMANDS) {
      const run = await runClient([...command, '--cwd', project], { home, cwd: dir, env: { SKILLSD_URL: url } });
      const note = `skillsd: no daemon running (nothing answers at ${url}); answered in-process for ${project}\n`;
      assert.ok(run.stderr.startsWith(note), run.stderr);
      local.push({ ...run, stderr: run.stderr.slice(note.length) });
    }
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    for (const [index, command] of COMMANDS.entries()) {
      const run = await runClient([...command, '--cwd', project], { home, cwd: dir });
      // What the doctor says of the watcher differs by nature: a daemon watches, an in-process answer does not.
      const stdout = run.stdout
        .replace('watching: events', 'watching: off')
        .replace('"mode": "events"', '"mode": "off"');
      assert.deepEqual({ ...run, stdout }, local[index], `skillsd ${command.join(' ')}`);
    }
    assert.equal(local[0]?.code, 1);
    assert.match(local[1]?.stdout ?? '', /^ {2}warning missing-referenced-file \(1\)$/m);
  });
});
