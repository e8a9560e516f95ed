// `GET /skills?agent=`, `GET /agents`, `GET /catalog` and the doctor's per-agent lines over real HTTP
// (docs/api.md "Agent views"), including live updates from the watcher.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK } from '../helpers/temp-tree.js';

const KNOWN = 'claude-code, codex, opencode, gemini-cli, copilot-cli, vscode, goose, musepi, omp, xcsh';

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

test('GET /skills?agent=codex answers the Codex view, with its agent and scopes', async (t) => {
  const server = await startServer(t, {
    tree: {
      'work/.agents/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'work/.claude/skills/claude-only/SKILL.md': SK({ name: 'claude-only', description: 'c' }),
    },
  });
  const { status, headers, body } = await getJson(`${server.base}/skills?agent=codex`);
  assert.equal(status, 200);
  assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
  assert.deepEqual(body.agent, {
    id: 'codex',
    name: 'Codex CLI',
    describes: 'Codex CLI 0.169.0 (verified)',
    confidence: 'verified',
  });
  assert.equal(body.cwd, server.cwd);
  assert.deepEqual(body.skills, [
    {
      name: 'pdf',
      description: 'PDF tools',
      filePath: `${server.cwd}/.agents/skills/pdf/SKILL.md`,
      baseDir: `${server.cwd}/.agents/skills/pdf`,
      hide: false,
      source: { agent: 'codex', scope: 'project', root: `${server.cwd}/.agents/skills` },
    },
  ]);
  const etag = headers.get('etag') as string;
  const again = await fetch(`${server.base}/skills?agent=codex`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), '');
  // Filters of /skills apply; provider= does not combine with agent=.
  const filtered = await getJson(`${server.base}/skills?agent=claude-code&q=claude`);
  assert.deepEqual(
    filtered.body.skills.map((s: { name: string }) => s.name),
    ['claude-only'],
  );
  // A profile as an agent: today's source of each skill, plus agent, scope and root.
  const profile = await getJson(`${server.base}/skills?agent=omp`);
  assert.deepEqual(profile.body.agent, {
    id: 'omp',
    name: 'OMP',
    describes: 'skillsd profile (docs/discovery.md)',
    confidence: 'source',
  });
  const claudeOnly = profile.body.skills.find((s: { name: string }) => s.name === 'claude-only');
  assert.deepEqual(claudeOnly.source, {
    id: 'claude:project',
    provider: 'claude',
    providerName: 'Claude Code',
    level: 'project',
    path: `${server.cwd}/.claude/skills/claude-only/SKILL.md`,
    agent: 'omp',
    scope: 'project',
    root: `${server.cwd}/.claude/skills`,
  });
  const byProvider = await getJson(`${server.base}/skills?agent=omp&provider=claude`);
  assert.deepEqual(
    byProvider.body.skills.map((s: { name: string }) => s.name),
    ['claude-only'],
  );
  const bad = await getJson(`${server.base}/skills?agent=codex&provider=claude`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'BadRequest');
});

test('an unknown agent is 400 UnknownAgent on every route that takes one', async (t) => {
  const server = await startServer(t);
  for (const path of ['/skills?agent=cursor', '/catalog?agent=cursor']) {
    const { status, body } = await getJson(`${server.base}${path}`);
    assert.equal(status, 400);
    assert.deepEqual(body, {
      statusCode: 400,
      code: 'UnknownAgent',
      error: 'Bad Request',
      message: `Unknown agent: cursor. Known agents: ${KNOWN}`,
    });
  }
  const missing = await getJson(`${server.base}/catalog`);
  assert.equal(missing.status, 400);
  assert.equal(missing.body.code, 'BadRequest');
  const negative = await getJson(`${server.base}/catalog?agent=codex&contextWindow=-1`);
  assert.equal(negative.status, 400);
  assert.equal(negative.body.code, 'BadRequest');
});

