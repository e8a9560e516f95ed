// `skillsd ls --agent`, `skillsd agents`, `skillsd catalog` and the doctor's per-agent lines, run from the built CLI
// with no daemon (the in-process answer, the same app a daemon serves).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function fixture(t: { after(fn: () => Promise<void>): void }) {
  const { dir, cleanup } = await makeTempDir('skillsd-agents-cli-');
  t.after(cleanup);
  const home = `${dir}/home`;
  const project = `${dir}/home/work/proj`;
  await writeTree(dir, {
    'home/work/proj/.git/HEAD': 'ref: refs/heads/main\n',
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'personal pdf' }),
    'home/work/proj/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'project pdf' }),
    'home/work/proj/.agents/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'd' }),
    'home/work/proj/.agents/skills/beta/SKILL.md': SK({ name: 'beta', description: 'd' }),
    'home/.agents/skills/aaa/SKILL.md': SK({ name: 'aaa', description: 'd' }),
  });
  return { home, project, url: await deadUrl(t) };
}

test('ls --agent, agents, catalog, doctor NAME and an unknown agent', async (t) => {
  const { home, project, url } = await fixture(t);
  const opts = { home, cwd: project };
  const common = ['--url', url, '--cwd', project];

  const ls = await runClient(['ls', '--agent', 'claude-code', ...common], opts);
  assert.equal(ls.code, 0, ls.stderr);
  assert.deepEqual(
    ls.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s{2,}/)),
    [
      ['NAME', 'SCOPE', 'PATH', 'DESCRIPTION'],
      ['pdf', 'user', '~/.claude/skills/pdf/SKILL.md', 'personal pdf'],
    ],
  );
  const lsJson = await runClient(['ls', '--agent', 'codex', '--json', ...common], opts);
  assert.deepEqual(
    JSON.parse(lsJson.stdout).skills.map((s: { name: string }) => s.name),
    ['aaa', 'alpha', 'beta'],
  );

  const agents = await runClient(['agents', ...common], opts);
  assert.equal(agents.code, 0, agents.stderr);
  const rows = agents.stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split(/\s{2,}/));
  assert.deepEqual(rows[0], [
    'NAME',
    'LOCATION',
    'CLAUDE-CODE',
    'CODEX',
    'OPENCODE',
    'GEMINI-CLI',
    'COPILOT-CLI',
    'VSCODE',
    'GOOSE',
    'MUSEPI',
  ]);
  assert.deepEqual(rows.slice(1), [
    ['aaa', '~/.agents/skills/aaa', '—', 'loaded', 'loaded', 'loaded', 'loaded', 'loaded', 'loaded', 'loaded'],
    ['alpha', './.agents/skills/alpha', '—', 'loaded', 'loaded', '—', 'loaded', 'loaded', 'loaded', 'loaded'],
    ['beta', './.agents/skills/beta', '—', 'loaded', 'loaded', '—', 'loaded', 'loaded', 'loaded', 'loaded'],
    // VS Code and Goose: the workspace first; OpenCode: the later (project) load wins; Copilot CLI never reads ~/.claude.
    ['pdf', '~/.claude/skills/pdf', 'loaded', '—', 'shadowed', '—', '—', 'shadowed', 'shadowed', 'loaded'],
    ['pdf', './.claude/skills/pdf', 'shadowed', '—', 'loaded', '—', 'loaded', 'loaded', 'loaded', 'shadowed'],
  ]);

  const catalog = await runClient(['catalog', '--agent', 'codex', '--context-window', '1000', ...common], opts);
  assert.equal(catalog.code, 0, catalog.stderr);
  assert.ok(catalog.stdout.includes('- alpha: (file: r1/alpha/SKILL.md)\n- beta: (file: r1/beta/SKILL.md)\n'));
  // The first line says the answer was computed in-process (no daemon at --url).
  assert.equal(
    catalog.stderr.split('\n').slice(1).join('\n'),
    'codex: 18/20 tokens, 2 name-only, 1 dropped\nExceeded skills context budget. All skill descriptions were removed and 1 additional skill was not included in the model-visible skills list.\n',
  );

  const doctor = await runClient(['doctor', 'pdf', ...common], opts);
  assert.equal(doctor.code, 0, doctor.stderr);
  const lines = doctor.stdout.split('\n');
  const start = lines.indexOf('Agents');
  assert.deepEqual(lines.slice(start + 1, start + 11), [
    `claude-code: loaded ${home}/.claude/skills/pdf/SKILL.md`,
    'codex: unseen: Codex does not read ~/.claude/skills',
    `opencode: loaded ${project}/.claude/skills/pdf/SKILL.md`,
    'gemini-cli: unseen: Gemini CLI does not read ~/.claude/skills',
    `copilot-cli: loaded ${project}/.claude/skills/pdf/SKILL.md`,
    `vscode: loaded ${project}/.claude/skills/pdf/SKILL.md`,
    `goose: loaded ${project}/.claude/skills/pdf/SKILL.md`,
    `musepi: loaded ${home}/.claude/skills/pdf/SKILL.md`,
    `omp: loaded ${home}/.claude/skills/pdf/SKILL.md`,
    `xcsh: loaded ${home}/.claude/skills/pdf/SKILL.md`,
  ]);

  const modelled = await runClient(
    ['catalog', '--agent', 'goose', '--model', 'local/llama', '--json', ...common],
    opts,
  );
  assert.equal(modelled.code, 0, modelled.stderr);
  assert.equal(JSON.parse(modelled.stdout).model, 'local/llama');

  const unknown = await runClient(['catalog', '--agent', 'cursor', ...common], opts);
  assert.equal(unknown.code, 2);
  assert.equal(
    unknown.stderr.split('\n').slice(1).join('\n'),
    'skillsd: catalog: Unknown agent: cursor. Known agents: claude-code, codex, opencode, gemini-cli, copilot-cli, vscode, goose, musepi, omp, xcsh\n',
  );
});
