// One error style for the client commands (docs/cli.md "Errors"): one line `skillsd: <command>: <what went wrong>`,
// naming the flag, value or skill at fault, listing the allowed values where there is a list, and pointing a near
// miss at the doctor. Run with the built CLI against a real daemon.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { runCli, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-error-style-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await writeTree(dir, {
    'home/.keep': '',
    'project/.git': { dir: true },
    'project/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    // A near miss: the file's name is in the wrong case, so no skill "near" loads.
    'project/.musepi/skills/near/skill.md': SK({ name: 'near', description: 'Near' }),
  });
  return { dir, home, project };
}

describe('client command errors (built CLI)', () => {
  it('an unknown flag is one line naming it and the flags the command takes', async (t) => {
    const { home, project } = await fixture(t);
    const run = await runClient(['ls', '--levl', 'user'], {
      home,
      cwd: project,
      env: { SKILLSD_URL: await deadUrl(t) },
    });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      'skillsd: ls: unknown option --levl (expected --agent, --hidden, --provider, --level, -q, --url, --token-file, --cwd, --json, --config, --profile, --help/-h)\n',
    );
    assert.equal(run.stdout, '');
  });

  it('a value starting with a dash says how to pass it, rather than that the flag takes none', async (t) => {
    const { home, project } = await fixture(t);
    const run = await runClient(['wait', '--since', '-1'], {
      home,
      cwd: project,
      env: { SKILLSD_URL: await deadUrl(t) },
    });
    assert.deepEqual(run, {
      code: 2,
      stdout: '',
      stderr: 'skillsd: wait: option --since needs a value; one starting with "-" is written --since=-1\n',
    });
  });

  it('an address without http:// (as curl takes it) is refused naming the form that works', async (t) => {
    const { home, project } = await fixture(t);
    const run = await runClient(['status', '--url', 'localhost:7420'], { home, cwd: project });
    assert.deepEqual(run, {
      code: 2,
      stdout: '',
      stderr:
        'skillsd: status: option --url: expected an http:// or https:// URL, got "localhost:7420" (http://localhost:7420?)\n',
    });
    const env = await runClient(['ls'], { home, cwd: project, env: { SKILLSD_URL: '127.0.0.1:7420' } });
    assert.deepEqual(env, {
      code: 2,
      stdout: '',
      stderr:
        'skillsd: ls: SKILLSD_URL: expected an http:// or https:// URL, got "127.0.0.1:7420" (http://127.0.0.1:7420?)\n',
    });
  });

  it('a deleted current directory is one line, for a client command and for serve', async (t) => {
    const { dir, home } = await fixture(t);
    for (const [args, stderr] of [
      [
        ['ls'],
        'skillsd: ls: the current directory no longer exists (was it deleted?): cd elsewhere or pass --cwd DIR\n',
      ],
      [
        ['serve', '--port', '0'],
        'skillsd: the current directory no longer exists (was it deleted?): cd elsewhere or pass --cwd DIR\n',
      ],
    ] as const) {
      const gone = `${dir}/gone-${args[0]}`;
      await mkdir(gone);
      // The shell enters the directory and removes it, then runs the CLI there.
      const wrapper = ['sh', '-c', 'cd "$0" && rmdir "$0" && exec "$@"', gone];
      const run = await runCli([...args], { home, wrapper, env: { SKILLSD_URL: await deadUrl(t) } });
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stderr, stderr);
    }
  });

  it('show, cat and invoke name a skill that is not loaded, point a near miss at the doctor; search and ls --provider say they found nothing, an unknown provider is a bad value', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const opts = { home, cwd: project };
    const cases: Array<[string[], string]> = [
      [['show', 'near'], 'skillsd: show: no skill "near" is loaded; skillsd doctor near says why\n'],
      [['cat', 'near'], 'skillsd: cat: no skill "near" is loaded; skillsd doctor near says why\n'],
      [['show', 'nope'], 'skillsd: show: no skill "nope" is loaded: no close name (1 skill loaded)\n'],
      [['invoke', '/skill:nope x'], 'skillsd: invoke: no skill "nope" is loaded: no close name (1 skill loaded)\n'],
      [['invoke', '/skill:near x'], 'skillsd: invoke: no skill "near" is loaded; skillsd doctor near says why\n'],
      [['invoke', 'just text'], 'skillsd: invoke: not a /skill: invocation of a loaded skill\n'],
      [['search', 'zzzzqqq'], 'skillsd: search: no skill matches "zzzzqqq"\n'],
      // A provider of the profile that no loaded skill comes from.
      [
        ['ls', '--provider', 'codex'],
        'skillsd: ls: no skill is loaded from "codex" (providers: native; sources: native:project)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      const run = await runClient(args, opts);
      assert.equal(run.code, 1, args.join(' '));
      assert.equal(run.stderr, stderr, args.join(' '));
      assert.equal(run.stdout, '');
    }
    // An id that is no provider of the profile (an agent's): refused as a bad value, naming the providers.
    const unknown = await runClient(['ls', '--provider', 'claude-code'], opts);
    assert.equal(unknown.code, 2);
    assert.equal(
      unknown.stderr,
      'skillsd: ls: Unknown provider: claude-code. Providers of profile musepi: native, omp-plugins, claude, ' +
        'agent-plugins, claude-plugins, agents, codex, opencode, github, musepi-managed, custom; or a source id ' +
        '<provider>:user or <provider>:project\n',
    );
    assert.equal(unknown.stdout, '');
    // What the pointer promises: the doctor names the near miss.
    const doctor = await runClient(['doctor', 'near', '--json'], opts);
    assert.deepEqual(
      JSON.parse(doctor.stdout).findings.map((finding: { rule: string }) => finding.rule),
      ['wrong-case-skill-md'],
    );
  });

  it('a port out of range in the config file says the range and the value', async (t) => {
    const { dir, home, project } = await fixture(t);
    await writeFile(`${dir}/config.yaml`, 'server:\n  port: 70000\n');
    const run = await runCli(['serve', '--config', `${dir}/config.yaml`, '--cwd', project], { home });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `skillsd: config file ${dir}/config.yaml: "server.port" must be an integer from 0 to 65535, got 70000\n`,
    );
  });
});

