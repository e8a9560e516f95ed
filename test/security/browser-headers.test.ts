// What a web page in the user's browser can make the daemon do, against the real daemon (built CLI): a request the
// browser marks cross-site or same-site is refused unless its origin is allowed (an `<img src=…?cwd=…>` made the
// daemon open, scan and watch any directory); the daemon's own origin is allowed (its `/docs` page); `/docs` carries
// a Content-Security-Policy that forbids framing; every answer carries `X-Content-Type-Options: nosniff`.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { isOverloaded } from '../helpers/as-user.js';
import { type RawResponse, rawRequest as sendRaw } from '../helpers/raw-http.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { SseClient } from '../helpers/sse-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const LISTED_ORIGIN = 'http://localhost:5173';

/** A raw request, sent again while the daemon sheds load (a loaded test machine lags its event loop). */
async function rawRequest(port: number, head: string[], body = ''): Promise<RawResponse> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await sendRaw(port, head, body);
    if (!isOverloaded(answer.status, answer.body) || Date.now() > deadline) return answer;
  }
}

function fetchSiteRefusal(site: string) {
  return {
    statusCode: 403,
    code: 'ForbiddenOrigin',
    error: 'Forbidden',
    message: `A ${site} request from a page whose origin is not allowed is refused (Sec-Fetch-Site)`,
  };
}

