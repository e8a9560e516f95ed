// No Docker engine runs here: the Dockerfile is checked as text and linted offline, and the pieces of it that run
// without Docker (the health check's script, the command with the image's environment) are run against the built CLI.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { before, describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import { parseArgs } from '../../src/cli/parse-args.js';
import { waitUntil } from '../helpers/deadlines.js';
import { startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir } from '../helpers/temp-tree.js';

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions in order: comments dropped, `\` continuations joined. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const full = `${pending}${line}`.trim();
    pending = '';
    const space = full.indexOf(' ');
    out.push({ keyword: full.slice(0, space).toUpperCase(), args: full.slice(space + 1).trim() });
  }
  return out;
}

/** The instructions of each stage, the final stage last. */
function stages(all: Instruction[]): Instruction[][] {
  const out: Instruction[][] = [];
  for (const instruction of all) {
    if (instruction.keyword === 'FROM') out.push([]);
    out.at(-1)?.push(instruction);
  }
  return out;
}

function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  assert.ok(Array.isArray(parsed) && parsed.every((item) => typeof item === 'string'), `not exec form: ${args}`);
  return parsed as string[];
}

describe('Dockerfile', () => {
  let text: string;
  let all: Instruction[];
  let final: Instruction[];
  before(async () => {
    text = await readFile(new URL('../../Dockerfile', import.meta.url), 'utf8');
    all = instructions(text);
    final = stages(all).at(-1) ?? [];
  });

  it('lints without any diagnostic', () => {
    assert.deepEqual(validate(text), []);
  });

  it('is a linter that does report a broken Dockerfile', () => {
    assert.ok(validate('FROM node:22.18.0-slim\nCMD ["node",\nEXPOSE abc\n').length > 0);
  });

  it('is multi-stage, every stage on one Node 22 slim image pinned by tag and digest, never latest', () => {
    const froms = all.filter((instruction) => instruction.keyword === 'FROM').map((instruction) => instruction.args);
    assert.ok(froms.length >= 2);
    const images = new Set(froms.map((from) => from.split(/\s+/)[0] ?? ''));
    assert.equal(images.size, 1);
    for (const image of images) assert.match(image, /^node:22\.\d+\.\d+-(bookworm-)?slim@sha256:[0-9a-f]{64}$/);
    assert.equal(/latest/i.test(text), false);
    assert.ok(final.some((instruction) => instruction.keyword === 'COPY' && instruction.args.startsWith('--from=')));
  });

  it('builds with npm ci in the builder and ships production dependencies only', () => {
    const [build] = stages(all);
    assert.ok(build?.some((instruction) => instruction.keyword === 'RUN' && /\bnpm ci\b/.test(instruction.args)));
    assert.ok(
      build?.some((instruction) => instruction.keyword === 'RUN' && /\bnpm run build\b/.test(instruction.args)),
    );
    const installs = all.filter((instruction) => instruction.keyword === 'RUN' && /\bnpm ci\b/.test(instruction.args));
    assert.ok(installs.some((instruction) => /--omit=dev/.test(instruction.args)));
    assert.equal(
      final.some((instruction) => instruction.keyword === 'RUN' && /\bnpm (ci|install)\b/.test(instruction.args)),
      false,
    );
  });

  it('runs as the non-root node user, by number (a runAsNonRoot policy can only verify a numeric user)', () => {
    const users = final.filter((instruction) => instruction.keyword === 'USER').map((instruction) => instruction.args);
    // uid and gid 1000 are the `node` user and group of the official Node images.
    assert.deepEqual(users, ['1000:1000']);
    const userAt = final.findIndex((instruction) => instruction.keyword === 'USER');
    const cmdAt = final.findIndex((instruction) => instruction.keyword === 'CMD');
    assert.ok(userAt >= 0 && userAt < cmdAt);
  });

  it('exposes 7420, prepares and declares the mount points of docs/deploy.md', () => {
    assert.ok(final.some((instruction) => instruction.keyword === 'EXPOSE' && instruction.args === '7420'));
    const volumes = final
      .filter((instruction) => instruction.keyword === 'VOLUME')
      .flatMap((instruction) => execForm(instruction.args));
    assert.deepEqual(volumes, ['/home/node/.claude/skills', '/home/node/.agents/skills', '/workspace', '/run/skillsd']);
    const mkdir = final.find((instruction) => instruction.keyword === 'RUN' && instruction.args.startsWith('mkdir'));
    for (const dir of [...volumes, '/srv/skills', '/etc/skillsd']) assert.ok(mkdir?.args.includes(` ${dir}`), dir);
  });

  it('configures the daemon through SKILLSD_* variables and starts `serve` with no flag that would override them', () => {
    const env = imageEnv(final);
    assert.deepEqual(Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith('SKILLSD_'))), {
      SKILLSD_HOST: '0.0.0.0',
      SKILLSD_PORT: '7420',
      SKILLSD_CWD: '/workspace',
      SKILLSD_TOKEN_FILE: '/run/skillsd/token',
    });
    const entrypoint = final.filter((instruction) => instruction.keyword === 'ENTRYPOINT');
    const cmd = final.filter((instruction) => instruction.keyword === 'CMD');
    assert.equal(entrypoint.length, 1);
    assert.equal(cmd.length, 1);
    assert.deepEqual(execForm(entrypoint[0]?.args ?? ''), ['node', '/app/dist/cli.js']);
    const argv = execForm(cmd[0]?.args ?? '');
    assert.deepEqual(argv, ['serve']);
    // What the CLI makes of it: the image's variables, and an operator's `-e SKILLSD_PORT=8080` over them.
    assert.deepEqual(parseArgs(argv, env), {
      kind: 'serve',
      options: { host: '0.0.0.0', port: 7420, cwd: '/workspace', tokenFile: '/run/skillsd/token' },
    });
    const overridden = parseArgs(argv, { ...env, SKILLSD_PORT: '8080', SKILLSD_WATCH_MODE: 'poll' });
    assert.equal(overridden.kind === 'serve' && overridden.options.port, 8080);
    assert.equal(overridden.kind === 'serve' && overridden.options.watchMode, 'poll');
  });

  it('has one HEALTHCHECK: node in exec form, probing /health/ready on SKILLSD_PORT', () => {
    const script = healthCheckScript(final);
    assert.match(script, /process\.env\.SKILLSD_PORT/);
    assert.match(script, /\/health\/ready/);
    assert.equal(script.includes('7420/'), false);
  });

  it('stops on SIGTERM', () => {
    assert.deepEqual(
      final.filter((instruction) => instruction.keyword === 'STOPSIGNAL').map((instruction) => instruction.args),
      ['SIGTERM'],
    );
  });

  it('the HEALTHCHECK script passes against a daemon on the configured port and fails where nothing answers', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-healthcheck-');
    t.after(cleanup);
    const script = healthCheckScript(final);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', dir], { home: dir });
    t.after(() => daemon.process.kill());
    // The daemon listens before its watcher is armed, and is ready once it is: wait for that, as an orchestrator's
    // probe would retry.
    await waitUntil('the daemon to be ready', async () => (await fetch(`${daemon.url}/health/ready`)).status === 200);
    assert.equal(await runNode(script, { SKILLSD_PORT: String(daemon.port) }), 0);
    assert.equal(await runNode(script, { SKILLSD_PORT: String(await closedPort()) }), 1);
  });
});

/** The final stage's `ENV` as a map (`ENV A=1 B=2` form). */
function imageEnv(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of stage.filter((each) => each.keyword === 'ENV')) {
    for (const pair of instruction.args.split(/\s+/)) {
      const equals = pair.indexOf('=');
      if (equals > 0) env[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
  }
  return env;
}

/** The `node -e` script of the HEALTHCHECK (exec form). */
function healthCheckScript(stage: Instruction[]): string {
  const checks = stage.filter((instruction) => instruction.keyword === 'HEALTHCHECK');
  assert.equal(checks.length, 1);
  const args = checks[0]?.args ?? '';
  const command = execForm(args.slice(args.indexOf('CMD ') + 4));
  assert.deepEqual(command.slice(0, 2), ['node', '-e']);
  assert.equal(command.length, 3);
  return command[2]!;
}

function runNode(script: string, env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, ...env }, stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe('.dockerignore', () => {
  it('keeps local builds, dependencies and the git history out of the build context', async () => {
    const lines = (await readFile(new URL('../../.dockerignore', import.meta.url), 'utf8'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const entry of ['.git', 'node_modules', 'dist', 'dist-check']) assert.ok(lines.includes(entry), entry);
    for (const needed of ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) {
      assert.equal(lines.includes(needed), false, needed);
    }
  });
});
