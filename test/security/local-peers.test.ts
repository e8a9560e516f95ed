// Same user only (SECURITY.md §2, other local users): another local account reaching the
// daemon over loopback is refused 403 `ForbiddenPeer`, found from the kernel's socket tables. The daemon runs as one
// unprivileged uid and curl as others, through setpriv, so the kernel really attributes each client socket to its user.

import assert from 'node:assert/strict';
import { chown, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { canSwitchUsers, requestAs } from '../helpers/as-user.js';
import { type RunningDaemon, runCli, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const DAEMON_UID = 65534;
const OTHER_UID = 65533;
const ROOT_UID = 0;
const TOKEN = 'local-peers-token-0123456789abcdefghijklmnop';
const skip = canSwitchUsers ? false : 'running clients as other users needs root';

function refusal(owner: number) {
  return {
    statusCode: 403,
    code: 'ForbiddenPeer',
    error: 'Forbidden',
    message: `Connections from other local users are refused: this one belongs to uid ${owner}, the daemon serves uid ${DAEMON_UID}`,
  };
}

interface PeerDaemon {
  daemon: RunningDaemon;
  /** The daemon's base URL as a client on `host` reaches it. */
  base: string;
  close(): Promise<void>;
}

/**
 * A fresh tree (one skill `pdf`, plus `files`) owned by the daemon's user, and the daemon started as that user with
 * the arguments `args(dir)`.
 */
async function daemonAs(
  args: (dir: string) => string[],
  files: Record<string, string> = {},
  host = '127.0.0.1',
): Promise<PeerDaemon> {
  const { dir, cleanup } = await makeTempDir('skillsd-peers-');
  await writeTree(dir, {
    'home/.keep': '',
    'work/.git/HEAD': 'ref: refs/heads/main\n',
    'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
  });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text, { mode: 0o600 });
  await chownTree(dir);
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', `${dir}/work`, ...args(dir)], {
    home: `${dir}/home`,
    uid: DAEMON_UID,
    gid: DAEMON_UID,
  });
  const base = host.includes(':') ? `http://[${host}]:${daemon.port}` : `http://${host}:${daemon.port}`;
  return {
    daemon,
    base,
    async close() {
      await daemon.process.kill();
      await cleanup();
    },
  };
}

async function chownTree(path: string): Promise<void> {
  await chown(path, DAEMON_UID, DAEMON_UID);
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) await chownTree(join(path, entry.name));
}

describe('local peers: the default (same-user), no token', { skip }, () => {
  let d: PeerDaemon;
  before(async () => {
    d = await daemonAs(() => []);
  });
  after(() => d?.close());

  it("answers the daemon's own user", async () => {
    const answer = await requestAs(DAEMON_UID, `${d.base}/skills`);
    assert.equal(answer.status, 200);
    assert.deepEqual(
      JSON.parse(answer.body).skills.map((skill: { name: string }) => skill.name),
      ['pdf'],
    );
    assert.equal((await requestAs(DAEMON_UID, `${d.base}/skill/pdf`)).status, 200);
  });

  it('refuses another user with 403 ForbiddenPeer, on the poll fast path and through Fastify alike', async () => {
    // `/skills` is answered before Fastify's hooks when every guard lets it through; `/skills?` never is.
    for (const target of ['/skills', '/skills?', '/skill/pdf', '/health', '/events', '/nope']) {
      const answer = await requestAs(OTHER_UID, `${d.base}${target}`);
      assert.equal(answer.status, 403, target);
      assert.deepEqual(JSON.parse(answer.body), refusal(OTHER_UID), target);
    }
    const posted = await requestAs(OTHER_UID, `${d.base}/invocations`, ['Content-Type: application/json'], 'POST');
    assert.equal(posted.status, 403);
  });

  it('refuses root as well: the daemon serves its own user only', async () => {
    const answer = await requestAs(ROOT_UID, `${d.base}/skills`);
    assert.equal(answer.status, 403);
    assert.deepEqual(JSON.parse(answer.body), refusal(ROOT_UID));
    // This test process runs as root too (the peer check comes before load shedding: no 503 to wait out).
    const direct = await fetch(`${d.base}/skills`);
    assert.equal(direct.status, 403);
    assert.equal(((await direct.json()) as { code: string }).code, 'ForbiddenPeer');
  });
});

describe('local peers over IPv6 loopback', { skip }, () => {
  let d: PeerDaemon;
  before(async () => {
    d = await daemonAs(() => ['--host', '::1'], {}, '::1');
  });
  after(() => d?.close());

  it('tells users apart on [::1] too', async () => {
    assert.equal((await requestAs(DAEMON_UID, `${d.base}/skills`)).status, 200);
    const refused = await requestAs(OTHER_UID, `${d.base}/skills`);
    assert.equal(refused.status, 403);
    assert.deepEqual(JSON.parse(refused.body), refusal(OTHER_UID));
  });
});

describe('local peers: server.localPeers: any', { skip }, () => {
  let d: PeerDaemon;
  before(async () => {
    d = await daemonAs((dir) => ['--config', `${dir}/skillsd.yaml`], {
      'skillsd.yaml': 'server:\n  localPeers: any\n',
    });
  });
  after(() => d?.close());

  it('answers every local user', async () => {
    for (const uid of [DAEMON_UID, OTHER_UID, ROOT_UID]) {
      const answer = await requestAs(uid, `${d.base}/skills`);
      assert.equal(answer.status, 200, `uid ${uid}`);
    }
  });
});

describe('local peers with a token', { skip }, () => {
  let d: PeerDaemon;
  before(async () => {
    d = await daemonAs((dir) => ['--token-file', `${dir}/token`], { token: `${TOKEN}\n` });
  });
  after(() => d?.close());

  it('admits any user holding the token, and asks the others for it (401)', async () => {
    const bearer = [`Authorization: Bearer ${TOKEN}`];
    for (const uid of [DAEMON_UID, OTHER_UID]) {
      assert.equal((await requestAs(uid, `${d.base}/skills`, bearer)).status, 200, `uid ${uid} /skills`);
      assert.equal((await requestAs(uid, `${d.base}/skills?`, bearer)).status, 200, `uid ${uid} /skills?`);
      const without = await requestAs(uid, `${d.base}/skills`);
      assert.equal(without.status, 401, `uid ${uid} without the token`);
      assert.equal(JSON.parse(without.body).code, 'Unauthorized');
    }
  });
});

describe('an unknown server.localPeers value', { skip }, () => {
  it('is refused at start with the file named (exit 2)', async () => {
    const { dir, cleanup } = await makeTempDir('skillsd-peers-');
    try {
      await writeFile(`${dir}/skillsd.yaml`, 'server:\n  localPeers: everyone\n');
      const run = await runCli(['serve', '--port', '0', '--cwd', dir, '--config', `${dir}/skillsd.yaml`], {
        home: dir,
      });
      assert.equal(run.code, 2);
      assert.equal(
        run.stderr.trim(),
        `skillsd: config file ${dir}/skillsd.yaml: "server.localPeers" must be one of same-user, any, got "everyone"`,
      );
    } finally {
      await cleanup();
    }
  });
});
