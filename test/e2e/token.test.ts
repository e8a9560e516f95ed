// The bearer token of docs/api.md §Security defaults, through the built CLI.

import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const TOKEN = 'e2e-token-0123456789abcdefghijklmnopqrstuv';

describe('skillsd with a token file (built CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-e2e-'));
    await writeTree(dir, { 'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) });
    await writeFile(`${dir}/token`, `${TOKEN}\n`, { mode: 0o600 });
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', dir, '--token-file', `${dir}/token`], {
      home: `${dir}/home`,
    });
  });
  after(async () => {
    await daemon?.process.kill();
    await cleanup();
  });

  it('answers 401 without the header', async () => {
    const response = await fetch(`${daemon.url}/skills`);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await response.json(), {
      statusCode: 401,
      code: 'Unauthorized',
      error: 'Unauthorized',
      message: 'A bearer token is required: send "Authorization: Bearer <token>"',
    });
  });

  it('answers 401 with a wrong token', async () => {
    const response = await fetch(`${daemon.url}/skills`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(response.status, 401);
  });

  it('answers 200 with the token', async () => {
    const response = await fetch(`${daemon.url}/skills`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { skills: Array<{ name: string }> };
    assert.deepEqual(
      body.skills.map((skill) => skill.name),
      ['pdf'],
    );
  });

  it('leaves /health open', async () => {
    assert.equal((await fetch(`${daemon.url}/health`)).status, 200);
  });

  it('never logs the token, even when it comes in the query of /events', async () => {
    // A refused /events request is logged at once, with the token (plus one letter) in its query string.
    const refused = await fetch(`${daemon.url}/events?token=${TOKEN}x`);
    assert.equal(refused.status, 401);
    const allowed = await fetch(`${daemon.url}/skills?token=${TOKEN}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(allowed.status, 200);
    await daemon.process.waitForLog((line) => line.path === '/skills' && line.statusCode === 200);
    await daemon.process.waitForLog((line) => line.path === '/events' && line.statusCode === 401);
    assert.equal(daemon.process.stdout.includes(TOKEN), false);
  });
});

describe('skillsd generating a token file (built CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-e2e-'));
  });
  after(async () => {
    await daemon?.process.kill();
    await cleanup();
  });

  it('binds 0.0.0.0 with a generated token, logs its path only, and requires it', async () => {
    const file = `${dir}/run/skillsd/token`;
    daemon = await startDaemon(['serve', '--host', '0.0.0.0', '--port', '0', '--cwd', dir, '--token-file', file], {
      home: dir,
    });
    // The listening line names the address bound; one more line per interface address says where it is reachable.
    assert.equal(daemon.url, `http://0.0.0.0:${daemon.port}`);
    const port = daemon.port;
    await daemon.process.waitForLog((line) => line.msg.includes(`reachable at http://127.0.0.1:${port}`), 30_000);
    assert.equal(daemon.process.logs.filter((line) => line.msg.startsWith('skillsd listening on ')).length, 1);
    const token = (await readFile(file, 'utf8')).trim();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(`${dir}/run/skillsd`)).mode & 0o777, 0o700);
    assert.ok(daemon.process.logs.some((line) => line.msg === `generated a new bearer token in ${file}`));
    assert.equal(daemon.process.stdout.includes(token), false);

    const local = `http://127.0.0.1:${daemon.port}`;
    assert.equal((await fetch(`${local}/skills`)).status, 401);
    assert.equal((await fetch(`${local}/skills`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  });
});

describe('skillsd with server.token in a private config file (built CLI)', () => {
  it('requires that token', async () => {
    const { dir, cleanup } = await makeTempDir('skillsd-e2e-');
    const config = `${dir}/skillsd.json`;
    await writeFile(config, JSON.stringify({ server: { token: TOKEN } }), { mode: 0o600 });
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', dir, '--config', config], { home: dir });
    try {
      assert.equal((await fetch(`${daemon.url}/skills`)).status, 401);
      const ok = await fetch(`${daemon.url}/skills`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(ok.status, 200);
    } finally {
      await daemon.process.kill();
      await cleanup();
    }
  });
});
