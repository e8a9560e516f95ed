// Every table of the built CLI fits the terminal it is printed on (docs/cli.md "Output"): run in a pseudo-terminal
// 80 columns wide (util-linux `script`) against a real daemon, with skill names of 47 characters and long
// descriptions. Names wrap, paths and descriptions are cut, agent columns that do not fit are named on stderr;
// `COLUMNS` sets the width for a pipe, and `--json` is never cut.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { displayWidth } from '../../src/cli/terminal-text.js';
import { runClient } from '../helpers/run-client.js';
import { CLI, type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);

const INVOICES = 'extract-structured-data-from-scanned-invoices-x';
const RELEASE = 'generate-release-notes-from-merged-pull-request';
const REVIEW = 'review-typescript-changes-for-security-weakness';
const PDF_TEXT = 'Extract text, tables and images from PDF files, fill in forms, merge and split documents';
const NOTES_TEXT = '変更履歴を生成する, release notes from the pull requests merged since the last tag, by label';
const REVIEW_TEXT = 'Review TypeScript changes for injection, path traversal and unsafe deserialisation';

/** Runs `skillsd ARGS` inside a pseudo-terminal `columns` wide; returns what the terminal received, both streams. */
async function inTerminal(args: string[], columns: number, home: string, cwd: string): Promise<string> {
  const quoted = [process.execPath, CLI, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const { stdout } = await run('script', ['-qec', `stty cols ${columns} rows 30; exec ${quoted}`, '/dev/null'], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', NO_COLOR: '1', HOME: home },
    timeout: 60_000,
  });
  return stdout.replaceAll('\r\n', '\n');
}

function widest(text: string): number {
  return Math.max(...text.trimEnd().split('\n').map(displayWidth));
}