test('GET /catalog?model=: the model asked for is echoed; none asked, an agent without a default answers null', async (t) => {
  const server = await startServer(t, {
    tree: { 'work/.agents/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'tables' }) },
  });
  const named = await getJson(`${server.base}/catalog?agent=goose&model=${encodeURIComponent('local/llama 3')}`);
  assert.equal(named.status, 200);
  assert.equal(named.body.model, 'local/llama 3');
  const none = await getJson(`${server.base}/catalog?agent=goose`);
  assert.equal(none.status, 200);
  assert.equal(none.body.model, null);
  assert.equal(none.body.text, named.body.text);
  for (const bad of ['', 'm'.repeat(201)]) {
    const refused = await getJson(`${server.base}/catalog?agent=goose&model=${bad}`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'BadRequest');
  }
});

test('GET /agents: the matrix with a reason per cell; GET /catalog with the budget', async (t) => {
  const server = await startServer(t, {
    tree: {
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'personal' }),
      'work/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'project' }),
    },
  });
  const { status, headers, body } = await getJson(`${server.base}/agents`);
  assert.equal(status, 200);
  assert.deepEqual(
    body.agents.map((a: { id: string }) => a.id),
    KNOWN.split(', '),
  );
  const project = body.skills.find(
    (row: { filePath: string }) => row.filePath === `${server.cwd}/.claude/skills/pdf/SKILL.md`,
  );
  assert.deepEqual(project.views['claude-code'], {
    status: 'shadowed',
    filePath: `${server.cwd}/.claude/skills/pdf/SKILL.md`,
    reason: 'shadowed by ~/.claude/skills/pdf (personal beats project)',
  });
  assert.deepEqual(project.views.codex, { status: 'unseen', reason: 'Codex does not read .claude/skills' });
  assert.equal(Object.keys(project.views).length, 10);
  const etag = headers.get('etag') as string;
  assert.equal((await fetch(`${server.base}/agents`, { headers: { 'if-none-match': etag } })).status, 304);

  // The default model's window, 1,000,000 tokens: 1 % at 3 characters per token.
  const catalog = await getJson(`${server.base}/catalog?agent=claude-code`);
  assert.equal(catalog.status, 200);
  assert.equal(catalog.body.limit, 30_000);
  assert.equal(catalog.body.unit, 'chars');
  assert.deepEqual(catalog.body.entries, [{ name: 'pdf', status: 'full', chars: 8 }]);
  assert.equal(catalog.body.text, 'The following skills are available for use with the Skill tool:\n\n- pdf: personal');
  assert.equal(catalog.body.agent.describes, 'Claude Code 2.1.328 (verified)');

  const doctor = await getJson(`${server.base}/doctor/pdf`);
  assert.deepEqual(doctor.body.agents['claude-code'], {
    status: 'loaded',
    filePath: `${server.home}/.claude/skills/pdf/SKILL.md`,
  });
  assert.deepEqual(doctor.body.agents.codex, { status: 'unseen', reason: 'Codex does not read ~/.claude/skills' });
  const nobody = await getJson(`${server.base}/doctor/nothing-here`);
  assert.deepEqual(nobody.body.agents, {});
});

test('live: a skill added where only other agents look appears in their views and moves the generation', async (t) => {
  const server = await startServer(t, { watch: true });
  const first = await getJson(`${server.base}/agents`);
  assert.deepEqual(first.body.skills, []);
  const generation = first.body.generation as number;
  const events = await SseClient.connect(`${server.base}/events`);
  t.after(() => events.close());
  // `.goose/skills` is read by Goose only; a Codex skill four levels deep in `.agents/skills`.
  await write(`${server.cwd}/.goose/skills/gz/SKILL.md`, SK({ name: 'gz', description: 'goose only' }));
  await waitUntil('goose view has gz', async () => {
    const { body } = await getJson(`${server.base}/skills?agent=goose`);
    return body.skills.some((s: { name: string }) => s.name === 'gz');
  });
  const after = await getJson(`${server.base}/agents`);
  assert.ok(after.body.generation > generation);
  // The default stream names the views that changed: an index event that adds nothing to the default view.
  const event = await events.next(
    (e) => e.event === 'index' && JSON.parse(e.data).generation === after.body.generation,
  );
  assert.deepEqual(JSON.parse(event.data), {
    generation: after.body.generation,
    added: [],
    removed: [],
    changed: [],
    views: ['goose'],
  });
  const row = after.body.skills.find((r: { name: string }) => r.name === 'gz');
  assert.equal(row.views.goose.status, 'loaded');
  assert.equal(row.views.codex.status, 'unseen');
  const defaultView = await getJson(`${server.base}/skills`);
  assert.deepEqual(defaultView.body.skills, []);

  await write(`${server.cwd}/.agents/skills/group/a/b/deep/SKILL.md`, SK({ name: 'deep', description: 'deep' }));
  await waitUntil('codex view has deep', async () => {
    const { body } = await getJson(`${server.base}/skills?agent=codex`);
    return body.skills.some((s: { name: string }) => s.name === 'deep');
  });
  // Then a sibling deep inside the walked tree.
  await write(`${server.cwd}/.agents/skills/group/a/b/other/SKILL.md`, SK({ name: 'other', description: 'o' }));
  await waitUntil('codex view has other', async () => {
    const { body } = await getJson(`${server.base}/agents`);
    return body.skills.some(
      (r: { name: string; views: { codex: { status: string } } }) =>
        r.name === 'other' && r.views.codex.status === 'loaded',
    );
  });
});

