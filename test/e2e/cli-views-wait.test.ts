// A command that reads the agent views waits while the daemon computes them (docs/cli.md "Commands"): the built CLI
// against a daemon whose request wait is nothing, so that it answers 503 `NotReady` until the test lets the views be
// computed. `serve` has no setting for the request wait, so the daemon is the app on a real port in this process
// (startServer), and the CLI finds it with --url. Through a pipe the command prints only its answer; on a terminal (a
// pseudo-terminal from util-linux `script`) standard error counts the seconds on one line, erased at the end.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { getJson, startServer, type TestServer } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { runClient } from '../helpers/run-client.js';
import { CLI } from '../helpers/spawn-daemon.js';
import { SK } from '../helpers/temp-tree.js';

/** One first try and the three retries a 503 used to get: a command still asking after these has outlasted them. */
const OLD_ATTEMPTS = 4;

async function heldDaemon(t: Parameters<typeof startServer>[0]) {
  let release: () => void = () => {};
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  const s = await startServer(t, {
    tree: {
      'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Fill PDF forms' }),
      'work/.claude/skills/review/SKILL.md': SK({ name: 'review', description: 'Review a change' }),
    },
    app: { readyWaitMs: 0 },
    holdViews: hold,
  });
  let asked = 0;
  s.app.server.on('request', (request: { url?: string }) => {
    if (request.url?.startsWith('/agents') === true) asked++;
  });
  return { s, release, asked: () => asked };
}

/** The matrix as the daemon answers it now that the views are computed, as `--json` prints it. */
async function matrixOf(s: TestServer): Promise<string> {
  const answer = await getJson(`${s.base}/agents?cwd=${encodeURIComponent(s.cwd)}`);
  assert.equal(answer.status, 200);
  return `${JSON.stringify(answer.body, null, 2)}\n`;
}

it('agents --json through a pipe waits past the old retries, then prints the matrix and nothing else', async (t) => {
  const { s, release, asked } = await heldDaemon(t);
  const run = runClient(['agents', '--json', '--url', s.base, '--cwd', s.cwd], { home: s.home });
  await waitUntil('the command asked more often than it used to', () => asked() > OLD_ATTEMPTS);
  release();
  const { code, stdout, stderr } = await run;
  assert.equal(stderr, '');
  assert.equal(code, 0);
  assert.equal(stdout, await matrixOf(s));
});

it('agents --json on a terminal counts the seconds on one line of standard error and erases it', async (t) => {
  const { s, release } = await heldDaemon(t);
  const answerFile = `${s.root}/answer.json`;
  const quoted = [process.execPath, CLI, 'agents', '--json', '--url', s.base, '--cwd', s.cwd]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  // Standard error is the terminal; standard output goes to a file.
  const child = spawn('script', ['-qec', `stty cols 200 rows 30; exec ${quoted} > '${answerFile}'`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', HOME: s.home },
  });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let terminal = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    terminal += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = `skillsd: computing the agent views of ${s.cwd}… `;
  /** The seconds one writing of the line shows (NaN for anything else). */
  const secondsOf = (text: string) =>
    text.startsWith(line) && text.endsWith(' s') ? Number(text.slice(line.length, -2)) : Number.NaN;
  // Released once the line has counted a second: the count goes on while the views are computed.
  await waitUntil('the progress line counted a second', () =>
    terminal.split('\r\u001b[K').some((text) => secondsOf(text) >= 1),
  );
  release();
  assert.equal(await exited, 0);
  assert.equal(await readFile(answerFile, 'utf8'), await matrixOf(s));
  // Each writing goes back to the start of the line and erases it first; the last one only erases.
  const writings = terminal.split('\r\u001b[K');
  assert.equal(writings.shift(), '');
  assert.equal(writings.pop(), '');
  const seconds = writings.map(secondsOf);
  assert.deepEqual(
    seconds.filter((n) => Number.isNaN(n)),
    [],
    JSON.stringify(writings),
  );
  assert.deepEqual(
    seconds,
    [...seconds].sort((a, b) => a - b),
  );
  assert.ok((seconds.at(-1) ?? 0) >= 1);
});