describe('tables at 80 columns, against a running daemon', () => {
  let home = '';
  let project = '';
  let daemon: RunningDaemon | undefined;
  let cleanup = async () => {};

  after(async () => {
    await daemon?.process.kill();
    await cleanup();
  });

  before(async () => {
    const made = await makeTempDir('skillsd-width-');
    cleanup = made.cleanup;
    const dir = made.dir;
    home = `${dir}/home`;
    project = `${dir}/project`;
    await writeTree(dir, {
      'project/.git': { dir: true },
      [`project/.claude/skills/${INVOICES}/SKILL.md`]: SK({ name: INVOICES, description: PDF_TEXT }),
      [`project/.agents/skills/${RELEASE}/SKILL.md`]: SK({ name: RELEASE, description: NOTES_TEXT }),
      [`home/.claude/skills/${REVIEW}/SKILL.md`]: SK({ name: REVIEW, description: REVIEW_TEXT }),
    });
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    // The agent views computed before the commands run: no progress line on the terminal's stderr. The daemon
    // answers 503 with Retry-After while it computes them (docs/cli.md "Commands").
    const deadline = Date.now() + 120_000;
    for (;;) {
      const response = await fetch(`${daemon.url}/agents`);
      await response.arrayBuffer();
      if (response.status === 200) break;
      if (Date.now() > deadline) throw new Error(`GET /agents still answers ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
  });

  it('ls wraps the 47-character names and keeps 30 columns of description', async () => {
    const text = await inTerminal(['ls'], 80, home, project);
    assert.equal(
      text,
      'NAME                   PROVIDER  LEVEL    HIDDEN  DESCRIPTION\n' +
        'extract-structured-    claude    project  no      Extract text, tables and imag…\n' +
        'data-from-scanned-\n' +
        'invoices-x\n' +
        'generate-release-      agents    project  no      変更履歴を生成する, release n…\n' +
        'notes-from-merged-\n' +
        'pull-request\n' +
        'review-typescript-     claude    user     no      Review TypeScript changes for…\n' +
        'changes-for-security-\n' +
        'weakness\n',
    );
    assert.equal(widest(text), 80);
  });

  it('ls --agent codex shows the description next to the path', async () => {
    const text = await inTerminal(['ls', '--agent', 'codex'], 80, home, project);
    assert.equal(
      text,
      'NAME                  SCOPE    PATH               DESCRIPTION\n' +
        'generate-release-     project  ./.agents/skills…  変更履歴を生成する, release n…\n' +
        'notes-from-merged-\n' +
        'pull-request\n',
    );
    assert.equal(widest(text), 80);
  });

  it('agents shows the agent columns that fit under short headers, names the rest on stderr, all when wide', async () => {
    const text = await inTerminal(['agents'], 80, home, project);
    assert.equal(
      text,
      'NAME                  LOCATION         CLAUDE  CODEX   OPENCODE  GEMINI  COPILOT\n' +
        'extract-structured-   ./.claude/skil…  loaded  —       loaded    —       loaded\n' +
        'data-from-scanned-\n' +
        'invoices-x\n' +
        'generate-release-     ./.agents/skil…  —       loaded  loaded    —       loaded\n' +
        'notes-from-merged-\n' +
        'pull-request\n' +
        'review-typescript-    ~/.claude/skil…  loaded  —       loaded    —       —\n' +
        'changes-for-\n' +
        'security-weakness\n' +
        'skillsd: agents: not shown at 80 columns: vscode, goose, musepi (a wider\n' +
        'terminal or --json shows them)\n',
    );
    assert.ok(widest(text) <= 80);
    // A terminal wide enough: every column at its natural width, under the full agent ids, nothing on stderr.
    const wide = await inTerminal(['agents'], 200, home, project);
    const location = (root: string, name: string) => `${root}/${name}`.padEnd(66);
    assert.equal(
      wide,
      `${'NAME'.padEnd(49)}${'LOCATION'.padEnd(66)}CLAUDE-CODE  CODEX   OPENCODE  GEMINI-CLI  COPILOT-CLI  VSCODE  GOOSE   MUSEPI\n` +
        `${INVOICES}  ${location('./.claude/skills', INVOICES)}loaded       —       loaded    —           loaded       loaded  loaded  loaded\n` +
        `${RELEASE}  ${location('./.agents/skills', RELEASE)}—            loaded  loaded    —           loaded       loaded  loaded  loaded\n` +
        `${REVIEW}  ${location('~/.claude/skills', REVIEW)}loaded       —       loaded    —           —            loaded  loaded  loaded\n`,
    );
  });

  it('COLUMNS lays a pipe out to its width; without it a pipe is uncut; --json is never cut', async () => {
    const narrow = await runClient(['ls'], { home, cwd: project, env: { COLUMNS: '80' } });
    assert.equal(narrow.code, 0, narrow.stderr);
    assert.equal(widest(narrow.stdout), 80);
    const piped = await runClient(['ls'], { home, cwd: project });
    assert.ok(piped.stdout.includes(`${INVOICES}  claude    project  no      ${PDF_TEXT}\n`), piped.stdout);
    const json = await runClient(['ls', '--json'], { home, cwd: project, env: { COLUMNS: '80' } });
    const skills = JSON.parse(json.stdout).skills as Array<{ name: string; description: string }>;
    assert.deepEqual(
      skills.map((skill) => [skill.name, skill.description]),
      [
        [INVOICES, PDF_TEXT],
        [RELEASE, NOTES_TEXT],
        [REVIEW, REVIEW_TEXT],
      ],
    );
  });
});

describe('--help', () => {
  it('fits 80 columns on an 80-column terminal and through a pipe', async () => {
    const { dir, cleanup } = await makeTempDir('skillsd-width-help-');
    try {
      const onTerminal = await inTerminal(['--help'], 80, dir, dir);
      assert.match(onTerminal, /^Usage: skillsd serve \[options\]\n/);
      assert.ok(widest(onTerminal) <= 80, onTerminal);
      const piped = await runClient(['--help'], { home: dir, cwd: dir });
      assert.equal(piped.stdout, onTerminal);
    } finally {
      await cleanup();
    }
  });

  it("a command's --help wraps to the terminal", async () => {
    const { dir, cleanup } = await makeTempDir('skillsd-width-help-');
    try {
      const onTerminal = await inTerminal(['search', '--help'], 80, dir, dir);
      assert.match(onTerminal, /search/);
      assert.ok(widest(onTerminal) <= 80, onTerminal);
    } finally {
      await cleanup();
    }
  });
});
