// An answer computed in-process (no daemon running) is byte for byte the answer of a daemon serving the same tree
// (docs/cli.md, docs/performance.md "In-process answers"): every command that answers in-process is run both ways on
// one tree and its stdout and exit code compared exactly. Only the stderr note saying where the answer came from
// differs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

/** Read-only commands, in text and JSON; `doctor` without a name reports the daemon's watch mode, so it is left out. */
const COMMANDS: string[][] = [
  ['ls'],
  ['ls', '--json'],
  ['ls', '--level', 'user', '--json'],
  ['show', 'lint'],
  ['show', 'lint', '--json'],
  ['show', 'nope'],
  ['cat', 'lint'],
  ['cat', 'lint', '--body'],
  ['cat', 'lint', 'notes/a.txt'],
  ['cat', 'lint', 'notes/missing.txt'],
  ['prompt'],
  ['prompt', '--format', 'xml'],
  ['invoke', '/skill:pdf tables and forms'],
  ['invoke', '/skill:pdf tables', '--json'],
  ['invoke', 'no skill here'],
  ['search', 'lint'],
  ['search', 'pdf', '--json'],
  ['doctor', 'lint'],
  ['doctor', 'lint', '--json'],
  ['doctor', 'nobody', '--json'],
];

describe('in-process answers are the daemon’s answers', () => {
  it('every read-only command prints the same bytes and exits the same with and without a daemon', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-same-');
    t.after(cleanup);
    const home = `${dir}/home`;
    const project = `${dir}/project`;
    await writeTree(dir, {
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools: tables, forms' }),
      'home/.claude/skills/bad/SKILL.md': '---\nname: Bad Name\n---\n\nno description\n',
      'project/.git': { dir: true },
      'project/.musepi/skills/lint/SKILL.md':
        '---\nname: lint\ndescription: |\n  Lint rules\n  for the project\nhide: true\n---\n\n# Lint\n\nRun it.\n',
      'project/.claude/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Shadowed lint' }),
      'project/.musepi/skills/lint/notes/a.txt': 'note a\n',
    });
    const url = await deadUrl(t);
    const local: Array<{ code: number | null; stdout: string }> = [];
    for (const args of COMMANDS) {
      const run = await runClient(args, { home, cwd: project, env: { SKILLSD_URL: url } });
      assert.match(run.stderr, /answered in-process for /, args.join(' '));
      local.push({ code: run.code, stdout: run.stdout });
    }
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    for (const [index, args] of COMMANDS.entries()) {
      const run = await runClient(args, { home, cwd: project, env: { SKILLSD_URL: daemon.url } });
      assert.doesNotMatch(run.stderr, /in-process/, args.join(' '));
      assert.deepEqual({ code: run.code, stdout: run.stdout }, local[index], `skillsd ${args.join(' ')}`);
    }
    // The comparison compared answers, not two empty outputs.
    assert.match(local[1]!.stdout, /"name": "lint"/);
    assert.match(local[10]!.stdout, /pdf/);
  });
});
