// The client trusts only a daemon of its own user (docs/cli.md "Trusting only your own daemon"), tried as a hostile
// second user of the machine would: a real uid (nobody, through setpriv) listening where the real CLI would go, and a
// real daemon of the test's user. The listener records every request: the token must never reach it, and nothing it
// answers may be printed.

import assert from 'node:assert/strict';
import { chown, lstat, mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { writeRuntimeFile } from '../../src/client/runtime-file.js';
import { canSwitchUsers } from '../helpers/as-user.js';
import { FOREIGN_SKILL, NOBODY, startForeignListener } from '../helpers/foreign-listener.js';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const skip = canSwitchUsers ? false : 'running a listener as another user needs root';
const TOKEN = 'a-token-of-the-user-of-at-least-32-characters';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-trust-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'project/.git': { dir: true },
    'project/.musepi/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Lint rules' }),
  });
  await mkdir(`${dir}/tok`, { mode: 0o700 });
  await writeFile(`${dir}/tok/token`, `${TOKEN}\n`, { mode: 0o600 });
  return { dir, home: `${dir}/home`, project: `${dir}/project`, tokenFile: `${dir}/tok/token` };
}

/** A runtime file as a killed daemon leaves it, naming `pid` and `url`; its start time is read from `pid` itself. */
function staleRuntimeFile(home: string, pid: number, url: string, cwd: string, tokenFile: string, extra = {}): string {
  const port = Number(new URL(url).port);
  return writeRuntimeFile(
    { env: {}, home },
    {
      pid,
      url,
      port,
      host: '127.0.0.1',
      cwd,
      startedAt: new Date().toISOString(),
      tokenFile,
      version: '0.1.0',
      ...extra,
    },
  );
}

const names = (stdout: string) => (JSON.parse(stdout) as { skills: Array<{ name: string }> }).skills.map((s) => s.name);

describe('a stale runtime file whose pid now belongs to another user', { skip }, () => {
  it('is removed, the token never reaches that user’s listener, and nothing it answers is printed', async (t) => {
    const { home, project, tokenFile } = await fixture(t);
    const foreign = await startForeignListener(t);
    // The fallback port, held by a socket of this user that resets every connection: no daemon there.
    const fallback = new URL(await deadUrl(t)).port;
    const env = { SKILLSD_PORT: fallback };
    const opts = { home, cwd: project, env };
    const stale = () => staleRuntimeFile(home, foreign.pid, foreign.url, project, tokenFile);
    const line = (file: string) =>
      `skillsd: ignoring the runtime file ${file}: pid ${foreign.pid} belongs to uid ${NOBODY}, not to you; removed\n`;

    const file = stale();
    const ls = await runClient(['ls', '--json'], opts);
    assert.equal(ls.code, 0, ls.stderr);
    assert.equal(
      ls.stderr,
      `${line(file)}skillsd: no daemon running (nothing answers at http://127.0.0.1:${fallback}); ` +
        `answered in-process for ${project}\n`,
    );
    assert.deepEqual(names(ls.stdout), ['lint', 'pdf']);
    assert.equal(ls.stdout.includes(FOREIGN_SKILL), false);
    assert.deepEqual(await readdir(`${home}/.skillsd/run`), []);

    for (const command of ['status', 'stop']) {
      const runtime = stale();
      const run = await runClient([command], opts);
      assert.equal(run.code, 3, command);
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        `${line(runtime)}skillsd: no daemon running (nothing answers at http://127.0.0.1:${fallback})\n`,
      );
    }
    // `stop` signalled nothing: the other user's process still runs.
    assert.equal(foreign.child.exitCode, null);
    assert.equal(foreign.child.signalCode, null);
    assert.deepEqual(foreign.requests, []);
  });

  it('does not win over a real daemon of this user because its workspace matched better', async (t) => {
    const { home, project, tokenFile } = await fixture(t);
    const foreign = await startForeignListener(t);
    // The real daemon serves the home directory; the stale file claims the project the client runs in.
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', home, '--token-file', tokenFile], { home });
    t.after(() => daemon.process.kill());
    staleRuntimeFile(home, foreign.pid, foreign.url, project, tokenFile);
    const ls = await runClient(['ls', '--json', '--cwd', project], { home, cwd: project });
    assert.equal(ls.code, 0, ls.stderr);
    assert.deepEqual(names(ls.stdout), ['lint', 'pdf']);
    const status = await runClient(['status', '--json'], { home, cwd: project });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).pid, daemon.process.child.pid);
    assert.deepEqual(await readdir(`${home}/.skillsd/run`), [`daemon-${daemon.process.child.pid}.json`]);
    assert.deepEqual(foreign.requests, []);
  });

  it('a pid of this user that started at another time is not the daemon either', async (t) => {
    const { home, project, tokenFile } = await fixture(t);
    const foreign = await startForeignListener(t);
    const fallback = new URL(await deadUrl(t)).port;
    // The test's own process: alive and this user's, but not the process the file was written for.
    staleRuntimeFile(home, process.pid, foreign.url, project, tokenFile, { bootId: 'another-boot', startTicks: 1 });
    const status = await runClient(['status'], { home, cwd: project, env: { SKILLSD_PORT: fallback } });
    assert.equal(status.code, 3);
    assert.equal(status.stderr, `skillsd: no daemon running (nothing answers at http://127.0.0.1:${fallback})\n`);
    assert.deepEqual(await readdir(`${home}/.skillsd/run`), []);
    assert.deepEqual(foreign.requests, []);
  });
});

