// The client commands of the built CLI, run as a user runs them: against a real daemon started with `--port 0` and
// found through its runtime file, and with no daemon at all (answered in-process, or exit 3).

import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { waitUntil } from '../helpers/deadlines.js';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { DaemonProcess, startDaemon } from '../helpers/spawn-daemon.js';
import { addSkillFolder, makeTempDir, SK, thousandSkills, writeTree } from '../helpers/temp-tree.js';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-cli-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/project`;
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'project/.git': { dir: true },
    'project/.musepi/skills/lint/SKILL.md':
      '---\nname: lint\ndescription: Lint rules\nhide: true\n---\n\n# Lint\n\nRun it.\n',
    'project/.claude/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Shadowed lint' }),
    'project/.musepi/skills/lint/notes/a.txt': 'note a\n',
  });
  return { dir, home, project };
}

async function daemonIn(t: { after(fn: () => Promise<void>): void }, home: string, project: string) {
  const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
  t.after(() => daemon.process.kill());
  return daemon;
}

/**
 * The daemon's own answer, to compare with the command's. A daemon just started on a busy machine may shed load for a
 * moment (503 Overloaded, with Retry-After): asked again until it serves, within a generous bound.
 */
async function served(url: string, init?: RequestInit): Promise<Response> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 503 || Date.now() > deadline) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function getJson(url: string): Promise<unknown> {
  return (await served(url)).json();
}

describe('runtime file', () => {
  it('serve writes pid, URL, port, cwd, start time to ~/.skillsd/run (0600 in 0700) and removes it on exit', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await daemonIn(t, home, project);
    const dir = `${home}/.skillsd/run`;
    const pid = daemon.process.child.pid;
    assert.deepEqual(await readdir(dir), [`daemon-${pid}.json`]);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.equal((await stat(`${dir}/daemon-${pid}.json`)).mode & 0o777, 0o600);
    const info = JSON.parse(await readFile(`${dir}/daemon-${pid}.json`, 'utf8'));
    assert.equal(info.pid, pid);
    assert.equal(info.url, daemon.url);
    assert.equal(info.port, daemon.port);
    assert.equal(info.host, '127.0.0.1');
    assert.equal(info.cwd, project);
    assert.equal(Number.isNaN(Date.parse(info.startedAt)), false);
    assert.equal(info.tokenFile, undefined);
    daemon.process.child.kill('SIGTERM');
    assert.deepEqual(await daemon.process.waitForExit(20_000), { code: 0, signal: null });
    assert.deepEqual(await readdir(dir), []);
  });

  it('goes under $XDG_RUNTIME_DIR/skillsd when that is set, and names the token file', async (t) => {
    const { dir, home, project } = await fixture(t);
    const runtime = `${dir}/xdg`;
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project, '--token-file', `${dir}/tok/token`], {
      home,
      env: { XDG_RUNTIME_DIR: runtime },
    });
    t.after(() => daemon.process.kill());
    const info = JSON.parse(await readFile(`${runtime}/skillsd/daemon-${daemon.process.child.pid}.json`, 'utf8'));
    assert.equal(info.tokenFile, `${dir}/tok/token`);
    // A client finds it there and sends the token it names.
    const run = await runClient(['ls', '--json'], { home, cwd: project, env: { XDG_RUNTIME_DIR: runtime } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      JSON.parse(run.stdout).skills.map((skill: { name: string }) => skill.name),
      ['lint', 'pdf'],
    );
  });
});

describe('client commands against a --port 0 daemon found through the runtime file', () => {
  it('ls, show, cat, prompt, invoke, status answer as the API does', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await daemonIn(t, home, project);
    const opts = { home, cwd: project };

    const ls = await runClient(['ls'], opts);
    assert.equal(ls.code, 0, ls.stderr);
    assert.equal(ls.stderr, '');
    assert.equal(
      ls.stdout,
      'NAME  PROVIDER  LEVEL    HIDDEN  DESCRIPTION\n' +
        'lint  native    project  yes     Lint rules\n' +
        'pdf   claude    user     no      PDF tools\n',
    );
    const lsJson = await runClient(['ls', '--json'], opts);
    assert.deepEqual(JSON.parse(lsJson.stdout), await getJson(`${daemon.url}/skills`));
    const filtered = await runClient(['ls', '--json', '--hidden=false', '--level', 'user', '-q', 'PDF'], opts);
    assert.deepEqual(JSON.parse(filtered.stdout), await getJson(`${daemon.url}/skills?hidden=false&level=user&q=PDF`));

    const show = await runClient(['show', 'lint'], opts);
    assert.equal(show.code, 0, show.stderr);
    assert.equal(
      show.stdout,
      [
        'lint',
        '  description  Lint rules',
        '  source       native:project (MusePi)',
        `  file         ${project}/.musepi/skills/lint/SKILL.md`,
        '  hidden       yes',
        '  frontmatter',
        '    name: "lint"',
        '    description: "Lint rules"',
        '    hide: true',
        '  shadowed',
        `    ${project}/.claude/skills/lint/SKILL.md (claude:project, precedence)`,
        '',
      ].join('\n'),
    );
    const showJson = await runClient(['show', 'lint', '--json'], opts);
    assert.deepEqual(JSON.parse(showJson.stdout), await getJson(`${daemon.url}/skills/lint`));
    const missing = await runClient(['show', 'nope'], opts);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'skillsd: show: no skill "nope" is loaded: no close name (2 skills loaded)\n');

    const cat = await runClient(['cat', 'lint'], opts);
    assert.equal(cat.stdout, '---\nname: lint\ndescription: Lint rules\nhide: true\n---\n\n# Lint\n\nRun it.\n');
    const body = await runClient(['cat', 'lint', '--body'], opts);
    assert.equal(body.stdout, '# Lint\n\nRun it.\n');
    const note = await runClient(['cat', 'lint', 'notes/a.txt'], opts);
    assert.equal(note.stdout, 'note a\n');
    const absent = await runClient(['cat', 'lint', 'nope.md'], opts);
    assert.equal(absent.code, 1);
    assert.equal(absent.stderr, `skillsd: cat: File not found: ${project}/.musepi/skills/lint/nope.md\n`);
    const traversal = await runClient(['cat', 'lint', '../x'], opts);
    assert.equal(traversal.code, 2);
    assert.equal(traversal.stderr, 'skillsd: cat: Path traversal (..) is not allowed in skill:// URLs\n');

    const prompt = await runClient(['prompt'], opts);
    assert.equal(prompt.stdout, await (await served(`${daemon.url}/prompt`)).text());
    assert.match(prompt.stdout, /^- pdf: PDF tools$/m);
    const xml = await runClient(['prompt', '--format', 'xml'], opts);
    assert.equal(xml.stdout, await (await served(`${daemon.url}/prompt?format=xml`)).text());

    const invoke = await runClient(['invoke', '/skill:lint focus'], opts);
    assert.equal(invoke.code, 0, invoke.stderr);
    const expected = (await (
      await served(`${daemon.url}/invocations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: '/skill:lint focus' }),
      })
    ).json()) as { message: string };
    assert.equal(invoke.stdout, `${expected.message}\n`);
    const notHandled = await runClient(['invoke', 'hello', '--json'], opts);
    assert.equal(notHandled.code, 1);
    assert.deepEqual(JSON.parse(notHandled.stdout), { handled: false });

    const status = await runClient(['status', '--json'], opts);
    assert.equal(status.code, 0, status.stderr);
    const state = JSON.parse(status.stdout);
    assert.equal(state.url, daemon.url);
    assert.equal(state.pid, daemon.process.child.pid);
    assert.equal(state.cwd, project);
    assert.equal(state.skills, 2);
    assert.equal(state.generation, 1);
  });

  it('stop ends the daemon gracefully (exit 0), taking its runtime file with it', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await daemonIn(t, home, project);
    const stop = await runClient(['stop'], { home, cwd: project });
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stdout, `stopped skillsd (pid ${daemon.process.child.pid}) at ${daemon.url}\n`);
    assert.deepEqual(await daemon.process.waitForExit(20_000), { code: 0, signal: null });
    // Its runtime file went with it: clients no longer find it.
    assert.deepEqual(await readdir(`${home}/.skillsd/run`), []);
  });
});

