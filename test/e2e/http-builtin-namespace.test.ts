// No command and no daemon loads Node's bundled fetch, undici (docs/performance.md "Client commands"). On Node 22 and
// later an ES module import of `node:http` builds the module's namespace by reading every export, `http.WebSocket`
// among them, a getter that loads undici with TLS, HTTP/2 and zlib behind it; our modules take `node:http` from the
// runtime instead. Every built-in a real process loaded is recorded at its exit (test/helpers/record-modules.mjs).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const execFileAsync = promisify(execFile);
const RECORDER = fileURLToPath(new URL('../helpers/record-modules.mjs', import.meta.url));
const UNDICI = 'internal/deps/undici/undici';

async function builtinsOf(log: string): Promise<string[]> {
  return (await readFile(log, 'utf8')).split('\n').filter((name) => name !== '');
}

/** Whether this Node loads undici for an ES module that imports `node:http`: the cost this test guards against. */
async function namespaceLoadsUndici(dir: string): Promise<boolean> {
  const log = `${dir}/control.txt`;
  await execFileAsync(process.execPath, ['--input-type=module', '-e', "import 'node:http';"], {
    env: { PATH: process.env.PATH, NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_BUILTIN_LOG: log },
  });
  const loaded = await builtinsOf(log);
  assert.ok(loaded.includes('http'), 'the recorder saw node:http load');
  return loaded.includes(UNDICI);
}

describe('node:http is taken from the runtime, not through its ES module namespace', () => {
  it('a daemon that answered, client commands against it and an in-process answer load no undici', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-http-namespace-');
    t.after(cleanup);
    if (!(await namespaceLoadsUndici(dir))) {
      t.skip(`Node ${process.version}: an ES module import of node:http loads no undici here`);
      return;
    }
    const home = `${dir}/home`;
    const project = `${dir}/project`;
    await writeTree(dir, {
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'project/.git': { dir: true },
    });
    const recorded = (log: string) => ({ NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_BUILTIN_LOG: log });

    const daemonLog = `${dir}/daemon.txt`;
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], {
      home,
      env: recorded(daemonLog),
    });
    t.after(() => daemon.process.kill());
    assert.equal((await fetch(`${daemon.url}/skills`)).status, 200);
    // An error answer goes through src/server/errors.ts, which reads node:http's status texts.
    const missing = await fetch(`${daemon.url}/skills/nope`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: string }).error, 'Not Found');

    const runs: Array<[label: string, args: string[], env: Record<string, string>]> = [
      ['status', ['status'], {}],
      ['ls --json', ['ls', '--json'], {}],
      ['ls --json in-process', ['ls', '--json'], { SKILLSD_URL: await deadUrl(t) }],
    ];
    for (const [index, [label, args, env]] of runs.entries()) {
      const log = `${dir}/client-${index}.txt`;
      const run = await runClient(args, { home, cwd: project, env: { ...env, ...recorded(log) } });
      assert.equal(run.code, 0, `${label}: ${run.stderr}`);
      const loaded = await builtinsOf(log);
      assert.ok(loaded.includes('http'), `${label} loaded node:http`);
      assert.equal(loaded.includes(UNDICI), false, label);
    }

    daemon.process.child.kill('SIGTERM');
    assert.deepEqual(await daemon.process.exited, { code: 0, signal: null });
    const loaded = await builtinsOf(daemonLog);
    assert.ok(loaded.includes('http'));
    assert.equal(loaded.includes(UNDICI), false, 'the daemon');
  });
});