describe('another user listening on the port the client falls back to', { skip }, () => {
  it('gets no request: one line says whose listener it is, then the answer without a daemon', async (t) => {
    const { home, project, tokenFile } = await fixture(t);
    const foreign = await startForeignListener(t);
    const where = `127.0.0.1:${foreign.port}`;
    const refused = `skillsd: the listener on ${where} belongs to uid ${NOBODY}, not to you\n`;
    const opts = { home, cwd: project, env: { SKILLSD_PORT: String(foreign.port), SKILLSD_TOKEN_FILE: tokenFile } };

    const ls = await runClient(['ls', '--json'], opts);
    assert.equal(ls.code, 0, ls.stderr);
    assert.equal(ls.stderr, `${refused}skillsd: answered in-process for ${project}\n`);
    assert.deepEqual(names(ls.stdout), ['lint', 'pdf']);
    const human = await runClient(['ls'], opts);
    assert.equal(human.stdout.includes(FOREIGN_SKILL), false);
    for (const command of ['status', 'stop', 'watch', 'wait']) {
      const run = await runClient([command], opts);
      assert.equal(run.code, 3, command);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, refused, command);
    }
    // A loopback --url is checked the same way.
    const explicit = await runClient(['status', '--url', foreign.url], { home, cwd: project });
    assert.equal(explicit.code, 3);
    assert.equal(explicit.stderr, refused);
    assert.deepEqual(foreign.requests, []);
  });
});

describe('the runtime directory', () => {
  it('a link is refused: nothing is written through it, its target keeps its mode, a log line says why', async (t) => {
    const { dir, home, project } = await fixture(t);
    await mkdir(`${dir}/elsewhere`, { mode: 0o755 });
    await mkdir(`${home}/.skillsd`, { mode: 0o700 });
    await symlink(`${dir}/elsewhere`, `${home}/.skillsd/run`);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const line = await daemon.process.waitForLog((log) => log.msg.startsWith('runtime directory'));
    assert.equal(
      line.msg,
      `runtime directory ${home}/.skillsd/run is a symbolic link: no runtime file written; ` +
        'clients will not find this daemon by themselves',
    );
    assert.equal(line.level, 40);
    assert.deepEqual(await readdir(`${dir}/elsewhere`), []);
    assert.equal((await stat(`${dir}/elsewhere`)).mode & 0o777, 0o755);
    assert.equal((await lstat(`${home}/.skillsd/run`)).isSymbolicLink(), true);
    // The daemon serves all the same; a client is told its URL.
    const ls = await runClient(['ls', '--json', '--url', daemon.url], { home, cwd: project });
    assert.equal(ls.code, 0, ls.stderr);
    assert.deepEqual(names(ls.stdout), ['lint', 'pdf']);
  });

  it('another user’s directory is refused and left as it was', { skip }, async (t) => {
    const { dir, home, project } = await fixture(t);
    await mkdir(`${dir}/xdg/skillsd`, { recursive: true, mode: 0o755 });
    await chown(`${dir}/xdg/skillsd`, NOBODY, NOBODY);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], {
      home,
      env: { XDG_RUNTIME_DIR: `${dir}/xdg` },
    });
    t.after(() => daemon.process.kill());
    const line = await daemon.process.waitForLog((log) => log.msg.startsWith('runtime directory'));
    assert.equal(
      line.msg,
      `runtime directory ${dir}/xdg/skillsd belongs to uid ${NOBODY}, not to this user: no runtime file written; ` +
        'clients will not find this daemon by themselves',
    );
    assert.deepEqual(await readdir(`${dir}/xdg/skillsd`), []);
    const info = await stat(`${dir}/xdg/skillsd`);
    assert.deepEqual([info.mode & 0o777, info.uid], [0o755, NOBODY]);
  });
});