describe('client commands with no daemon', () => {
  it('ls, show, cat, prompt, invoke answer in-process for the current directory, saying so on stderr', async (t) => {
    const { home, project } = await fixture(t);
    const url = await deadUrl(t);
    const opts = { home, cwd: project, env: { SKILLSD_URL: url } };
    const note = `skillsd: no daemon running (nothing answers at ${url}); answered in-process for ${project}\n`;

    const ls = await runClient(['ls', '--json'], opts);
    assert.equal(ls.code, 0, ls.stderr);
    assert.equal(ls.stderr, note);
    // The same answer a daemon started there gives.
    const daemon = await daemonIn(t, home, project);
    assert.deepEqual(JSON.parse(ls.stdout), await getJson(`${daemon.url}/skills`));
    await daemon.process.kill();

    const show = await runClient(['show', 'nope'], opts);
    assert.equal(show.code, 1);
    assert.equal(show.stderr, `${note}skillsd: show: no skill "nope" is loaded: no close name (2 skills loaded)\n`);
    const body = await runClient(['cat', 'lint', '--body'], opts);
    assert.equal(body.stdout, '# Lint\n\nRun it.\n');
    const prompt = await runClient(['prompt'], opts);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /^- pdf: PDF tools$/m);
    const invoke = await runClient(['invoke', '/skill:pdf tables', '--json'], opts);
    assert.equal(invoke.code, 0, invoke.stderr);
    assert.equal(JSON.parse(invoke.stdout).details.args, 'tables');
    // --cwd selects another directory: there, only the user skill.
    const other = await runClient(['ls', '--json', '--cwd', home], opts);
    assert.deepEqual(
      JSON.parse(other.stdout).skills.map((skill: { name: string }) => skill.name),
      ['pdf'],
    );
  });

  it('watch, wait, status and stop exit 3', async (t) => {
    const { home, project } = await fixture(t);
    const url = await deadUrl(t);
    for (const command of ['watch', 'wait', 'status', 'stop']) {
      const run = await runClient([command], { home, cwd: project, env: { SKILLSD_URL: url } });
      assert.equal(run.code, 3, command);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, `skillsd: no daemon running (nothing answers at ${url})\n`);
    }
  });

  it('bad usage exits 2 with one line', async (t) => {
    const { home, project } = await fixture(t);
    const cases: Array<[string[], string]> = [
      [
        ['ls', '--bogus'],
        'skillsd: ls: unknown option --bogus (expected --agent, --hidden, --provider, --level, -q, --url, --token-file, --cwd, --json, --config, --profile, --help/-h)\n',
      ],
      [['show'], 'skillsd: show: missing argument (usage: skillsd show NAME [--json])\n'],
      [['wait', '--since', 'x'], 'skillsd: wait: option --since: expected an integer\n'],
      [['ls', '--level', 'team'], 'skillsd: ls: option --level: expected user or project\n'],
    ];
    for (const [args, stderr] of cases) {
      const run = await runClient(args, { home, cwd: project, env: { SKILLSD_URL: await deadUrl(t) } });
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.stderr, stderr);
    }
  });
});

