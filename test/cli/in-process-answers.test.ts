// The in-process answers (src/cli/in-process-answers.ts) on a real tree and a real index: what differs from a daemon by
// nature (no daemon address for `paths=url`), and the daemon's refusals of what its schema or router refuses. The
// answers a daemon also gives are compared with a daemon's in test/e2e/cli-in-process-same.test.ts.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InProcessAnswers } from '../../src/cli/in-process-answers.js';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { Settings } from '../../src/discovery/types.js';
import { WorkspaceRegistry } from '../../src/live-index/workspace-registry.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

async function answers(t: { after(fn: () => Promise<void>): void }, settings: Settings = defaultSettings()) {
  const { dir, cleanup } = await makeTempDir('skillsd-inproc-answers-');
  t.after(cleanup);
  await writeTree(dir, {
    'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
    'project/.git': { dir: true },
  });
  const registry = new WorkspaceRegistry({
    home: `${dir}/home`,
    env: {},
    defaultCwd: `${dir}/project`,
    settings,
    watch: false,
  });
  t.after(() => registry.close());
  await (await registry.get()).ready;
  const local = new InProcessAnswers(registry, settings);
  const get = async (path: string, init: { method?: string; body?: string } = {}) => {
    const response = await local.fetch(`http://127.0.0.1${path}`, init);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };
  return { dir, get };
}

function error(statusCode: number, code: string, message: string): string {
  const reason: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 414: 'URI Too Long' };
  return JSON.stringify({ statusCode, code, error: reason[statusCode], message });
}

describe('in-process answers', () => {
  it('paths=url names server.publicUrl, else http://localhost: there is no daemon address', async (t) => {
    const base = defaultSettings();
    const published = { ...base, server: { ...base.server, publicUrl: 'https://skills.example/' } };
    const { dir, get } = await answers(t, published);
    const local = await get('/prompt?format=xml&paths=local');
    assert.match(local.text, new RegExp(`${dir}/home/\\.claude/skills/pdf/SKILL\\.md`));
    const url = await get('/prompt?format=xml&paths=url');
    assert.equal(url.type, 'text/markdown; charset=utf-8');
    assert.match(url.text, /https:\/\/skills\.example\/skill\/pdf\//);
    assert.doesNotMatch(url.text, new RegExp(dir));
    const { get: unpublished } = await answers(t);
    assert.match((await unpublished('/prompt?format=xml&paths=url')).text, /http:\/\/localhost\/skill\/pdf\//);
  });

  it('refuses what the daemon refuses, with its bodies', async (t) => {
    const { get } = await answers(t);
    assert.deepEqual(await get('/skills?hidden=maybe'), {
      status: 400,
      type: 'application/json; charset=utf-8',
      text: error(400, 'BadRequest', 'querystring/hidden must be boolean'),
    });
    assert.equal(
      (await get('/skills?level=team')).text,
      error(400, 'BadRequest', 'querystring/level must be equal to one of the allowed values: "user", "project"'),
    );
    assert.equal((await get('/search?q=pdf&limit=0')).text, error(400, 'BadRequest', 'querystring/limit must be >= 1'));
    assert.equal(
      (await get('/search?q=pdf&limit=1.5')).text,
      error(400, 'BadRequest', 'querystring/limit must be integer'),
    );
    assert.equal(
      (await get('/catalog')).text,
      error(400, 'BadRequest', "querystring must have required property 'agent'"),
    );
    assert.equal((await get('/health/x')).text, error(404, 'NotFound', 'Route GET /health/x not found'));
    assert.equal(
      (await get('/skills/%E0%A4%A')).text,
      error(400, 'BadRequest', 'Malformed percent-encoding in URL: /skills/%E0%A4%A'),
    );
    const long = 'x'.repeat(1025);
    assert.equal(
      (await get(`/doctor/${long}`)).text,
      error(414, 'BadRequest', `'/doctor/${long}' is exceeding the max param length`),
    );
    assert.equal(
      (await get('/invocations', { method: 'POST', body: '{"text":["/skill:pdf"]}' })).text,
      error(400, 'BadRequest', 'body/text must be string'),
    );
  });

  it('answers a file as its bytes and a directory as its listing', async (t) => {
    const { dir, get } = await answers(t);
    await writeTree(dir, { 'home/.claude/skills/pdf/notes/a.txt': 'note a\n' });
    assert.deepEqual(await get('/skill/pdf/notes/a.txt'), {
      status: 200,
      type: 'text/plain; charset=utf-8',
      text: 'note a\n',
    });
    assert.deepEqual(await get('/skill/pdf/notes'), {
      status: 200,
      type: 'text/plain; charset=utf-8',
      text: 'a.txt\n',
    });
  });
});