describe('browser side effects (built CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let host: string;
  before(async () => {
    ({ dir, cleanup } = await makeTempDir('skillsd-browser-'));
    await writeTree(dir, {
      'home/.keep': '',
      'work/.git/HEAD': 'ref: refs/heads/main\n',
      'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
      'other/.git/HEAD': 'ref: refs/heads/main\n',
      'other/.musepi/skills/secret/SKILL.md': SK({ description: 'Secret' }),
    });
    await writeFile(`${dir}/skillsd.yaml`, `server:\n  allowedOrigins: ["${LISTED_ORIGIN}"]\n`);
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', `${dir}/work`, '--config', `${dir}/skillsd.yaml`], {
      home: `${dir}/home`,
    });
    host = `127.0.0.1:${daemon.port}`;
  });
  after(async () => {
    await daemon?.process.kill();
    await cleanup();
  });

  async function workspaces(): Promise<number> {
    return ((await (await fetch(`${daemon.url}/health`)).json()) as { workspaces: number }).workspaces;
  }

  it("refuses a cross-site <img src=…?cwd=…> before it opens anything, and another site's page alike", async () => {
    const target = `/skills?cwd=${encodeURIComponent(`${dir}/other`)}`;
    for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
      const answer = await rawRequest(daemon.port, [
        `GET ${target} HTTP/1.1`,
        `Host: ${host}`,
        `Sec-Fetch-Site: ${site}`,
        'Sec-Fetch-Mode: no-cors',
        'Sec-Fetch-Dest: image',
      ]);
      assert.equal(answer.status, 403, site);
      assert.deepEqual(JSON.parse(answer.body), fetchSiteRefusal(site.toLowerCase()), site);
    }
    // The other directory was never opened as a workspace.
    assert.equal(await workspaces(), 1);
  });

  it('refuses a cross-site poll of /skills (the poll fast path defers to the guard)', async () => {
    for (const target of ['/skills', '/skills?', '/health', '/skill/pdf', '/events']) {
      const answer = await rawRequest(daemon.port, [
        `GET ${target} HTTP/1.1`,
        `Host: ${host}`,
        'Sec-Fetch-Site: cross-site',
      ]);
      assert.equal(answer.status, 403, target);
      assert.deepEqual(JSON.parse(answer.body), fetchSiteRefusal('cross-site'), target);
    }
  });

  it('answers same-origin and user-initiated (none) requests, and requests without Fetch Metadata', async () => {
    for (const headers of [['Sec-Fetch-Site: same-origin'], ['Sec-Fetch-Site: none'], []]) {
      const answer = await rawRequest(daemon.port, ['GET /skills HTTP/1.1', `Host: ${host}`, ...headers]);
      assert.equal(answer.status, 200, headers.join());
    }
  });

  it("allows the daemon's own origin: /docs can try POST /invocations", async () => {
    const body = JSON.stringify({ text: '/skill:pdf now' });
    for (const [hostHeader, origin] of [
      [host, `http://${host}`],
      [`localhost:${daemon.port}`, `http://localhost:${daemon.port}`],
    ]) {
      const answer = await rawRequest(
        daemon.port,
        [
          'POST /invocations HTTP/1.1',
          `Host: ${hostHeader}`,
          `Origin: ${origin}`,
          'Sec-Fetch-Site: same-origin',
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
        ],
        body,
      );
      assert.equal(answer.status, 200, origin);
      assert.equal(JSON.parse(answer.body).handled, true);
      // Same-origin: no CORS headers are needed, and none are sent.
      assert.equal(answer.headers['access-control-allow-origin'], undefined);
    }
    // An origin naming another port of the same host is another origin.
    const foreign = await rawRequest(daemon.port, [
      'GET /skills HTTP/1.1',
      `Host: ${host}`,
      `Origin: http://127.0.0.1:${daemon.port + 1}`,
      'Sec-Fetch-Site: same-site',
    ]);
    assert.equal(foreign.status, 403);
    assert.equal(JSON.parse(foreign.body).code, 'ForbiddenOrigin');
  });

  it('answers a cross-site request from a listed origin, with CORS headers', async () => {
    const answer = await rawRequest(daemon.port, [
      'GET /skills HTTP/1.1',
      `Host: ${host}`,
      `Origin: ${LISTED_ORIGIN}`,
      'Sec-Fetch-Site: cross-site',
    ]);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], LISTED_ORIGIN);
  });

  it('serves /docs with a CSP that forbids framing', async () => {
    const answer = await rawRequest(daemon.port, ['GET /docs/ HTTP/1.1', `Host: ${host}`]);
    assert.equal(answer.status, 200);
    const csp = answer.headers['content-security-policy'] ?? '';
    const directives = csp.split(';').map((directive) => directive.trim());
    assert.ok(directives.includes("frame-ancestors 'none'"), csp);
    assert.ok(directives.includes("default-src 'self'"), csp);
    assert.ok(directives.includes("object-src 'none'"), csp);
    assert.ok(
      directives.some((directive) => /^script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*$/.test(directive)),
      csp,
    );
    assert.equal(csp.includes('upgrade-insecure-requests'), false);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  });

  it('sends X-Content-Type-Options: nosniff on every answer', async () => {
    const answers = {
      'poll fast path': await rawRequest(daemon.port, ['GET /skills HTTP/1.1', `Host: ${host}`]),
      'route 200': await rawRequest(daemon.port, ['GET /skills? HTTP/1.1', `Host: ${host}`]),
      health: await rawRequest(daemon.port, ['GET /health HTTP/1.1', `Host: ${host}`]),
      'skill file': await rawRequest(daemon.port, ['GET /skill/pdf HTTP/1.1', `Host: ${host}`]),
      'HEAD /events': await rawRequest(daemon.port, ['HEAD /events HTTP/1.1', `Host: ${host}`]),
      '404 route': await rawRequest(daemon.port, ['GET /nope HTTP/1.1', `Host: ${host}`]),
      '403 host': await rawRequest(daemon.port, ['GET /skills HTTP/1.1', 'Host: evil.example']),
      '400 malformed percent-encoding': await rawRequest(daemon.port, ['GET /skill/%zz HTTP/1.1', `Host: ${host}`]),
      '400 not HTTP': await rawRequest(daemon.port, ['NOT HTTP AT ALL']),
      'openapi.json': await rawRequest(daemon.port, ['GET /openapi.json HTTP/1.1', `Host: ${host}`]),
    };
    for (const [label, answer] of Object.entries(answers)) {
      assert.equal(answer.headers['x-content-type-options'], 'nosniff', `${label} (${answer.status})`);
    }
    assert.equal(answers['400 not HTTP'].status, 400);
    let stream = await SseClient.connect(`${daemon.url}/events`);
    for (let attempt = 0; stream.status === 503 && attempt < 100; attempt++) {
      stream.close();
      stream = await SseClient.connect(`${daemon.url}/events`);
    }
    try {
      assert.equal(stream.status, 200);
      assert.equal(stream.headers['x-content-type-options'], 'nosniff');
    } finally {
      stream.close();
    }
  });
});
