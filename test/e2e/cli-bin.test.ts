// The package's bin, `dist/skillsd.cjs`: it answers `--version` without loading the program or any ES module, and hands
// every other command line to the program, `dist/cli.js`, whose output and exit code it then gives unchanged
// (docs/cli.md, docs/performance.md "Client commands"); either ends quietly, exit 0, when its reader has gone.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deadUrl } from '../helpers/run-client.js';
import { runCli } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const BIN = fileURLToPath(new URL('../../dist/skillsd.cjs', import.meta.url));
const PROGRAM = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node <script> <args>` to completion, with the suite's scrubbed environment (test/helpers/spawn-daemon.ts). */
async function run(script: string, args: string[], where: { home: string; cwd: string }): Promise<Run> {
  const { code, stdout, stderr } = await runCli(args, { ...where, script });
  return { code, stdout, stderr };
}

/** Numbers the FIFOs of one test file. */
let pipes = 0;

/**
 * Runs `file args` with its stdout on a pipe whose reader has already gone, as `skillsd --version | true` can leave
 * it: every write fails with EPIPE. The FIFO's only reader is closed before the child starts, so this does not depend
 * on timing.
 */
async function runIntoClosedPipe(file: string, args: string[], where: { home: string; cwd: string }): Promise<Run> {
  const fifo = `${where.home}/../closed-pipe-${++pipes}`;
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  closeSync(reader);
  try {
    const child = spawn(process.execPath, [file, ...args], {
      cwd: where.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: where.home },
      stdio: ['ignore', writer, 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? -1)));
    return { code, stdout: '', stderr };
  } finally {
    closeSync(writer);
  }
}

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-bin-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Use when: the user asks for PDF tools' }),
    'project/.git': { dir: true },
  });
  return { home: `${dir}/home`, cwd: `${dir}/project` };
}

describe('the bin (dist/skillsd.cjs)', () => {
  it('prints the package version for --version, -v and version, as the program does', async (t) => {
    const where = await fixture(t);
    const manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as { version: string };
    for (const line of [['--version'], ['-v'], ['version']]) {
      const bin = await run(BIN, line, where);
      assert.deepEqual(bin, { code: 0, stdout: `${manifest.version}\n`, stderr: '' }, line.join(' '));
      assert.deepEqual(await run(PROGRAM, line, where), bin, line.join(' '));
    }
  });

  it('answers --version without loading the program: a copy beside package.json and no dist/cli.js answers', async (t) => {
    const where = await fixture(t);
    const copy = `${where.home}/../package`;
    await mkdir(`${copy}/dist`, { recursive: true });
    await writeFile(`${copy}/package.json`, JSON.stringify({ name: 'skillsd', version: '9.8.7', type: 'module' }));
    await copyFile(BIN, `${copy}/dist/skillsd.cjs`);
    assert.deepEqual(await run(`${copy}/dist/skillsd.cjs`, ['--version'], where), {
      code: 0,
      stdout: '9.8.7\n',
      stderr: '',
    });
    // Anything else needs the program, which this copy lacks.
    const status = await run(`${copy}/dist/skillsd.cjs`, ['status'], where);
    assert.equal(status.code, 1);
    assert.match(status.stderr, /ERR_MODULE_NOT_FOUND/);
  });

  it('hands every other command line to the program: the same output and exit code', async (t) => {
    const where = await fixture(t);
    const nobody = await deadUrl(t);
    const lines: Array<[args: string[], code: number]> = [
      [['--help'], 0],
      [['-v', '--port', '7'], 0],
      [['bogus'], 2],
      [['serve', '--port', 'many'], 2],
      [['ls', '--json', '--url', nobody], 0],
      [['show', 'pdf', '--url', nobody], 0],
      [['show', 'missing', '--url', nobody], 1],
    ];
    for (const [args, code] of lines) {
      const bin = await run(BIN, args, where);
      assert.equal(bin.code, code, `${args.join(' ')}: ${bin.stderr}`);
      assert.deepEqual(bin, await run(PROGRAM, args, where), args.join(' '));
    }
    const listed = JSON.parse((await run(BIN, ['ls', '--json', '--url', nobody], where)).stdout);
    assert.deepEqual(
      listed.skills.map((skill: { name: string }) => skill.name),
      ['pdf'],
    );
  });

  it('ends quietly with exit 0 when the reader of its output has gone, as client commands do', async (t) => {
    const where = await fixture(t);
    const nobody = await deadUrl(t);
    const lines: Array<[file: string, args: string[]]> = [
      [BIN, ['--version']],
      [PROGRAM, ['--version']],
      [BIN, ['--help']],
      [BIN, ['ls', '--help']],
      [BIN, ['ls', '--json', '--url', nobody]],
    ];
    for (const [file, args] of lines) {
      const run = await runIntoClosedPipe(file, args, where);
      const stderr = args.includes('--url')
        ? `skillsd: no daemon running (nothing answers at ${nobody}); answered in-process for ${where.cwd}\n`
        : '';
      assert.deepEqual(run, { code: 0, stdout: '', stderr }, `${file} ${args.join(' ')}`);
    }
  });
});
