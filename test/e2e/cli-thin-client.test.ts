// A client command against a running daemon loads the client, the argument parser and the output code, and nothing
// of the daemon (docs/performance.md "Client commands"): every module a real CLI process resolves is recorded by a
// resolve hook (test/helpers/record-modules.mjs) and checked against the server's dependencies and directories.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const execFileAsync = promisify(execFile);
const RECORDER = fileURLToPath(new URL('../helpers/record-modules.mjs', import.meta.url));
const CLIENT_ENTRY = fileURLToPath(new URL('../../dist/client/index.js', import.meta.url));

/** What only the daemon needs: its framework, faces, logging, watching and schemas, and its own directories. */
const SERVER_ONLY =
  /\/node_modules\/(fastify|@fastify\/[^/]+|fastify-plugin|@modelcontextprotocol\/[^/]+|pino|pino-pretty|prom-client|zod|tar|chokidar|typebox|yaml|close-with-grace)\/|\/dist\/(server|mcp|live-index|watch|answers)\//;

function serverModules(log: string): string[] {
  return [...new Set(log.split('\n').filter((url) => SERVER_ONLY.test(url)))];
}

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-thin-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'project/.git': { dir: true },
  });
  return { dir, home, project };
}

describe('client commands load no module of the daemon', () => {
  it('status, ls, show, cat, prompt, invoke, search, doctor, wait, --version and stop against a daemon', async (t) => {
    const { dir, home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const commands: Array<[args: string[], exit: number]> = [
      [['status'], 0],
      [['ls', '--json'], 0],
      [['show', 'pdf'], 0],
      [['cat', 'pdf'], 0],
      [['prompt'], 0],
      [['invoke', '/skill:pdf now'], 0],
      [['search', 'pdf'], 0],
      [['doctor'], 0],
      [['wait', '--since', '0'], 0],
      [['--version'], 0],
      [['stop'], 0],
    ];
    for (const [index, [args, exit]] of commands.entries()) {
      const log = `${dir}/modules-${index}.txt`;
      const run = await runCli(args, {
        home,
        cwd: project,
        env: { NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_MODULE_LOG: log },
      });
      assert.equal(run.code, exit, `skillsd ${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr, '', `skillsd ${args.join(' ')}`);
      const loaded = await readFile(log, 'utf8');
      // The recorder saw the command's own module load: a log that records nothing cannot pass.
      if (args[0] !== '--version') assert.match(loaded, new RegExp(`/dist/cli/commands/${args[0]}\\.js\\n`));
      assert.deepEqual(serverModules(loaded), [], `skillsd ${args.join(' ')}`);
    }
    assert.deepEqual(await daemon.process.exited, { code: 0, signal: null });
  });

  it('status and ls --json load exactly the client, the parser, the output code and their command', async (t) => {
    const { dir, home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    // Each module of ours is one more trip through the ES module loader (docs/performance.md "Client commands"): the
    // event-stream parser only for a subscription, TLS only for an https URL, fs/promises nowhere on this path.
    // `node:http` is taken from the runtime, not imported (test/e2e/http-builtin-namespace.test.ts): no resolve sees it.
    const common = [
      'cli.js',
      'cli/cli-error.js',
      'cli/commands/command.js',
      'cli/current-directory.js',
      'cli/output.js',
      'cli/parse-args.js',
      'cli/run-client-command.js',
      'cli/terminal-text.js',
      'client/errors.js',
      'client/find-daemon.js',
      'client/http-fetch.js',
      'client/listener-owner.js',
      'client/process-identity.js',
      'client/runtime-file.js',
      'client/skillsd-client.js',
      'client/socket-tables.js',
    ];
    const builtins = ['node:fs', 'node:net', 'node:os', 'node:path', 'node:util'];
    const cases: Array<[args: string[], own: string[]]> = [
      [['status'], ['cli/commands/status.js']],
      [
        ['ls', '--json'],
        ['cli/commands/display-path.js', 'cli/commands/ls.js'],
      ],
    ];
    for (const [index, [args, own]] of cases.entries()) {
      const log = `${dir}/load-path-${index}.txt`;
      const run = await runCli(args, {
        home,
        cwd: project,
        env: { NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_MODULE_LOG: log },
      });
      assert.equal(run.code, 0, `skillsd ${args.join(' ')}: ${run.stderr}`);
      const loaded = [...new Set((await readFile(log, 'utf8')).split('\n').filter((url) => url !== ''))];
      const ours = loaded
        .filter((url) => url.includes('/dist/'))
        .map((url) => url.slice(url.indexOf('/dist/') + '/dist/'.length))
        .sort();
      assert.deepEqual(ours, [...common, ...own].sort(), `skillsd ${args.join(' ')}`);
      assert.deepEqual(loaded.filter((url) => url.startsWith('node:')).sort(), builtins, `skillsd ${args.join(' ')}`);
      assert.deepEqual(
        loaded.filter((url) => !url.includes('/dist/') && !url.startsWith('node:')),
        [],
        `skillsd ${args.join(' ')}: no package, no file outside dist/`,
      );
    }
  });

  it('importing the client entry loads nothing of the daemon', async (t) => {
    const { dir, home } = await fixture(t);
    const log = `${dir}/modules.txt`;
    const run = await execFileAsync(
      process.execPath,
      ['-e', `import(${JSON.stringify(CLIENT_ENTRY)}).then((m) => console.log(typeof m.SkillsdClient))`],
      {
        env: { PATH: process.env.PATH, HOME: home, NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_MODULE_LOG: log },
      },
    );
    assert.equal(run.stdout, 'function\n', run.stderr);
    const loaded = await readFile(log, 'utf8');
    assert.match(loaded, /\/dist\/client\/skillsd-client\.js\n/);
    assert.deepEqual(serverModules(loaded), []);
  });
});
