import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { ServerSettings } from '../../src/discovery/types.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { requestRawPath } from '../helpers/http-raw-path.js';
import { SseClient } from '../helpers/sse-client.js';

describe('the app', () => {
  it('answers unknown routes with a 404 in the error shape, without echoing the query', async (t) => {
    const s = await startServer(t);
    const { status, headers, body } = await getJson(`${s.base}/nope?token=secret`);
    assert.equal(status, 404);
    assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(body, {
      statusCode: 404,
      code: 'NotFound',
      error: 'Not Found',
      message: 'Route GET /nope not found',
    });
  });

  it('registers the security guards when given: token, Host allow-list, open /health', async (t) => {
    const s = await startServer(t, {
      app: {
        security: { token: 'sekrit', bindHost: '127.0.0.1', getServerSettings: () => ({ ...defaults() }) },
      },
    });
    const refused = await getJson(`${s.base}/skills`);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
    assert.equal(refused.body.code, 'Unauthorized');
    const allowed = await getJson(`${s.base}/skills`, { headers: { authorization: 'Bearer sekrit' } });
    assert.equal(allowed.status, 200);
    assert.equal((await getJson(`${s.base}/health`)).status, 200);
    const host = await requestRawPath(s.port, '/health', { headers: { host: 'evil.example' } });
    assert.equal(host.status, 403);
    assert.equal(JSON.parse(host.body).code, 'ForbiddenHost');
    const stream = await SseClient.connect(`${s.base}/events?token=sekrit`);
    t.after(() => stream.close());
    assert.equal(stream.status, 200);
    assert.equal((await stream.next()).event, 'hello');
  });

  it('logs one line per request with the path only: a ?token= never reaches the log', async (t) => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((line: string) => line !== ''),
        );
        done();
      },
    });
    const s = await startServer(t, { app: { logger: pino({ level: 'info' }, sink) } });
    await (await fetch(`${s.base}/skills?token=hunter2&q=x`)).text();
    await (await fetch(`${s.base}/missing?token=hunter2`)).text();
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request completed');
    assert.deepEqual(
      requests.map((entry) => [entry.method, entry.path, entry.statusCode]),
      [
        ['GET', '/skills', 200],
        ['GET', '/missing', 404],
      ],
    );
    assert.equal(
      lines.some((line) => line.includes('hunter2')),
      false,
    );
  });

  it('closes within its grace period even when a client holds an unused connection', async (t) => {
    const s = await startServer(t);
    const socket = connect(s.port, '127.0.0.1');
    t.after(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('app.close() did not finish')), 4000);
    });
    await Promise.race([s.app.close(), deadline]).finally(() => clearTimeout(timer));
  });
});

function defaults(): ServerSettings {
  return { allowedHosts: [], allowedOrigins: [], allowedWorkspaces: [], localPeers: 'same-user' };
}