describe('an unknown name among 1,000 skills', () => {
  it('show and invoke give the closest names and the count, not every name', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-cli-');
    t.after(cleanup);
    const home = `${dir}/home`;
    const project = `${dir}/project`;
    await writeTree(dir, {
      'home/.keep': '',
      'project/.git': { dir: true },
      ...thousandSkills('project/.musepi/skills'),
    });
    await daemonIn(t, home, project);
    const opts = { home, cwd: project };
    const cases: Array<[string[], string]> = [
      [['show', 'pdff'], 'skillsd: show: no skill "pdff" is loaded: did you mean pdf? (1001 skills loaded)\n'],
      [['invoke', '/skill:nope'], 'skillsd: invoke: no skill "nope" is loaded: no close name (1001 skills loaded)\n'],
      [['cat', 'pdff'], 'skillsd: cat: no skill "pdff" is loaded: did you mean pdf? (1001 skills loaded)\n'],
    ];
    for (const [args, stderr] of cases) {
      const run = await runClient(args, opts);
      assert.equal(run.code, 1, args.join(' '));
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, stderr);
    }
  });
});

describe('wait and watch against a live daemon', () => {
  it('wait --since never misses a change, whether it lands before or after the stream connects', async (t) => {
    const { home, project } = await fixture(t);
    const daemon = await daemonIn(t, home, project);
    const opts = { home, cwd: project };
    for (let round = 0; round < 4; round++) {
      const before = JSON.parse((await runClient(['status', '--json'], opts)).stdout).generation as number;
      // Writer and waiter start together: the write may land before, during or after the subscription.
      const waiter = runClient(['wait', '--since', String(before), '--timeout', '60'], opts);
      await writeTree(project, { [`.musepi/skills/s${round}/SKILL.md`]: SK({ description: `round ${round}` }) });
      const run = await waiter;
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Number(run.stdout) > before, `${run.stdout} > ${before}`);
    }
    // Past changes: --since an old generation returns at once with the current one.
    const current = JSON.parse((await runClient(['status', '--json'], opts)).stdout).generation;
    const atOnce = await runClient(['wait', '--since', '1', '--json'], opts);
    assert.deepEqual(JSON.parse(atOnce.stdout), { generation: current });
    const timeout = await runClient(['wait', '--since', String(current), '--timeout', '0.2'], opts);
    assert.equal(timeout.code, 124);
    assert.equal(
      timeout.stderr,
      `skillsd: wait: timed out after 0.2 s: the index did not move past generation ${current}\n`,
    );
    void daemon;
  });

  it('wait --since compares content generations for identity (README recipe against --generation content)', async (t) => {
    const { dir, home, project } = await fixture(t);
    const daemon = await startDaemon(['serve', '--port', '0', '--cwd', project, '--generation', 'content'], { home });
    t.after(() => daemon.process.kill());
    const opts = { home, cwd: project };
    const status = async () =>
      JSON.parse((await runClient(['status', '--json'], opts)).stdout) as Record<string, unknown>;
    assert.equal((await status()).generationMode, 'content');
    for (let round = 0; round < 4; round++) {
      // gen=$(skillsd status --json | jq .generation); ./regenerate-skills.sh; skillsd wait --since "$gen" --timeout 30
      const gen = (await status()).generation as number;
      // One step per change (a folder renamed in place), so that each makes exactly one new generation.
      await addSkillFolder(`${project}/.musepi/skills/c${round}`, SK({ description: `round ${round}` }), dir);
      const run = await runClient(['wait', '--since', String(gen), '--timeout', '30'], opts);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      const after = ((await getJson(`${daemon.url}/skills`)) as { generation: number }).generation;
      assert.notEqual(after, gen);
      assert.equal(run.stdout, `${after}\n`);
      // The waiter connected before the change: it returns on the change's `index` event.
      const streams = async () => ((await getJson(`${daemon.url}/health`)) as { eventStreams: number }).eventStreams;
      await waitUntil('no stream left from an earlier waiter', async () => (await streams()) === 0);
      const waiter = new DaemonProcess(['wait', '--since', String(after), '--timeout', '60'], opts);
      t.after(() => waiter.kill());
      await waitUntil(
        'the waiter subscribed',
        async () => ((await getJson(`${daemon.url}/health`)) as { eventStreams: number }).eventStreams === 1,
      );
      await addSkillFolder(`${project}/.musepi/skills/d${round}`, SK({ description: `round ${round}` }), dir);
      assert.deepEqual(await waiter.waitForExit(60_000), { code: 0, signal: null });
      const next = ((await getJson(`${daemon.url}/skills`)) as { generation: number }).generation;
      assert.notEqual(next, after);
      assert.equal(waiter.stdout, `${next}\n`);
    }
    // Nothing changed since the current generation: wait waits, and gives up at --timeout with exit 124.
    const current = (await status()).generation as number;
    const timeout = await runClient(['wait', '--since', String(current), '--timeout', '0.2'], opts);
    assert.equal(timeout.code, 124);
    assert.equal(timeout.stdout, '');
    assert.equal(
      timeout.stderr,
      `skillsd: wait: timed out after 0.2 s: the index did not change from generation ${current}\n`,
    );
    // Any other generation, of 16 digits, smaller or greater: the index has moved past it, so wait returns at once.
    for (const other of ['4503599627370495', '1000000000000000', '1']) {
      const run = await runClient(['wait', '--since', other, '--json'], opts);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { generation: current });
    }
  });

  it('watch --json prints one NDJSON line per event until interrupted', async (t) => {
    const { home, project } = await fixture(t);
    await daemonIn(t, home, project);
    const watch = new DaemonProcess(['watch', '--json'], { home, cwd: project });
    t.after(() => watch.kill());
    const hello = await watch.waitForLog((line) => (line as { event?: string }).event === 'hello', 30_000);
    assert.deepEqual((hello as unknown as { data: unknown }).data, { generation: 1, skills: 2 });
    await writeTree(project, { '.musepi/skills/new-one/SKILL.md': SK({ description: 'New' }) });
    const index = await watch.waitForLog((line) => (line as { event?: string }).event === 'index', 30_000);
    assert.deepEqual((index as unknown as { data: unknown }).data, {
      generation: 2,
      added: ['new-one'],
      removed: [],
      changed: [],
    });
    assert.match(String((index as unknown as { id: string }).id), /^\d+$/);
    watch.child.kill('SIGINT');
    assert.deepEqual(await watch.waitForExit(20_000), { code: 0, signal: null });
  });
});

