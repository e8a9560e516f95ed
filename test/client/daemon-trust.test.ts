// The typed client trusts only a daemon of its own user (docs/cli.md "Trusting only your own daemon"): what an editor
// plugin gets from `findDaemon` and `SkillsdClient` without the command line. Another user is a real uid (nobody,
// through setpriv) with a real listener that records every request.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { DaemonNotTrustedError, isDaemonUnreachable } from '../../src/client/errors.js';
import { findDaemon } from '../../src/client/find-daemon.js';
import { checkListener } from '../../src/client/listener-owner.js';
import { writeRuntimeFile } from '../../src/client/runtime-file.js';
import { SkillsdClient } from '../../src/client/skillsd-client.js';
import { canSwitchUsers } from '../helpers/as-user.js';
import { NOBODY, startForeignListener } from '../helpers/foreign-listener.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const skip = canSwitchUsers ? false : 'running a listener as another user needs root';

const INFO = {
  url: 'http://127.0.0.1:45681',
  port: 45681,
  host: '127.0.0.1',
  startedAt: '2026-01-01T00:00:00.000Z',
  version: '0.1.0',
};

/** A listener of this process's own user on 127.0.0.1 (port 0); closed in `t.after`. */
async function ownListener(t: { after(fn: () => Promise<void>): void }): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

describe('checkListener', () => {
  it('names the listener’s user: own, nobody, or not a loopback address', async (t) => {
    const port = await ownListener(t);
    assert.deepEqual(await checkListener(`http://127.0.0.1:${port}`), { verdict: 'own' });
    assert.deepEqual(await checkListener(`http://localhost:${port}/`), { verdict: 'own' });
    const free = createServer();
    // A port nothing listens on: taken, then released.
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const freePort = (free.address() as { port: number }).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    assert.deepEqual(await checkListener(`http://127.0.0.1:${freePort}`), { verdict: 'none' });
    assert.deepEqual(await checkListener('http://192.0.2.1:7420'), { verdict: 'unchecked' });
  });

  it('finds another user’s listener, also behind localhost', { skip }, async (t) => {
    const foreign = await startForeignListener(t);
    assert.deepEqual(await checkListener(foreign.url), {
      verdict: 'foreign',
      uid: NOBODY,
      where: `127.0.0.1:${foreign.port}`,
    });
    assert.deepEqual(await checkListener(`http://localhost:${foreign.port}`), {
      verdict: 'foreign',
      uid: NOBODY,
      where: `localhost:${foreign.port}`,
    });
    assert.deepEqual(foreign.requests, []);
  });
});

describe('checkListener and a dual-stack listener', { skip }, () => {
  it('finds another user’s socket on :: behind an IPv4 and an IPv6 loopback address', async (t) => {
    const foreign = await startForeignListener(t, { host: '::' });
    for (const [url, where] of [
      [`http://127.0.0.1:${foreign.port}`, `127.0.0.1:${foreign.port}`],
      [`http://[::1]:${foreign.port}`, `[::1]:${foreign.port}`],
    ] as const) {
      assert.deepEqual(await checkListener(url), { verdict: 'foreign', uid: NOBODY, where });
    }
    assert.deepEqual(foreign.requests, []);
  });
});

describe('SkillsdClient and another user’s listener', { skip }, () => {
  it('sends nothing, neither a request nor a subscription, and says whose listener it is', async (t) => {
    const foreign = await startForeignListener(t);
    const client = new SkillsdClient({ url: foreign.url, token: 'secret-token-secret-token-secret-token' });
    const refusal = await client.skills().then(
      () => assert.fail('answered'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof DaemonNotTrustedError);
    assert.equal(isDaemonUnreachable(refusal), true);
    assert.equal(refusal.reason, `the listener on 127.0.0.1:${foreign.port} belongs to uid ${NOBODY}, not to you`);
    const disconnected = await new Promise<unknown>((resolve) => {
      const subscription = client.subscribe({
        onEvent: () => assert.fail('an event arrived'),
        onDisconnect: (error) => {
          subscription.close();
          resolve(error);
        },
      });
    });
    assert.ok(disconnected instanceof DaemonNotTrustedError);
    assert.deepEqual(foreign.requests, []);
  });
});

describe('findDaemon and stale runtime files', () => {
  it('removes a file naming another user’s live pid and falls back to SKILLSD_PORT', { skip }, async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-trust-');
    t.after(cleanup);
    const foreign = await startForeignListener(t);
    const location = { env: { SKILLSD_PORT: '45682' }, home: dir };
    const file = writeRuntimeFile(location, { ...INFO, pid: foreign.pid, url: foreign.url, cwd: dir });
    const found = await findDaemon({ ...location, cwd: dir });
    assert.deepEqual([found.source, found.url, found.runtime], ['default', 'http://127.0.0.1:45682', undefined]);
    assert.deepEqual(found.staleRuntimeFiles, [
      { file, reason: `pid ${foreign.pid} belongs to uid ${NOBODY}, not to you`, ended: false },
    ]);
    assert.deepEqual(await readdir(`${dir}/.skillsd/run`), []);
  });

  it('removes a file of a dead pid, of a pid started at another time, a link and a file that does not parse', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-trust-');
    t.after(cleanup);
    const location = { env: {}, home: dir };
    const run = `${dir}/.skillsd/run`;
    const dead = writeRuntimeFile(location, { ...INFO, pid: 2 ** 30, cwd: dir });
    const reused = writeRuntimeFile(location, { ...INFO, pid: process.pid, cwd: dir, bootId: 'x', startTicks: 1 });
    await writeFile(`${dir}/target.json`, JSON.stringify({ ...INFO, pid: process.pid, cwd: dir }), { mode: 0o600 });
    await symlink(`${dir}/target.json`, `${run}/daemon-1.json`);
    await writeFile(`${run}/daemon-2.json`, 'not json', { mode: 0o600 });
    const found = await findDaemon({ ...location, cwd: dir });
    assert.equal(found.source, 'default');
    const byFile = Object.fromEntries(found.staleRuntimeFiles.map((stale) => [stale.file, stale]));
    assert.deepEqual(byFile[dead], { file: dead, reason: `pid ${2 ** 30} is not running`, ended: true });
    assert.deepEqual(byFile[reused], {
      file: reused,
      reason: `pid ${process.pid} is another process than the daemon that wrote it (it started at another time)`,
      ended: true,
    });
    assert.deepEqual(byFile[`${run}/daemon-1.json`]?.reason, 'it is a symbolic link');
    assert.deepEqual(byFile[`${run}/daemon-2.json`]?.reason, 'it is not a runtime file');
    assert.deepEqual(await readdir(run), []);
    // The link went, not what it pointed to.
    assert.equal(JSON.parse(await readFile(`${dir}/target.json`, 'utf8')).pid, process.pid);
  });

  it('a daemon records its start (boot id and start ticks), and its own file is used', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-trust-');
    t.after(cleanup);
    const location = { env: {}, home: dir };
    await mkdir(`${dir}/project`);
    const file = writeRuntimeFile(location, { ...INFO, pid: process.pid, cwd: `${dir}/project` });
    const recorded = JSON.parse(await readFile(file, 'utf8'));
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'latin1');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    assert.deepEqual(
      [recorded.bootId, recorded.startTicks],
      [readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim(), startTicks],
    );
    const found = await findDaemon({ ...location, cwd: `${dir}/project` });
    assert.deepEqual([found.source, found.runtime?.pid, found.staleRuntimeFiles], ['runtime-file', process.pid, []]);
  });
});
