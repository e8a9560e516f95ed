// Small bounds on what one request may cost or make the daemon say: `HEAD /events` answers at once and opens no
// stream; `/skill/<name>/<path>` refuses paths deeper than 64 segments before it opens a workspace or touches a file;
// error messages cap what they repeat of the request. Real server, raw HTTP (fetch would normalise the targets).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FIRST_LINE_CHARS } from '../../src/answers/echo.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { rawRequest } from '../helpers/raw-http.js';
import { SK } from '../helpers/temp-tree.js';

const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
  'other/.git/HEAD': 'ref: refs/heads/main\n',
};

describe('HEAD /events', () => {
  it('answers the stream headers at once, with no body and no stream', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const answer = await rawRequest(s.port, ['HEAD /events HTTP/1.1', `Host: 127.0.0.1:${s.port}`]);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/event-stream');
    assert.equal(answer.headers['cache-control'], 'no-cache');
    assert.equal(answer.body, '');
    assert.equal(s.app.eventStreams.size, 0);
    assert.equal((await getJson(`${s.base}/health`)).body.eventStreams, 0);
  });
});

describe('/skill/<name>/<path> depth', () => {
  const refusal = {
    statusCode: 400,
    code: 'InvalidPath',
    error: 'Bad Request',
    message: 'Paths of more than 64 segments are not allowed in skill:// URLs',
  };

  it('serves up to 64 segments and refuses 65, in every separator spelling', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const host = `Host: 127.0.0.1:${s.port}`;
    const at64 = await rawRequest(s.port, [`GET /skill/pdf/${'a/'.repeat(63)}b HTTP/1.1`, host]);
    assert.equal(at64.status, 404);
    assert.equal(JSON.parse(at64.body).code, 'FileNotFound');
    for (const separator of ['/', '%2f', '%2F', '%5c', '\\']) {
      const deep = await rawRequest(s.port, [`GET /skill/pdf/${`a${separator}`.repeat(64)}b HTTP/1.1`, host]);
      assert.equal(deep.status, 400, separator);
      assert.deepEqual(JSON.parse(deep.body), refusal, separator);
    }
  });

  it('refuses 7,000 segments before opening the workspace they name', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const before = (await getJson(`${s.base}/health`)).body.workspaces;
    const cwd = encodeURIComponent(`${s.root}/other`);
    const answer = await rawRequest(s.port, [
      `GET /skill/pdf/${'a/'.repeat(7000)}b?cwd=${cwd} HTTP/1.1`,
      `Host: 127.0.0.1:${s.port}`,
    ]);
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body), refusal);
    assert.equal((await getJson(`${s.base}/health`)).body.workspaces, before);
  });
});

describe('echoes of the request in error messages', () => {
  it('caps an unknown route at 200 characters', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const path = `/${'x'.repeat(5000)}`;
    const answer = await rawRequest(s.port, [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${s.port}`]);
    assert.equal(answer.status, 404);
    assert.equal(JSON.parse(answer.body).message, `Route GET ${path.slice(0, 200)}… not found`);
  });

  it('caps malformed percent-encoding and a foreign Origin at 200 characters', async (t) => {
    const s = await startServer(t, {
      tree: TREE,
      app: { security: { bindHost: '127.0.0.1', getServerSettings: () => s.registry.settings.server } },
    });
    const path = `/skills/%zz${'y'.repeat(3000)}`;
    const malformed = await rawRequest(s.port, [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${s.port}`]);
    assert.equal(malformed.status, 400);
    assert.equal(JSON.parse(malformed.body).message, `Malformed percent-encoding in URL: ${path.slice(0, 200)}…`);
    const origin = `http://${'o'.repeat(3000)}.example`;
    const foreign = await rawRequest(s.port, [
      'GET /skills HTTP/1.1',
      `Host: 127.0.0.1:${s.port}`,
      `Origin: ${origin}`,
    ]);
    assert.equal(foreign.status, 403);
    assert.equal(
      JSON.parse(foreign.body).message,
      `Origin ${JSON.stringify(`${origin.slice(0, 200)}…`)} is not allowed`,
    );
  });

  it(`caps the first line of any message at ${MAX_FIRST_LINE_CHARS} characters (a cwd, a skill path)`, async (t) => {
    const s = await startServer(t, { tree: TREE });
    const cwd = `/${'c'.repeat(8000)}`;
    const missing = await rawRequest(s.port, [
      `GET /skills?cwd=${encodeURIComponent(cwd)} HTTP/1.1`,
      `Host: 127.0.0.1:${s.port}`,
    ]);
    assert.equal(missing.status, 400);
    const message: string = JSON.parse(missing.body).message;
    assert.equal(message.length, MAX_FIRST_LINE_CHARS + 1);
    assert.ok(message.endsWith('…'));
    assert.ok(message.startsWith('cwd '), message.slice(0, 60));

    const long = await rawRequest(s.port, [`GET /skill/pdf/${'n'.repeat(9000)} HTTP/1.1`, `Host: 127.0.0.1:${s.port}`]);
    assert.equal(long.status, 400);
    const first: string = JSON.parse(long.body).message.split('\n')[0];
    assert.equal(first.length, MAX_FIRST_LINE_CHARS + 1);
    assert.ok(first.endsWith('…'));
  });
});