test('live: Claude Code follows its plugin registry and the plugins’ skills directories', async (t) => {
  const server = await startServer(t, { watch: true });
  const names = async (): Promise<string[]> => {
    const { body } = await getJson(`${server.base}/skills?agent=claude-code`);
    return body.skills.map((s: { name: string }) => s.name);
  };
  assert.deepEqual(await names(), []);
  const install = `${server.root}/plugins/kit`;
  await write(`${install}/skills/pdf/SKILL.md`, SK({ name: 'pdf', description: 'PDF tools' }));
  await write(
    `${server.home}/.claude/plugins/installed_plugins.json`,
    JSON.stringify({ version: 2, plugins: { 'kit@market': [{ scope: 'user', installPath: install }] } }),
  );
  await waitUntil('claude-code view has kit:pdf', async () => (await names()).includes('kit:pdf'));
  const { body } = await getJson(`${server.base}/skills?agent=claude-code`);
  assert.deepEqual(body.skills[0].source, { agent: 'claude-code', scope: 'plugin', root: `${install}/skills` });
  // A skill added inside the plugin's skills directory, then the plugin switched off in the settings.
  await write(`${install}/skills/lint/SKILL.md`, SK({ name: 'lint', description: 'Lint' }));
  await waitUntil('claude-code view has kit:lint', async () => (await names()).includes('kit:lint'));
  await write(`${server.home}/.claude/settings.json`, JSON.stringify({ enabledPlugins: { 'kit@market': false } }));
  await waitUntil('claude-code view lost the plugin', async () => (await names()).length === 0);
});

test('diagnostics: the doctor’s findings for the agent’s files follow an edit that changes no skill', async (t) => {
  const server = await startServer(t, {
    watch: true,
    tree: { 'work/.claude/skills/tidy/SKILL.md': SK({ name: 'tidy', description: 'Tidy up' }) },
  });
  const path = `${server.cwd}/.claude/skills/tidy/SKILL.md`;
  const first = await getJson(`${server.base}/skills?agent=claude-code`);
  assert.deepEqual(first.body.diagnostics, []);
  const etag = first.headers.get('etag') as string;
  // An unknown field: the same skill, one more finding of the doctor.
  await write(path, '---\nname: tidy\ndescription: Tidy up\ncolour: blue\n---\n\n# Body\n');
  await waitUntil('claude-code diagnostics name the field', async () => {
    const { body } = await getJson(`${server.base}/skills?agent=claude-code`);
    return body.diagnostics.length > 0;
  });
  const after = await getJson(`${server.base}/skills?agent=claude-code`);
  assert.deepEqual(after.body.diagnostics, [
    {
      rule: 'spec-unknown-field',
      severity: 'info',
      path,
      line: 4,
      message: 'field "colour" is not in the Agent Skills specification',
    },
  ]);
  assert.notEqual(after.headers.get('etag'), etag);
  const codex = await getJson(`${server.base}/skills?agent=codex`);
  assert.deepEqual(codex.body.diagnostics, []);
});
