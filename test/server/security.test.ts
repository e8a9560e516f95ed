import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { ServerSettings } from '../../src/discovery/types.js';
import { toErrorResponse } from '../../src/server/errors.js';
import { hostnameOf } from '../../src/server/host-allow-list.js';
import { type SecurityOptions, securityPlugin } from '../../src/server/plugins/security.js';
import { startServer } from '../helpers/app-server.js';
import { type RawResponse, rawRequest } from '../helpers/raw-http.js';
import { SseClient } from '../helpers/sse-client.js';

const TOKEN = 'Zm9vYmFyYmF6cXV4LXRva2VuLXZhbHVlLTMyYnl0ZXM';
const ALLOWED_ORIGIN = 'http://localhost:5173';

async function startApp(options: Omit<SecurityOptions, 'getServerSettings'>, server: ServerSettings) {
  const app = Fastify();
  app.setErrorHandler((error, _request, reply) => {
    const body = toErrorResponse(error);
    return reply.code(body.statusCode).send(body);
  });
  await app.register(securityPlugin, { ...options, getServerSettings: () => server });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/skills', async () => ({ skills: [] }));
  app.get('/events', async () => ({ events: [] }));
  app.get('/listing', async (_request, reply) => reply.header('vary', 'Accept').send({ entries: [] }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { app, port: address.port };
}

function errorJson(statusCode: number, code: string, error: string, message: string): string {
  return JSON.stringify({ statusCode, code, error, message });
}

describe('security plugin on a loopback bind without a token', () => {
  let app: FastifyInstance;
  let port: number;
  const server: ServerSettings = {
    ...defaultSettings().server,
    allowedHosts: ['box.local'],
    allowedOrigins: [ALLOWED_ORIGIN],
  };
  const get = (headers: string[], target = '/skills', version = '1.1'): Promise<RawResponse> =>
    rawRequest(port, [`GET ${target} HTTP/${version}`, ...headers]);

  before(async () => {
    ({ app, port } = await startApp({ bindHost: '127.0.0.1' }, server));
  });
  after(() => app.close());

  const goodHosts = [
    'localhost',
    'localhost:7420',
    'LocalHost:7420',
    '127.0.0.1',
    '127.0.0.1:7420',
    '[::1]',
    '[::1]:7420',
    'localhost:',
    'box.local',
    'box.local:7420',
  ];
  for (const host of goodHosts) {
    it(`answers Host: ${host}`, async () => {
      const response = await get([`Host: ${host}`]);
      assert.equal(response.status, 200);
      assert.equal(response.body, '{"skills":[]}');
    });
  }

  const badHosts = [
    '',
    ':7420',
    'evil.com',
    'evil.com:7420',
    'localhost.evil.com',
    '127.0.0.1.nip.io',
    'localhost@evil.com',
    '[::1]evil',
    '[::2]:7420',
    'localhost:http',
    '0.0.0.0:7420',
    '203.0.113.7',
    '[2001:db8::1]:7420',
  ];
  for (const host of badHosts) {
    it(`refuses Host: ${JSON.stringify(host)} with 403 ForbiddenHost`, async () => {
      const response = await get([`Host: ${host}`]);
      assert.equal(response.status, 403);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(
        response.body,
        errorJson(403, 'ForbiddenHost', 'Forbidden', `Host ${JSON.stringify(host)} is not allowed${howToAllow(host)}`),
      );
    });
  }

  it('refuses an HTTP/1.0 request without a Host header', async () => {
    const response = await get([], '/skills', '1.0');
    assert.equal(response.status, 403);
    assert.equal(response.body, errorJson(403, 'ForbiddenHost', 'Forbidden', 'Host "" is not allowed'));
  });

  it('refuses an absolute-form target naming a foreign host even with a good Host header', async () => {
    const response = await get(['Host: localhost'], 'http://evil.com/skills');
    assert.equal(response.status, 403);
    assert.equal(
      response.body,
      errorJson(
        403,
        'ForbiddenHost',
        'Forbidden',
        'Request target "http://evil.com/skills" names a host that is not allowed',
      ),
    );
  });

  it('answers an absolute-form target naming an allowed host', async () => {
    const response = await get(['Host: localhost'], `http://127.0.0.1:${port}/skills`);
    assert.equal(response.status, 200);
  });

  it('refuses a foreign Host on /health and on unknown routes too', async () => {
    assert.equal((await get(['Host: evil.com'], '/health')).status, 403);
    assert.equal((await get(['Host: evil.com'], '/nope')).status, 403);
  });

  it('reads server.allowedHosts on every request, so a config edit applies live', async () => {
    assert.equal((await get(['Host: later.local'])).status, 403);
    server.allowedHosts = ['box.local', 'later.local'];
    assert.equal((await get(['Host: later.local'])).status, 200);
    server.allowedHosts = ['box.local'];
    assert.equal((await get(['Host: later.local'])).status, 403);
  });

  it('answers without CORS headers when there is no Origin', async () => {
    const response = await get(['Host: localhost']);
    assert.equal(response.status, 200);
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    assert.equal(response.headers.vary, undefined);
  });

  for (const origin of ['null', 'https://evil.com', 'http://localhost:5174', 'http://localhost:5173.evil.com']) {
    it(`refuses Origin: ${origin} with 403 ForbiddenOrigin`, async () => {
      const response = await get(['Host: localhost', `Origin: ${origin}`]);
      assert.equal(response.status, 403);
      assert.equal(response.headers['access-control-allow-origin'], undefined);
      assert.equal(
        response.body,
        errorJson(403, 'ForbiddenOrigin', 'Forbidden', `Origin ${JSON.stringify(origin)} is not allowed`),
      );
    });
  }

  it('answers an allowed Origin with exact CORS headers', async () => {
    const response = await get(['Host: localhost', `Origin: ${ALLOWED_ORIGIN}`]);
    assert.equal(response.status, 200);
    assert.equal(response.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
    assert.equal(
      response.headers['access-control-expose-headers'],
      'ETag, Last-Modified, Retry-After, X-Skill-Source-Path',
    );
    assert.equal(response.headers.vary, 'Origin');
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  });

  it("keeps a route's own Vary and adds Origin to it", async () => {
    const response = await get(['Host: localhost', `Origin: ${ALLOWED_ORIGIN}`], '/listing');
    assert.equal(response.status, 200);
    assert.equal(response.headers.vary, 'Accept, Origin');
  });

  it('answers the CORS preflight of an allowed Origin with 204', async () => {
    const response = await rawRequest(port, [
      'OPTIONS /events HTTP/1.1',
      'Host: 127.0.0.1',
      `Origin: ${ALLOWED_ORIGIN}`,
      'Access-Control-Request-Method: GET',
      'Access-Control-Request-Headers: authorization, last-event-id',
    ]);
    assert.equal(response.status, 204);
    assert.equal(response.body, '');
    assert.equal(response.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, POST, DELETE, OPTIONS');
    assert.equal(
      response.headers['access-control-allow-headers'],
      'Authorization, Content-Type, Accept, If-None-Match, Last-Event-ID, Mcp-Session-Id, Mcp-Protocol-Version',
    );
    assert.equal(response.headers['access-control-max-age'], '600');
    assert.equal(response.headers.vary, 'Origin');
  });

  it('allows a Private Network Access preflight for an allowed Origin only when asked', async () => {
    const asked = await rawRequest(port, [
      'OPTIONS /skills HTTP/1.1',
      'Host: localhost',
      `Origin: ${ALLOWED_ORIGIN}`,
      'Access-Control-Request-Method: GET',
      'Access-Control-Request-Private-Network: true',
    ]);
    assert.equal(asked.status, 204);
    assert.equal(asked.headers['access-control-allow-private-network'], 'true');
    const notAsked = await rawRequest(port, [
      'OPTIONS /skills HTTP/1.1',
      'Host: localhost',
      `Origin: ${ALLOWED_ORIGIN}`,
      'Access-Control-Request-Method: GET',
    ]);
    assert.equal(notAsked.headers['access-control-allow-private-network'], undefined);
  });

  it('refuses the preflight of a foreign Origin', async () => {
    const response = await rawRequest(port, [
      'OPTIONS /skills HTTP/1.1',
      'Host: localhost',
      'Origin: https://evil.com',
      'Access-Control-Request-Method: GET',
    ]);
    assert.equal(response.status, 403);
    assert.equal(response.headers['access-control-allow-origin'], undefined);
  });

  it('checks the Host before the Origin', async () => {
    const response = await get(['Host: evil.com', `Origin: ${ALLOWED_ORIGIN}`]);
    assert.equal(response.status, 403);
    assert.equal(JSON.parse(response.body).code, 'ForbiddenHost');
  });
});

describe('security plugin with a token on a wildcard bind', () => {
  let app: FastifyInstance;
  let port: number;
  const server: ServerSettings = { ...defaultSettings().server, allowedOrigins: [ALLOWED_ORIGIN] };
  const get = (target: string, headers: string[] = []): Promise<RawResponse> =>
    rawRequest(port, [`GET ${target} HTTP/1.1`, 'Host: localhost', ...headers]);
  const missing = errorJson(
    401,
    'Unauthorized',
    'Unauthorized',
    'A bearer token is required: send "Authorization: Bearer <token>"',
  );
  const wrong = errorJson(401, 'Unauthorized', 'Unauthorized', 'The bearer token is wrong');

  before(async () => {
    ({ app, port } = await startApp({ bindHost: '0.0.0.0', token: TOKEN }, server));
  });
  after(() => app.close());

  it('refuses a request without a token with 401 and WWW-Authenticate: Bearer', async () => {
    const response = await get('/skills');
    assert.equal(response.status, 401);
    assert.equal(response.headers['www-authenticate'], 'Bearer');
    assert.equal(response.body, missing);
  });

  const wrongTokens: Array<[string, string]> = [
    ['a wrong token of the same length', `${TOKEN.slice(0, -1)}X`],
    ['a shorter token', TOKEN.slice(0, 8)],
    ['a longer token', `${TOKEN}A`],
    ['an empty bearer', ''],
  ];
  for (const [label, token] of wrongTokens) {
    it(`refuses ${label}`, async () => {
      const response = await get('/skills', [`Authorization: Bearer ${token}`]);
      assert.equal(response.status, 401);
      assert.equal(response.headers['www-authenticate'], 'Bearer');
      assert.equal(response.body, wrong);
    });
  }

  it('refuses another authorization scheme', async () => {
    const response = await get('/skills', [`Authorization: Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`]);
    assert.equal(response.status, 401);
    assert.equal(response.body, wrong);
  });

  it('answers the right token (scheme case-insensitive)', async () => {
    assert.equal((await get('/skills', [`Authorization: Bearer ${TOKEN}`])).status, 200);
    assert.equal((await get('/skills', [`Authorization: bearer ${TOKEN}`])).status, 200);
  });

  it('leaves /health open', async () => {
    const response = await get('/health');
    assert.equal(response.status, 200);
    assert.equal(response.body, '{"status":"ok"}');
    assert.equal((await get('/health?verbose=1')).status, 200);
  });

  it('asks for the token on /health?cwd=, which would open another workspace', async () => {
    const response = await get('/health?cwd=/etc');
    assert.equal(response.status, 401);
    assert.equal(response.body, missing);
    assert.equal((await get('/health?cwd=/etc', [`Authorization: Bearer ${TOKEN}`])).status, 200);
  });

  it('accepts ?token= on /events only', async () => {
    assert.equal((await get(`/events?token=${TOKEN}`)).status, 200);
    assert.equal((await get(`/events?token=${TOKEN.slice(0, -1)}X`)).body, wrong);
    assert.equal((await get(`/events?token=${TOKEN}&token=${TOKEN}`)).body, missing);
    const skills = await get(`/skills?token=${TOKEN}`);
    assert.equal(skills.status, 401);
    assert.equal(skills.body, missing);
  });

  it('asks for the token on unknown routes, so routes cannot be enumerated', async () => {
    const response = await get('/no-such-route');
    assert.equal(response.status, 401);
  });

  it('answers a CORS preflight without a token, and a 401 with CORS headers for an allowed origin', async () => {
    const preflight = await rawRequest(port, [
      'OPTIONS /skills HTTP/1.1',
      'Host: localhost',
      `Origin: ${ALLOWED_ORIGIN}`,
      'Access-Control-Request-Method: GET',
      'Access-Control-Request-Headers: authorization',
    ]);
    assert.equal(preflight.status, 204);
    const refused = await get('/skills', [`Origin: ${ALLOWED_ORIGIN}`]);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
  });

  it('checks the Host before the token', async () => {
    const response = await rawRequest(port, [
      'GET /skills HTTP/1.1',
      'Host: evil.com',
      `Authorization: Bearer ${TOKEN}`,
    ]);
    assert.equal(response.status, 403);
    assert.equal(JSON.parse(response.body).code, 'ForbiddenHost');
  });

  it('accepts any IP literal as Host on a wildcard bind, but no unknown name', async () => {
    for (const host of ['203.0.113.7:7420', '[2001:db8::1]:7420', '10.0.0.2']) {
      const response = await rawRequest(port, [
        'GET /skills HTTP/1.1',
        `Host: ${host}`,
        `Authorization: Bearer ${TOKEN}`,
      ]);
      assert.equal(response.status, 200, host);
    }
    const name = await rawRequest(port, ['GET /skills HTTP/1.1', 'Host: devbox.lan', `Authorization: Bearer ${TOKEN}`]);
    assert.equal(name.status, 403);
  });

  it("accepts this machine's interface addresses as Host on a wildcard bind", async () => {
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((info) => info.family === 'IPv4')
      .map((info) => info.address);
    assert.ok(addresses.length > 0);
    for (const address of addresses) {
      const response = await rawRequest(port, [
        'GET /skills HTTP/1.1',
        `Host: ${address}:7420`,
        `Authorization: Bearer ${TOKEN}`,
      ]);
      assert.equal(response.status, 200, address);
    }
  });
});

describe('security plugin inside the real app', () => {
  const tree = { 'work/.musepi/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: PDF tools\n---\n\n# Body\n' };
  const settings = { server: { allowedOrigins: [ALLOWED_ORIGIN] } };
  const security = (token?: string): SecurityOptions => ({
    token,
    bindHost: '127.0.0.1',
    getServerSettings: () => ({ ...defaultSettings().server, allowedOrigins: [ALLOWED_ORIGIN] }),
  });

  it('guards every route of the app with a token', async (t) => {
    const server = await startServer(t, { tree, settings, app: { security: security(TOKEN) } });
    const get = (target: string, headers: string[] = []) =>
      rawRequest(server.port, [`GET ${target} HTTP/1.1`, 'Host: localhost', ...headers]);
    const auth = `Authorization: Bearer ${TOKEN}`;

    for (const target of [
      '/skills',
      '/skills/pdf',
      '/skill/pdf',
      '/collisions',
      '/prompt',
      '/context-files',
      '/nope',
    ]) {
      const refused = await get(target);
      assert.equal(refused.status, 401, target);
      assert.equal(refused.headers['www-authenticate'], 'Bearer', target);
      assert.equal(JSON.parse(refused.body).code, 'Unauthorized', target);
    }
    assert.equal((await get('/skill/pdf', [auth])).status, 200);
    assert.equal((await get('/nope', [auth])).status, 404);
    assert.equal((await get('/health')).status, 200);
    assert.equal((await get(`/health?cwd=${encodeURIComponent(server.cwd)}`)).status, 401);

    const invocation = await rawRequest(
      server.port,
      ['POST /invocations HTTP/1.1', 'Host: localhost', 'Content-Type: application/json', 'Content-Length: 22'],
      '{"text":"/skill:pdf"}',
    );
    assert.equal(invocation.status, 401);

    const events = await SseClient.connect(`${server.base}/events?token=${TOKEN}`);
    assert.equal(events.status, 200);
    assert.equal((await events.next()).event, 'hello');
    events.close();
    assert.equal((await SseClient.connect(`${server.base}/events`)).status, 401);
  });

  it('answers allowed origins with CORS headers on real routes and refuses foreign Hosts and Origins', async (t) => {
    const server = await startServer(t, { tree, settings, app: { security: security() } });
    const get = (target: string, headers: string[]) => rawRequest(server.port, [`GET ${target} HTTP/1.1`, ...headers]);

    const file = await get('/skill/pdf', ['Host: localhost', `Origin: ${ALLOWED_ORIGIN}`]);
    assert.equal(file.status, 200);
    assert.equal(file.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
    assert.match(file.headers.vary ?? '', /(^|, )Origin$/);

    const host = await get('/skills', ['Host: attacker.example']);
    assert.equal(
      host.body,
      errorJson(
        403,
        'ForbiddenHost',
        'Forbidden',
        `Host "attacker.example" is not allowed${howToAllow('attacker.example')}`,
      ),
    );
    const origin = await get('/skills', ['Host: 127.0.0.1', 'Origin: null']);
    assert.equal(origin.body, errorJson(403, 'ForbiddenOrigin', 'Forbidden', 'Origin "null" is not allowed'));
  });
});

/** The advice a ForbiddenHost message ends with, for a Host header whose name is well-formed. */
function howToAllow(header: string): string {
  const name = hostnameOf(header);
  return name === ''
    ? ''
    : `: to allow it, add ${JSON.stringify(name)} to server.allowedHosts in the config file or start with --allow-host ${name}`;
}
