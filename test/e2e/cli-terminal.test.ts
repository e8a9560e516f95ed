// The human output of the client commands on a real terminal (a pseudo-terminal from util-linux `script`): tables cut
// to the terminal's width, colour only without NO_COLOR; and the same command through a pipe, uncut and plain.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { CLI } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
const LONG = 'Extract text, tables and images from PDF files, fill in forms, merge and split documents';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-tty-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'project/.git': { dir: true },
    'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: LONG }),
  });
  return { home: `${dir}/home`, project: `${dir}/project` };
}

/** Runs `skillsd ARGS` inside a pseudo-terminal COLUMNS wide; returns what the terminal received. */
async function inTerminal(args: string[], columns: number, env: Record<string, string>, cwd: string): Promise<string> {
  const quoted = [process.execPath, CLI, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const { stdout } = await run(
    'script',
    ['-qec', `stty cols ${columns} rows 30; exec ${quoted} 2>/dev/null`, '/dev/null'],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', ...env },
      timeout: 60_000,
    },
  );
  return stdout.replaceAll('\r\n', '\n');
}

describe('human output on a terminal', () => {
  it('ls cuts the table to the terminal width and bolds the header; NO_COLOR leaves colour out', async (t) => {
    const { home, project } = await fixture(t);
    const env = { HOME: home, SKILLSD_URL: await deadUrl(t) };
    const plain = await inTerminal(['ls'], 40, { ...env, NO_COLOR: '1' }, project);
    assert.equal(plain, 'NAME  PROVIDER  LEVEL    HIDDEN  DESCRI…\n' + 'pdf   native    project  no      Extrac…\n');
    const coloured = await inTerminal(['ls'], 60, env, project);
    assert.equal(
      coloured,
      '\u001b[1mNAME  PROVIDER  LEVEL    HIDDEN  DESCRIPTION\u001b[22m\n' +
        'pdf   native    project  no      Extract text, tables and i…\n',
    );
  });

  it('the same command through a pipe prints every character, without colour; --json prints the API JSON', async (t) => {
    const { home, project } = await fixture(t);
    const opts = { home, cwd: project, env: { SKILLSD_URL: await deadUrl(t) } };
    const piped = await runClient(['ls'], opts);
    assert.equal(
      piped.stdout,
      `NAME  PROVIDER  LEVEL    HIDDEN  DESCRIPTION\npdf   native    project  no      ${LONG}\n`,
    );
    const json = await runClient(['ls', '--json'], opts);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).skills[0].description, LONG);
  });
});
