// The built CLI, started as users start it: `node dist/cli.js serve --port 0 …` with its own HOME and workspace.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);

async function fixture() {
  const { dir, cleanup } = await makeTempDir('skillsd-e2e-');
  const home = `${dir}/home`;
  const workspace = `${dir}/project`;
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'project/.git': { dir: true },
    'project/.musepi/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Lint rules' }),
  });
  return { home, workspace, cleanup };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

describe('skillsd serve (built CLI)', () => {
  let daemon: RunningDaemon;
  let env: Awaited<ReturnType<typeof fixture>>;

  before(async () => {
    env = await fixture();
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', env.workspace], { home: env.home });
  });
  after(async () => {
    await daemon?.process.kill();
    await env?.cleanup();
  });

  it('logs one line whose msg holds the URL it listens on, on a real port', () => {
    assert.match(daemon.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(daemon.port, 0);
    const lines = daemon.process.logs.filter((line) => line.msg.includes(daemon.url));
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, `skillsd listening on ${daemon.url}`);
    assert.equal(lines[0]?.level, 30);
  });

  it('answers /health', async () => {
    const response = await fetch(`${daemon.url}/health`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.status, 'ok');
    assert.equal(body.skills, 2);
  });

  it('lists the user skill from $HOME/.claude/skills and the project skill (curl)', async () => {
    const { stdout } = await run('curl', ['-s', '--max-time', '60', `${daemon.url}/skills`]);
    const body = JSON.parse(stdout) as { cwd: string; profile: string; skills: Array<Record<string, unknown>> };
    assert.equal(body.cwd, env.workspace);
    assert.equal(body.profile, 'musepi');
    assert.deepEqual(
      body.skills.map((skill) => [skill.name, (skill.source as { id: string }).id, skill.filePath]),
      [
        ['lint', 'native:project', `${env.workspace}/.musepi/skills/lint/SKILL.md`],
        ['pdf', 'claude:user', `${env.home}/.claude/skills/pdf/SKILL.md`],
      ],
    );
  });

  it('refuses a foreign Host over curl', async () => {
    const { stdout } = await run('curl', ['-s', '--max-time', '60', '-H', 'Host: evil.com', `${daemon.url}/skills`]);
    assert.deepEqual(JSON.parse(stdout), {
      statusCode: 403,
      code: 'ForbiddenHost',
      error: 'Forbidden',
      message:
        'Host "evil.com" is not allowed: to allow it, add "evil.com" to server.allowedHosts in the config file or start with --allow-host evil.com',
    });
  });
});

describe('skillsd environment variables', () => {
  let env: Awaited<ReturnType<typeof fixture>>;
  const daemons: RunningDaemon[] = [];
  before(async () => {
    env = await fixture();
  });
  after(async () => {
    for (const daemon of daemons) await daemon.process.kill();
    await env?.cleanup();
  });

  it('honours SKILLSD_PORT, SKILLSD_PROFILE and SKILLSD_CWD', async () => {
    let port: number;
    let daemon: RunningDaemon | undefined;
    do {
      port = await freePort();
      daemon = await startDaemon(['serve'], {
        home: env.home,
        env: { SKILLSD_PORT: String(port), SKILLSD_PROFILE: 'xcsh', SKILLSD_CWD: env.workspace },
      }).catch((error: Error) => {
        // The port was taken between its release and the daemon's bind (other programs open listeners all the
        // time): another port is tried. Any other failure fails the test.
        if (error.message.includes(`port ${port} is already in use`)) return undefined;
        throw error;
      });
    } while (daemon === undefined);
    daemons.push(daemon);
    assert.equal(daemon.url, `http://127.0.0.1:${port}`);
    const body = (await (await fetch(`${daemon.url}/skills`)).json()) as { profile: string; cwd: string };
    assert.equal(body.profile, 'xcsh');
    assert.equal(body.cwd, env.workspace);
  });

  it('lets flags win over the environment', async () => {
    const daemon = await startDaemon(['serve', '--port', '0', '--profile', 'omp', '--cwd', env.workspace], {
      home: env.home,
      env: { SKILLSD_PORT: '1', SKILLSD_PROFILE: 'xcsh', SKILLSD_CWD: '/nonexistent' },
    });
    daemons.push(daemon);
    assert.notEqual(daemon.port, 1);
    const body = (await (await fetch(`${daemon.url}/skills`)).json()) as { profile: string; cwd: string };
    assert.equal(body.profile, 'omp');
    assert.equal(body.cwd, env.workspace);
  });
});

describe('skillsd shutdown', () => {
  it('exits 0 within 5 s on SIGTERM with an open SSE stream', async () => {
    const env = await fixture();
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', env.workspace], { home: env.home });
    try {
      const firstChunk = new Promise<string>((resolve, reject) => {
        const req = request(`${daemon.url}/events`, { headers: { accept: 'text/event-stream' } }, (response) => {
          // Rejected, not thrown: a throw in this callback would leave the promise, and the test, waiting forever.
          if (response.statusCode !== 200) reject(new Error(`GET /events answered ${response.statusCode}`));
          response.setEncoding('utf8');
          response.once('data', (chunk: string) => resolve(chunk));
          response.on('error', () => undefined);
        });
        req.on('error', reject);
        req.end();
      });
      assert.match(await firstChunk, /event: hello/);
      daemon.process.child.kill('SIGTERM');
      // Exit code 0 is the proof of the 5 s bound: past it, the daemon's shutdown guard exits 1 on its own clock.
      const exit = await daemon.process.waitForExit();
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.ok(daemon.process.logs.some((line) => line.msg === 'skillsd stopped'));
    } finally {
      await daemon.process.kill();
      await env.cleanup();
    }
  });

  it('writes every request line before it exits on SIGTERM (asynchronous log writes are flushed)', async () => {
    const env = await fixture();
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', env.workspace], { home: env.home });
    try {
      const answers = await Promise.all(
        Array.from({ length: 100 }, async () => (await fetch(`${daemon.url}/skills/lint`)).status),
      );
      assert.deepEqual(new Set(answers), new Set([200]));
      // The signal follows the last answer at once: lines still queued in the log stream must be written on exit.
      daemon.process.child.kill('SIGTERM');
      assert.deepEqual(await daemon.process.waitForExit(), { code: 0, signal: null });
      const lines = daemon.process.logs.filter(
        (line) => line.msg === 'request completed' && line.path === '/skills/lint',
      );
      assert.equal(lines.length, 100);
      assert.equal(daemon.process.logs.at(-1)?.msg, 'skillsd stopped');
    } finally {
      await daemon.process.kill();
      await env.cleanup();
    }
  });

  it('exits 0 on SIGINT', async () => {
    const env = await fixture();
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', env.workspace], { home: env.home });
    try {
      daemon.process.child.kill('SIGINT');
      assert.deepEqual(await daemon.process.waitForExit(), { code: 0, signal: null });
    } finally {
      await daemon.process.kill();
      await env.cleanup();
    }
  });
});