describe('cat of a directory (built CLI)', () => {
  it('prints the listing with a final newline, leaving out a link the route refuses', async (t) => {
    const { dir, home, project } = await fixture(t);
    await writeTree(dir, {
      'outside.txt': 'secret\n',
      'project/.musepi/skills/pdf/references/a.md': 'a\n',
      'project/.musepi/skills/pdf/references/b.md': 'b\n',
      'project/.musepi/skills/pdf/references/out.md': { symlink: '../../../../../outside.txt' },
    });
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    const run = await runClient(['cat', 'pdf', 'references/'], { home, cwd: project });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'a.md\nb.md\n');
    const refused = await runClient(['cat', 'pdf', 'references/out.md'], { home, cwd: project });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^skillsd: cat: .*references\/out\.md\n$/);
  });
});

describe('a reader that stops early (built CLI)', () => {
  it('cat into a closed pipe ends quietly with exit 0, not an EPIPE stack trace', async (t) => {
    const { dir, home, project } = await fixture(t);
    await writeTree(dir, { 'project/.musepi/skills/pdf/big.txt': `${'x'.repeat(4 * 1024 * 1024)}\n` });
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    t.after(() => daemon.process.kill());
    // `head -c 1` exits after one byte; pipefail makes the pipeline's status the CLI's.
    const wrapper = ['bash', '-c', 'set -o pipefail; "$@" | head -c 1 > /dev/null', 'bash'];
    const run = await runCli(['cat', 'pdf', 'big.txt'], { home, cwd: project, wrapper });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
  });
});

describe('watch and wait against an error answer of the event stream (built CLI)', () => {
  it('end with the daemon’s error in one line instead of reconnecting forever', async (t) => {
    const { dir, home, project } = await fixture(t);
    await writeFile(`${dir}/token`, 'the-right-token-0123456789abcdefghijklmn\n', { mode: 0o600 });
    await writeFile(`${dir}/wrong`, 'a-wrong-token-0123456789abcdefghijklmnop\n', { mode: 0o600 });
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project, '--token-file', `${dir}/token`], {
      home,
    });
    t.after(() => daemon.process.kill());
    const opts = { home, cwd: project };
    // `/health` needs no token, so these pass the first check and fail on `/events`.
    const wrong = ['--token-file', `${dir}/wrong`];
    const watch = await runClient(['watch', ...wrong], opts);
    assert.deepEqual(watch, { code: 1, stdout: '', stderr: 'skillsd: watch: The bearer token is wrong\n' });
    const wait = await runClient(['wait', '--timeout', '30', ...wrong], opts);
    assert.deepEqual(wait, { code: 1, stdout: '', stderr: 'skillsd: wait: The bearer token is wrong\n' });
    // A 400 is bad usage (exit 2), with the daemon's message naming the parameter and the valid types.
    const types = await runClient(['watch', '--types', 'index,bogus'], opts);
    assert.deepEqual(types, {
      code: 2,
      stdout: '',
      stderr:
        'skillsd: watch: querystring/types must be a comma-separated list of hello, index, collision, warning, settings, settings-error, reset, diagnostic\n',
    });
  });
});
