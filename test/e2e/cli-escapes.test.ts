// Escape sequences in a skill's description, name and folder name, printed by the real CLI against a real daemon:
// shown escaped by every command (docs/cli.md "Output"), to a pipe and to a terminal with colour; `--json` stays the
// exact JSON of the API; `cat` redirected to a file writes the exact bytes.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runClient } from '../helpers/run-client.js';
import { CLI, DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
/** Raw control characters a terminal would act on: C0 but tab and newline, DEL, C1. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** OSC 52 (writes the clipboard), BEL, an SGR colour, C1 CSI, DEL. */
const DESCRIPTION = 'Tools \u001b]52;c;SGVsbG8=\u0007 and \u001b[31mred\u001b[0m \u009b2J \u007f end';
const SHOWN = 'Tools \\x1b]52;c;SGVsbG8=\\x07 and \\x1b[31mred\\x1b[0m \\u009b2J \\x7f end';
const FOLDER = 'dir\u001b[2Jname';
const NAME = 'bad\u001b[31mname';
const BODY = 'Body \u001b]0;title\u0007 line\r\nnext\n';
const SKILL_MD =
  '---\nname: osc\ndescription: "Tools \\e]52;c;SGVsbG8=\\a and \\e[31mred\\e[0m \\x9b2J \\x7f end"\n---\n\n' + BODY;

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-escapes-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.keep': '',
    'project/.git': { dir: true },
    'project/.musepi/skills/osc/SKILL.md': SKILL_MD,
    [`project/.musepi/skills/${FOLDER}/SKILL.md`]: '---\nname: "bad\\e[31mname"\ndescription: plain\n---\n',
  });
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
  t.after(() => daemon.process.kill());
  return { dir, home, project, daemon };
}

async function apiJson(url: string): Promise<unknown> {
  for (;;) {
    const response = await fetch(url);
    if (response.status !== 503) return response.json();
    await response.arrayBuffer();
  }
}

function lineOf(text: string, start: string): string | undefined {
  return text.split('\n').find((line) => line.startsWith(start));
}

