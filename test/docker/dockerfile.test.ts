// No Docker engine runs here (FINDINGS §Docker): the Dockerfile is checked as text and linted offline.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';

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

  it('is multi-stage, every stage on a pinned Node 22 slim image, never latest', () => {
    const froms = all.filter((instruction) => instruction.keyword === 'FROM').map((instruction) => instruction.args);
    assert.ok(froms.length >= 2);
    for (const from of froms) {
      const image = from.split(/\s+/)[0] ?? '';
      assert.match(image, /^node:22\.\d+\.\d+-(bookworm-)?slim$/);
    }
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

  it('runs as the non-root node user', () => {
    const users = final.filter((instruction) => instruction.keyword === 'USER').map((instruction) => instruction.args);
    assert.deepEqual(users, ['node']);
    const userAt = final.findIndex((instruction) => instruction.keyword === 'USER');
    const cmdAt = final.findIndex((instruction) => instruction.keyword === 'CMD');
    assert.ok(userAt >= 0 && userAt < cmdAt);
  });

  it('exposes 7420, declares volumes for the skill directories and the token', () => {
    assert.ok(final.some((instruction) => instruction.keyword === 'EXPOSE' && instruction.args === '7420'));
    const volumes = final
      .filter((instruction) => instruction.keyword === 'VOLUME')
      .flatMap((instruction) => execForm(instruction.args));
    assert.deepEqual(volumes, ['/home/node/.claude/skills', '/workspace', '/run/skillsd']);
  });

  it('has a HEALTHCHECK that probes /health with node in exec form', () => {
    const checks = final.filter((instruction) => instruction.keyword === 'HEALTHCHECK');
    assert.equal(checks.length, 1);
    const args = checks[0]?.args ?? '';
    const command = execForm(args.slice(args.indexOf('CMD ') + 4));
    assert.equal(command[0], 'node');
    assert.match(command.join(' '), /fetch\('http:\/\/127\.0\.0\.1:7420\/health'\)/);
  });

  it('starts the CLI in exec form, bound to 0.0.0.0 with a token file', () => {
    const entrypoint = final.filter((instruction) => instruction.keyword === 'ENTRYPOINT');
    const cmd = final.filter((instruction) => instruction.keyword === 'CMD');
    assert.equal(entrypoint.length, 1);
    assert.equal(cmd.length, 1);
    assert.deepEqual(execForm(entrypoint[0]?.args ?? ''), ['node', '/app/dist/cli.js']);
    assert.deepEqual(execForm(cmd[0]?.args ?? ''), [
      'serve',
      '--host',
      '0.0.0.0',
      '--port',
      '7420',
      '--cwd',
      '/workspace',
      '--token-file',
      '/run/skillsd/token',
    ]);
  });
});

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
