// An answer computed in-process (no daemon running) is byte for byte the answer of a daemon serving the same tree
// (docs/cli.md, docs/performance.md "In-process answers"): every command that answers in-process is run both ways on
// one tree, in text and JSON, and its stdout, its stderr and its exit code compared exactly. Only the stderr line
// saying where the answer came from differs, and the doctor's watch mode (a daemon watches, an in-process answer
// does not). The tree holds a collision, broken files, a Claude Code plugin and a directory too large to list; the
// daemon serves another default workspace, so that its answers are those of `?cwd=`.

import assert from 'node:assert/strict';
import { chmod } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { entry, registry } from '../helpers/plugin-trees.js';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const LONG_NAME = 'n'.repeat(1100);
const LONG_QUERY = 'q'.repeat(1001);

/** Every command that may answer in-process, in text and JSON, its answers and its errors. */
const COMMANDS: string[][] = [
  ['ls'],
  ['ls', '--json'],
  ['ls', '--level', 'user', '--json'],
  ['ls', '--hidden=false'],
  ['ls', '-q', 'PDF', '--json'],
  ['ls', '--provider', 'claude-plugins'],
  ['ls', '--provider', 'nope'],
  ['ls', '--provider', ''],
  ['ls', '--agent', 'claude-code'],
  ['ls', '--agent', 'claude-code', '--json'],
  ['ls', '--agent', 'codex', '--level', 'user', '--json'],
  ['ls', '--agent', 'bogus'],
  ['show', 'lint'],
  ['show', 'lint', '--json'],
  ['show', 'fmt', '--json'],
  ['show', 'nope'],
  ['show', 'Bad Name'],
  ['show', LONG_NAME],
  ['cat', 'lint'],
  ['cat', 'lint', '--body'],
  ['cat', 'lint', 'notes/a.txt'],
  ['cat', 'lint', 'notes'],
  ['cat', 'lint', 'notes/missing.txt'],
  ['cat', 'lint', '../../../../etc/passwd'],
  ['cat', 'pdf', 'pages'],
  ['cat', 'fmt'],
  ['cat', 'nope'],
  ['prompt'],
  ['prompt', '--json'],
  ['prompt', '--format', 'xml'],
  ['prompt', '--tools', 'bash'],
  ['invoke', '/skill:pdf tables and forms'],
  ['invoke', '/skill:pdf tables', '--json'],
  ['invoke', 'no skill here'],
  ['invoke', 'no skill here', '--json'],
  ['invoke', '/skill:nope now'],
  ['search', 'lint'],
  ['search', 'pdf', '--json'],
  ['search', 'zzqqxx'],
  ['search', LONG_QUERY],
  ['doctor'],
  ['doctor', '--json'],
  ['doctor', 'lint'],
  ['doctor', 'lint', '--json'],
  ['doctor', 'nobody', '--json'],
  ['doctor', 'broken'],
  ['agents'],
  ['agents', '--json'],
  ['catalog', '--agent', 'codex'],
  ['catalog', '--agent', 'codex', '--json'],
  ['catalog', '--agent', 'claude-code', '--context-window', '10'],
  ['catalog', '--agent', 'bogus'],
];

/** What the doctor says of the watcher: the one part of an answer that differs by nature. */
const WATCH_MODES: Array<[daemon: string, local: string]> = [
  ['watching: events', 'watching: off'],
  ['"mode": "events"', '"mode": "off"'],
];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('in-process answers are the daemon’s answers', () => {
  it('every in-process command prints the same bytes and exits the same with and without a daemon', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-same-');
    t.after(cleanup);
    const home = `${dir}/home`;
    const project = `${dir}/project`;
    const config = `${dir}/skillsd.yaml`;
    await writeTree(dir, {
      'skillsd.yaml': 'server:\n  walkLimits:\n    maxEntries: 3\n',
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools: tables, forms' }),
      'home/.claude/skills/pdf/pages/1.txt': '1\n',
      'home/.claude/skills/pdf/pages/2.txt': '2\n',
      'home/.claude/skills/pdf/pages/3.txt': '3\n',
      'home/.claude/skills/pdf/pages/4.txt': '4\n',
      'home/.claude/skills/bad/SKILL.md': '---\nname: Bad Name\n---\n\nno description\n',
      'home/.claude/skills/broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n\nbody\n',
      'home/.claude/skills/lower/skill.md': SK({ name: 'lower', description: 'Lower-case file name' }),
      'home/.claude/plugins/installed_plugins.json': registry({ 'tools@m': [entry(`${dir}/plugins/tools`)] }),
      'plugins/tools/skills/fmt/SKILL.md': SK({ name: 'fmt', description: 'Format the code' }),
      'project/.git': { dir: true },
      'project/.musepi/skills/lint/SKILL.md':
        '---\nname: lint\ndescription: |\n  Lint rules\n  for the project\nhide: true\n---\n\n# Lint\n\nRun it.\n',
      'project/.claude/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Shadowed lint' }),
      'project/.musepi/skills/lint/notes/a.txt': 'note a\n',
      'project/.musepi/skills/lint/notes/b/c.txt': 'note c\n',
      'elsewhere/.git': { dir: true },
    });
    // A configuration file is read only when private to its owner (docs/cli.md).
    await chmod(config, 0o600);
    const args = (command: string[]) => [...command, '--cwd', project, '--config', config];
    const url = await deadUrl(t);
    const local: Run[] = [];
    for (const command of COMMANDS) {
      const run = await runClient(args(command), { home, cwd: dir, env: { SKILLSD_URL: url } });
      const note = `skillsd: no daemon running (nothing answers at ${url}); answered in-process for ${project}\n`;
      assert.ok(run.stderr.startsWith(note), `${command.join(' ')}: ${run.stderr}`);
      local.push({ ...run, stderr: run.stderr.slice(note.length) });
    }
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', `${dir}/elsewhere`, '--config', config], {
      home,
    });
    t.after(() => daemon.process.kill());
    for (const [index, command] of COMMANDS.entries()) {
      const run = await runClient(args(command), { home, cwd: dir, env: { SKILLSD_URL: daemon.url } });
      let { stdout } = run;
      for (const [watched, unwatched] of WATCH_MODES) stdout = stdout.replace(watched, unwatched);
      assert.deepEqual({ ...run, stdout }, local[index], `skillsd ${command.join(' ')}`);
    }
    // The comparison compared answers and errors, not two empty outputs.
    const at = (command: string[]) => local[COMMANDS.findIndex((one) => one.join(' ') === command.join(' '))]!;
    assert.match(at(['ls', '--json']).stdout, /"name": "lint"/);
    assert.match(at(['show', 'fmt', '--json']).stdout, /"provider": "claude-plugins"/);
    assert.match(at(['prompt']).stdout, /pdf/);
    assert.equal(at(['cat', 'lint', 'notes']).stdout, 'b/\na.txt\n');
    assert.deepEqual(at(['cat', 'pdf', 'pages']), {
      code: 1,
      stdout: '',
      stderr:
        'skillsd: cat: Directory skill://pdf/pages is too large to list: more than 3 entries ' +
        '(server.walkLimits.maxEntries)\n',
    });
    assert.deepEqual(at(['ls', '--provider', '']), {
      code: 2,
      stdout: '',
      stderr: 'skillsd: ls: querystring/provider must NOT have fewer than 1 characters\n',
    });
    assert.equal(at(['search', LONG_QUERY]).code, 2);
    assert.equal(at(['show', LONG_NAME]).code, 1);
    assert.equal(at(['doctor']).code, 1);
    assert.match(at(['doctor', '--json']).stdout, /"mode": "off"/);
  });
});
