// Start-up failures of the built CLI: exit codes and the one-line stderr of docs/api.md §Starting it.

import assert from 'node:assert/strict';
import { chmod, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CLI, runCli } from '../helpers/spawn-daemon.js';
import { makeTempDir } from '../helpers/temp-tree.js';

describe('skillsd command-line errors (built CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-e2e-'));
  });
  after(() => cleanup());

  const cases: Array<[string, string[], string]> = [
    ['an unknown flag', ['serve', '--prot', '1'], 'skillsd: unknown option --prot\n'],
    [
      'a bad port',
      ['serve', '--port', 'abc'],
      'skillsd: option --port: "abc" is not a port (an integer from 0 to 65535)\n',
    ],
    [
      'an unknown command',
      ['start'],
      'skillsd: unknown command "start" (expected serve, mcp, ls, show, cat, prompt, invoke, search, watch, wait, doctor, status, stop, open, agents, catalog)\n',
    ],
    ['no command', [], 'skillsd: missing command: use "skillsd serve"\n'],
  ];
  for (const [label, args, stderr] of cases) {
    it(`exits 2 on ${label} with one line on stderr`, async () => {
      const result = await runCli(args, { home: dir });
      assert.equal(result.code, 2);
      assert.equal(result.stderr, stderr);
      assert.equal(result.stdout, '');
    });
  }

  it('exits 2 on a bad environment value, naming the variable', async () => {
    const result = await runCli(['serve'], { home: dir, env: { SKILLSD_PROFILE: 'claude' } });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'skillsd: SKILLSD_PROFILE: unknown profile "claude" (expected musepi, omp, xcsh)\n');
  });

  it('exits 2 when the config file is missing', async () => {
    const result = await runCli(['serve', '--port', '0', '--config', `${dir}/missing.yaml`], { home: dir });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `skillsd: config file ${dir}/missing.yaml: not found\n`);
  });

  it('exits 2 on a bad config file, naming the file and the key', async () => {
    await writeFile(`${dir}/bad.json`, '{"skills": {"enablePiProjet": false}}');
    const result = await runCli(['serve', '--port', '0', '--config', `${dir}/bad.json`], { home: dir });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `skillsd: config file ${dir}/bad.json: unknown setting "skills.enablePiProjet"\n`);
  });

  it('exits 2 when the workspace does not exist', async () => {
    const result = await runCli(['serve', '--port', '0', '--cwd', `${dir}/nope`], { home: dir });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `skillsd: workspace directory ${dir}/nope does not exist\n`);
  });

  it('refuses to bind a non-loopback address without a token (exit 2)', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--cwd', dir], { home: dir });
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      'skillsd: refusing to listen on 0.0.0.0 without a token: pass --token-file FILE (or set server.tokenFile in the config)\n',
    );
  });

  it('refuses a token file readable by others (exit 2)', async () => {
    const file = `${dir}/open-token`;
    await writeFile(file, 'secret\n');
    await chmod(file, 0o644);
    const result = await runCli(['serve', '--port', '0', '--cwd', dir, '--token-file', file], { home: dir });
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `skillsd: token file ${file} is accessible by group or others (mode 0644): run chmod 600 ${file}\n`,
    );
  });

  it('refuses a config file holding server.token that others can read (exit 2)', async () => {
    const file = `${dir}/open-config.yaml`;
    await writeFile(file, 'server:\n  token: abcdef\n');
    await chmod(file, 0o644);
    const result = await runCli(['serve', '--port', '0', '--cwd', dir, '--config', file], { home: dir });
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `skillsd: config file ${file} holds server.token but is accessible by group or others (mode 0644): run chmod 600 ${file}\n`,
    );
  });

  describe('with the port taken', () => {
    let blocker: Server;
    let port: number;
    before(async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const address = blocker.address();
      assert.ok(address !== null && typeof address === 'object');
      port = address.port;
    });
    after(() => new Promise((resolve) => blocker.close(resolve)));

    it('exits 1 saying the port is in use', async () => {
      const result = await runCli(['serve', '--port', String(port), '--cwd', dir], { home: dir });
      assert.equal(result.code, 1);
      assert.equal(result.stderr, `skillsd: port ${port} is already in use on 127.0.0.1\n`);
    });

    it('prints the start-up log lines before the error, and leaves no generated token file behind', async () => {
      const tokenFile = `${dir}/generated-token`;
      // stdout and stderr into one pipe, as on a terminal: the order the lines arrive in is the order they were written.
      const result = await runCli(['serve', '--port', String(port), '--cwd', dir, '--token-file', tokenFile], {
        home: dir,
        wrapper: ['sh', '-c', 'exec "$@" 2>&1', 'sh'],
      });
      assert.equal(result.code, 1);
      const lines = result.stdout.trimEnd().split('\n');
      assert.equal(lines.at(-1), `skillsd: port ${port} is already in use on 127.0.0.1`);
      const messages = lines.slice(0, -1).map((line) => (JSON.parse(line) as { msg: string }).msg);
      assert.ok(messages.includes(`serving the workspace ${dir}`), messages.join('\n'));
      assert.ok(messages.includes(`generated a new bearer token in ${tokenFile}`), messages.join('\n'));
      await assert.rejects(stat(tokenFile), { code: 'ENOENT' });
    });
  });

  it('prints the usage with --help and help, exit 0', async () => {
    for (const args of [['--help'], ['help'], ['serve', '-h']]) {
      const result = await runCli(args, { home: dir });
      assert.equal(result.code, 0);
      assert.match(result.stdout, /^Usage: skillsd serve \[options\]\n/);
      assert.match(result.stdout, /--token-file FILE/);
      assert.equal(result.stderr, '');
    }
  });

  it('is an executable script for the package bin', async () => {
    const { readFile } = await import('node:fs/promises');
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      bin: Record<string, string>;
    };
    assert.deepEqual(manifest.bin, { skillsd: 'dist/skillsd.cjs' });
    for (const file of [new URL('../../dist/skillsd.cjs', import.meta.url), CLI]) {
      const script = await readFile(file, 'utf8');
      assert.equal(script.split('\n', 1)[0], '#!/usr/bin/env node', String(file));
    }
  });

  it('prints the version with --version, exit 0', async () => {
    const { version } = JSON.parse(
      await (await import('node:fs/promises')).readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const result = await runCli(['--version'], { home: dir });
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `${version}\n`);
  });
});
