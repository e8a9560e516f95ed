import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

describe('GET /health', () => {
  it('reports the default workspace, the live workspaces and watchers', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
        'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }),
        'other/.keep': '',
      },
    });
    await (await s.registry.get()).ready;
    const { status, headers, body } = await getJson(`${s.base}/health`);
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(typeof body.uptimeS, 'number');
    assert.ok(Number.isInteger(body.uptimeS) && body.uptimeS >= 0);
    assert.deepEqual(
      { ...body, uptimeS: 0 },
      {
        status: 'ok',
        generation: 1,
        generationMode: 'counter',
        skills: 2,
        diagnostics: 0,
        uptimeS: 0,
        workspaces: 1,
        watchers: 0,
        watchMode: 'off',
        eventStreams: 0,
        overloaded: false,
      },
    );
    const other = await getJson(`${s.base}/health?cwd=${encodeURIComponent(`${s.root}/other`)}`);
    assert.deepEqual(
      { ...other.body, uptimeS: 0 },
      {
        status: 'ok',
        generation: 1,
        generationMode: 'counter',
        skills: 0,
        diagnostics: 0,
        uptimeS: 0,
        workspaces: 2,
        watchers: 0,
        watchMode: 'off',
        eventStreams: 0,
        overloaded: false,
      },
    );
  });

  it('says generations are content hashes under server.generation: content', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) },
      settings: { server: { generation: 'content' } },
    });
    const { body } = await getJson(`${s.base}/health`);
    assert.equal(body.generationMode, 'content');
    assert.equal(body.generation, (await getJson(`${s.base}/skills`)).body.generation);
  });

  it('counts running watchers', async (t) => {
    const s = await startServer(t, { watch: true });
    await (await s.registry.get()).ready;
    const { body } = await getJson(`${s.base}/health`);
    assert.equal(body.status, 'ok');
    assert.equal(body.watchers, 1);
    assert.equal(body.watchMode, 'events');
  });

  it('refuses a bad cwd with 400 BadRequest', async (t) => {
    const s = await startServer(t);
    const { status, body } = await getJson(`${s.base}/health?cwd=nowhere`);
    assert.equal(status, 400);
    assert.deepEqual(body, {
      statusCode: 400,
      code: 'BadRequest',
      error: 'Bad Request',
      message: 'cwd must be an absolute path: nowhere',
    });
  });
});