describe('escape sequences from skills', () => {
  it('come out escaped in ls, show, doctor, cat, prompt and invoke; --json is the exact JSON', async (t) => {
    const { dir, home, project, daemon } = await fixture(t);
    const opts = { home, cwd: project };
    const outputs: Record<string, string> = {};
    const cli = async (args: string[]) => {
      const result = await runClient(args, opts);
      outputs[args.join(' ')] = result.stdout + result.stderr;
      return result;
    };

    const ls = await cli(['ls']);
    assert.equal(ls.code, 0, ls.stderr);
    assert.equal(
      ls.stdout,
      'NAME             PROVIDER  LEVEL    HIDDEN  DESCRIPTION\n' +
        'bad\\x1b[31mname  native    project  no      plain\n' +
        `osc              native    project  no      ${SHOWN}\n`,
    );

    const show = await cli(['show', 'osc']);
    assert.equal(lineOf(show.stdout, '  description'), `  description  ${SHOWN}`);
    assert.equal(
      lineOf(show.stdout, '    description:'),
      '    description: "Tools \\u001b]52;c;SGVsbG8=\\u0007 and \\u001b[31mred\\u001b[0m \\u009b2J \\u007f end"',
    );
    const showName = await cli(['show', NAME]);
    assert.equal(showName.stdout.split('\n')[0], 'bad\\x1b[31mname');
    assert.equal(
      lineOf(showName.stdout, '  file'),
      `  file         ${project}/.musepi/skills/dir\\x1b[2Jname/SKILL.md`,
    );

    const doctor = await cli(['doctor']);
    assert.equal(doctor.code, 0, doctor.stderr);
    // Grouped by rule, each finding starts with its path (docs/doctor.md "The workspace report").
    assert.ok(doctor.stdout.includes('\n    ./.musepi/skills/dir\\x1b[2Jname/SKILL.md:2: name "bad'), doctor.stdout);
    const doctorName = await cli(['doctor', NAME]);
    assert.equal(
      doctorName.stdout.split('\n')[0],
      `bad\\x1b[31mname: loaded from ${project}/.musepi/skills/dir\\x1b[2Jname/SKILL.md (native:project)`,
    );

    // A body keeps its newlines and a CRLF; every other control character is escaped.
    const cat = await cli(['cat', 'osc', '--body']);
    assert.equal(cat.stdout, 'Body \\x1b]0;title\\x07 line\r\nnext\n');
    const catAll = await cli(['cat', 'osc']);
    assert.equal(catAll.stdout.endsWith('Body \\x1b]0;title\\x07 line\r\nnext\n'), true);
    const prompt = await cli(['prompt']);
    assert.match(prompt.stdout, /^- osc: Tools \\x1b\]52;c;SGVsbG8=\\x07 and \\x1b\[31mred/m);
    const invoke = await cli(['invoke', '/skill:osc now']);
    assert.equal(invoke.code, 0, invoke.stderr);
    assert.ok(invoke.stdout.includes('Body \\x1b]0;title\\x07 line'), invoke.stdout);

    for (const [command, text] of Object.entries(outputs)) {
      assert.doesNotMatch(text.replaceAll('\r\n', '\n'), RAW_CONTROL, command);
    }

    // --json: the API's JSON, value for value, and still no raw control character in the text.
    for (const [args, path] of [
      [['ls', '--json'], '/skills'],
      [['show', 'osc', '--json'], '/skills/osc'],
      [['doctor', '--json'], '/doctor'],
    ] as const) {
      const json = await runClient([...args], opts);
      assert.doesNotMatch(json.stdout, RAW_CONTROL, args.join(' '));
      assert.deepEqual(JSON.parse(json.stdout), await apiJson(`${daemon.url}${path}`), args.join(' '));
    }
    const lsJson = await runClient(['ls', '--json'], opts);
    assert.equal(
      (JSON.parse(lsJson.stdout) as { skills: Array<{ description: string }> }).skills[1]?.description,
      DESCRIPTION,
    );

    // Redirected to a regular file, cat writes the bytes exactly.
    await run('sh', ['-c', `exec "$0" "$1" cat osc > "$2"`, process.execPath, CLI, `${dir}/out.md`], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    });
    assert.equal(await readFile(`${dir}/out.md`, 'utf8'), SKILL_MD);
  });

  it('come out escaped on a colour terminal, where only the CLI’s own colour is raw', async (t) => {
    const { home, project } = await fixture(t);
    const quoted = [process.execPath, CLI, 'ls'].map((arg) => `'${arg}'`).join(' ');
    const { stdout } = await run('script', ['-qec', `stty cols 200 rows 30; exec ${quoted} 2>/dev/null`, '/dev/null'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', HOME: home },
      timeout: 60_000,
    });
    assert.equal(
      stdout.replaceAll('\r\n', '\n'),
      '\u001b[1mNAME             PROVIDER  LEVEL    HIDDEN  DESCRIPTION\u001b[22m\n' +
        'bad\\x1b[31mname  native    project  no      plain\n' +
        `osc              native    project  no      ${SHOWN}\n`,
    );
  });

  it('come out escaped in watch lines, one line per event', async (t) => {
    const { home, project } = await fixture(t);
    const watch = new DaemonProcess(['watch'], { home, cwd: project });
    t.after(() => watch.kill());
    await waitFor(watch, () => watch.stderr.includes('watching: generation 1'));
    // A name with a line break and an escape sequence: it must not print a line of its own.
    await writeTree(project, {
      '.musepi/skills/late/SKILL.md': '---\nname: "late\\ngeneration 9: removed \\e[2Jall"\ndescription: x\n---\n',
    });
    await waitFor(watch, () => watch.stdout.includes('\n'));
    assert.equal(watch.stdout, 'generation 2: added late generation 9: removed \\x1b[2Jall\n');
    watch.child.kill('SIGINT');
    assert.deepEqual(await watch.waitForExit(20_000), { code: 0, signal: null });
  });
});

/** Resolves once `condition` holds, checked on every chunk the process writes. */
function waitFor(child: DaemonProcess, condition: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) {
        child.child.stdout?.off('data', later);
        child.child.stderr?.off('data', later);
        resolve();
      }
    };
    const later = () => setImmediate(check);
    child.child.stdout?.on('data', later);
    child.child.stderr?.on('data', later);
    child.exited.then(() => reject(new Error(`exited; stdout ${child.stdout}; stderr ${child.stderr}`)));
    check();
  });
}