describe('skillsd doctor', () => {
  it('exits 0 on a clean tree, 1 on an error, and 1 on a warning only with --strict', async (t) => {
    const { dir, home, project } = await fixture(t);
    const opts = { home, cwd: project, env: { SKILLSD_URL: await deadUrl(t) } };
    // The fixture's shadowed lint is info only.
    const clean = await runClient(['doctor'], opts);
    assert.equal(clean.code, 0, clean.stdout);
    assert.match(clean.stdout, /^Findings \(0 errors, 0 warnings, 1 info\)$/m);
    await writeTree(dir, { 'project/.claude/skills/named/SKILL.md': SK({ name: 'other', description: 'd' }) });
    const warning = await runClient(['doctor'], opts);
    assert.equal(warning.code, 0);
    const strict = await runClient(['doctor', '--strict'], opts);
    assert.equal(strict.code, 1);
    await writeTree(dir, { 'project/.claude/skills/group/x/SKILL.md': SK({ description: 'd' }) });
    const error = await runClient(['doctor', '--json'], opts);
    assert.equal(error.code, 1);
    assert.deepEqual(
      JSON.parse(error.stdout)
        .findings.filter((f: { severity: string }) => f.severity !== 'info')
        .map((f: { rule: string; path: string }) => [f.rule, f.path]),
      [
        ['skill-md-too-deep', `${project}/.claude/skills/group/x/SKILL.md`],
        ['spec-name-folder', `${project}/.claude/skills/named/SKILL.md`],
      ],
    );
    assert.match(
      error.stdout,
      /"message": "SKILL.md is two levels below .*\/project\/.claude\/skills: only .*<name>\/SKILL.md is found \(no groups\)"/,
    );
  });

  it('doctor NAME against a daemon prints every candidate and what happened to it', async (t) => {
    const { home, project } = await fixture(t);
    await daemonIn(t, home, project);
    const run = await runClient(['doctor', 'lint'], { home, cwd: project });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        `lint: loaded from ${project}/.musepi/skills/lint/SKILL.md (native:project)`,
        '',
        'Candidates, in pipeline order',
        `  1. loaded  native:project  ${project}/.musepi/skills/lint/SKILL.md`,
        '     loaded: the first enabled candidate of this name in priority order',
        `  2. shadowed  claude:project  ${project}/.claude/skills/lint/SKILL.md`,
        `     shadowed by ${project}/.musepi/skills/lint/SKILL.md (native:project): MusePi comes before Claude Code in priority order`,
        '',
        // Then what each agent does with the files of that name (docs/cli.md).
        'Agents',
        `claude-code: loaded ${project}/.claude/skills/lint/SKILL.md`,
        'codex: unseen: Codex does not read .claude/skills',
        `opencode: loaded ${project}/.claude/skills/lint/SKILL.md`,
        'gemini-cli: unseen: Gemini CLI does not read .claude/skills',
        `copilot-cli: loaded ${project}/.claude/skills/lint/SKILL.md`,
        `vscode: loaded ${project}/.claude/skills/lint/SKILL.md`,
        `goose: loaded ${project}/.claude/skills/lint/SKILL.md`,
        `musepi: loaded ${project}/.musepi/skills/lint/SKILL.md`,
        `omp: loaded ${project}/.claude/skills/lint/SKILL.md`,
        `xcsh: loaded ${project}/.claude/skills/lint/SKILL.md`,
        '',
      ].join('\n'),
    );
    const nobody = await runClient(['doctor', 'nobody'], { home, cwd: project });
    assert.equal(nobody.code, 1);
    const ids = [
      'claude-code',
      'codex',
      'opencode',
      'gemini-cli',
      'copilot-cli',
      'vscode',
      'goose',
      'musepi',
      'omp',
      'xcsh',
    ];
    assert.equal(
      nobody.stdout,
      `nobody: no skill of that name was found\n\nAgents\n${ids.map((id) => `${id}: —\n`).join('')}`,
    );
  });
});
