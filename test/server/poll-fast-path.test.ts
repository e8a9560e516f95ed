// The `GET /skills` poll fast path against Fastify's own path. `/skills` enters the fast path; `/skills?` (an empty
// query string, the same unfiltered answer) always goes through Fastify's router, hooks and route. Each test sends
// the same requests both ways and compares the raw bytes of the answers (all but the `Date` header) and the request
// log lines (all but `time`, `reqId` and `responseTimeMs`), and counts what the fast path answered.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it, type TestContext } from 'node:test';
import pino from 'pino';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { ServerSettings } from '../../src/discovery/types.js';
import type { AppOptions } from '../../src/server/app.js';
import { hostnameOf } from '../../src/server/host-allow-list.js';
import { getJson, startServer, type TestServer } from '../helpers/app-server.js';
import { WAIT_MS, waitUntil } from '../helpers/deadlines.js';
import { SK } from '../helpers/temp-tree.js';

const TOKEN = 'cG9sbC1mYXN0LXBhdGgtdG9rZW4tdmFsdWU';
const ALLOWED_ORIGIN = 'http://localhost:5173';
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'home/.claude/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Lints ünïcode' }),
};

interface Harness {
  s: TestServer;
  /** Request log lines written so far, parsed. */
  lines: string[];
  /** How many requests the fast path answered so far. */
  answered(): number;
  /** `GET <target>` with `headers` (Host included when given), on its own connection; the raw answer. */
  get(target: string, headers: string[]): Promise<string>;
  host: string;
}

/** A log stream that keeps the request lines (completed or errored) in `lines`. */
function requestLineSink(lines: string[]): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((line) => line.includes('"msg":"request ')),
      );
      done();
    },
  });
}

async function harness(t: TestContext, app: Partial<AppOptions> = {}): Promise<Harness> {
  const lines: string[] = [];
  const sink = requestLineSink(lines);
  // A loaded test machine can lag the event loop past the default load-shedding bound between the two requests of a
  // comparison: only the test of load shedding sheds load.
  const pressure = { maxEventLoopDelayMs: 60_000, ...app.pressure };
  const s = await startServer(t, { tree: TREE, app: { logger: pino({ level: 'info' }, sink), ...app, pressure } });
  const fastPath = s.app.pollFastPath;
  assert.ok(fastPath !== undefined);
  // The daemon indexes its default workspace before it listens (src/cli/serve.ts); the test server opens it lazily.
  await (await s.registry.get()).ready;
  return {
    s,
    lines,
    answered: () => fastPath.answered,
    get: (target, headers) => exchange(s.port, [request(target, headers)]),
    host: `Host: 127.0.0.1:${s.port}`,
  };
}

function request(target: string, headers: string[], close = true): string {
  return `${[`GET ${target} HTTP/1.1`, ...headers, ...(close ? ['Connection: close'] : [])].join('\r\n')}\r\n\r\n`;
}

/** Writes the requests on one connection and returns everything the server sent until it closed. */
function exchange(port: number, requests: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(WAIT_MS, () => socket.destroy(new Error('exchange timed out')));
    socket.on('connect', () => socket.write(requests.join('')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The answer without its `Date` header, the one header that may differ between two answers. */
function withoutDate(raw: string): string {
  assert.match(raw, /\r\nDate: [^\r]+\r\n/);
  return raw.replace(/\r\nDate: [^\r]+\r\n/g, '\r\n');
}

function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(raw)?.[1]);
}

function bodyOf(raw: string): string {
  return raw.slice(raw.indexOf('\r\n\r\n') + 4);
}

/** Waits until `count` request lines were logged (they are written once each answer has finished). */
async function logged(h: Harness, count: number): Promise<string[]> {
  const deadline = Date.now() + WAIT_MS;
  while (h.lines.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(h.lines.length, count, `expected ${count} request lines, got ${h.lines.join('\n')}`);
  return h.lines.slice();
}

/** A log line with the values that differ from request to request replaced by placeholders. */
function stable(line: string): string {
  return line
    .replace(/"time":\d+,/, '"time":0,')
    .replace(/"reqId":"req-[0-9a-z]+",/, '"reqId":"req-?",')
    .replace(/"responseTimeMs":\d+(\.\d)?,/, '"responseTimeMs":0,');
}

function reqIdOf(line: string): number {
  const id = /"reqId":"req-([0-9a-z]+)"/.exec(line)?.[1];
  assert.ok(id !== undefined, line);
  return Number.parseInt(id, 36);
}

/**
 * Sends the same request to `/skills` and to `/skills?`, asserts equal answers and equal log lines, and returns the
 * fast path's answer and whether the fast path answered it.
 */
async function sameBothWays(h: Harness, headers: string[]): Promise<{ raw: string; fast: boolean }> {
  const before = h.answered();
  const linesBefore = h.lines.length;
  const fastRaw = await h.get('/skills', headers);
  const fast = h.answered() === before + 1;
  assert.ok(h.answered() - before <= 1);
  const fastifyRaw = await h.get('/skills?', headers);
  assert.equal(h.answered(), before + (fast ? 1 : 0), 'the fast path answered `/skills?`');
  assert.equal(withoutDate(fastRaw), withoutDate(fastifyRaw));
  const [fastLine = '', fastifyLine = ''] = (await logged(h, linesBefore + 2)).slice(linesBefore);
  assert.equal(stable(fastLine), stable(fastifyLine));
  // One id sequence: the second request got the next id whichever path answered either.
  assert.equal(reqIdOf(fastifyLine), reqIdOf(fastLine) + 1);
  return { raw: fastRaw, fast };
}

describe('GET /skills fast path', () => {
  it('answers 200, 304 and their variants byte for byte as the route does, with the same log line', async (t) => {
    const h = await harness(t);
    const first = await sameBothWays(h, [h.host]);
    assert.equal(first.fast, true);
    assert.equal(statusOf(first.raw), 200);
    const etag = /\r\netag: ("[^"]+")\r\n/.exec(first.raw)?.[1];
    assert.ok(etag !== undefined, first.raw);
    const body = JSON.parse(bodyOf(first.raw));
    assert.deepEqual(
      body.skills.map((skill: { name: string }) => skill.name),
      ['lint', 'pdf'],
    );
    assert.match(first.raw, /\r\ncontent-type: application\/json; charset=utf-8\r\n/);
    assert.match(first.raw, new RegExp(`\\r\\ncontent-length: ${Buffer.byteLength(bodyOf(first.raw))}\\r\\n`));

    const variants: Array<{ headers: string[]; status: number }> = [
      { headers: [`If-None-Match: ${etag}`], status: 304 },
      { headers: [`If-None-Match: W/${etag}`], status: 304 },
      { headers: [`If-None-Match: "other", ${etag}`], status: 304 },
      { headers: ['If-None-Match: *'], status: 304 },
      { headers: ['If-None-Match: "other"'], status: 200 },
      { headers: ['Accept: application/json', 'User-Agent: poller/1.0'], status: 200 },
      { headers: ['Content-Length: 0'], status: 200 },
    ];
    for (const variant of variants) {
      const { raw, fast } = await sameBothWays(h, [h.host, ...variant.headers]);
      assert.equal(fast, true, variant.headers.join(' | '));
      assert.equal(statusOf(raw), variant.status, variant.headers.join(' | '));
      if (variant.status === 304) {
        assert.equal(bodyOf(raw), '');
        assert.doesNotMatch(raw, /^content-(length|type):/im);
      }
    }
  });

  it('answers several polls on one keep-alive connection as Fastify does, ids in arrival order', async (t) => {
    const h = await harness(t);
    const etag = (await getJson(`${h.s.base}/skills`)).headers.get('etag');
    assert.ok(etag !== null);
    await logged(h, 1);
    const polls = (target: string) => [
      request(target, [h.host], false),
      request(target, [h.host, `If-None-Match: ${etag}`], false),
      request(target, [h.host, `If-None-Match: ${etag}`]),
    ];
    const before = h.answered();
    const fast = await exchange(h.s.port, polls('/skills'));
    assert.equal(h.answered(), before + 3);
    const viaFastify = await exchange(h.s.port, polls('/skills?'));
    assert.equal(h.answered(), before + 3);
    assert.equal(withoutDate(fast), withoutDate(viaFastify));
    assert.match(fast, /\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n/);
    const lines = (await logged(h, 7)).slice(1);
    assert.deepEqual(
      lines.map((line) => reqIdOf(line) - reqIdOf(lines[0] ?? '')),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual(lines.slice(0, 3).map(stable), lines.slice(3).map(stable));
  });

  it('writes the line of a large answer once it has finished, as Fastify does', async (t) => {
    // A body larger than the socket buffers (8 skills of 900 KB; SKILL.md files are read up to 1 MiB): the answer
    // is still being written while the client does not read.
    const tree: Record<string, string> = {};
    for (let i = 0; i < 8; i++) {
      tree[`work/.musepi/skills/big-${i}/SKILL.md`] =
        `---\nname: big-${i}\ndescription: Big\nnotes: ${'n'.repeat(900 * 1024)}\n---\n`;
    }
    const lines: string[] = [];
    const sink = requestLineSink(lines);
    const s = await startServer(t, {
      tree,
      app: { logger: pino({ level: 'info' }, sink), pressure: { maxEventLoopDelayMs: 60_000 } },
    });
    await (await s.registry.get()).ready;
    const socket = connect(s.port, '127.0.0.1');
    t.after(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write(request('/skills', [`Host: 127.0.0.1:${s.port}`]));
    await waitUntil('the poll to be answered', () => s.app.pollFastPath?.answered === 1);
    assert.deepEqual(lines, [], 'logged before the answer was finished');
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.resume();
    await closed;
    assert.ok(received > 8 * 900 * 1024);
    const deadline = Date.now() + WAIT_MS;
    while (lines.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? '',
      /"method":"GET","path":"\/skills","statusCode":200,"responseTimeMs":[\d.]+,"msg":"request completed"/,
    );
  });

  it('leaves requests it does not own to Fastify: other methods, targets, query strings, bodies', async (t) => {
    const h = await harness(t);
    const head = await exchange(h.s.port, [`HEAD /skills HTTP/1.1\r\n${h.host}\r\nConnection: close\r\n\r\n`]);
    assert.equal(statusOf(head), 200);
    for (const target of ['/skills/', '/Skills', '/skills?q=pdf', '/skills#x', `http://127.0.0.1:${h.s.port}/skills`]) {
      await h.get(target, [h.host]);
    }
    const withBody = await exchange(h.s.port, [
      `GET /skills HTTP/1.1\r\n${h.host}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ]);
    assert.equal(statusOf(withBody), 200);
    const versioned = await h.get('/skills', [h.host, 'Accept-Version: 1.0.0']);
    assert.equal(statusOf(versioned), 200);
    assert.equal(h.answered(), 0);
  });
});

describe('GET /skills fast path: every guard refuses as Fastify does', () => {
  const serverSettings: ServerSettings = {
    ...defaultSettings().server,
    allowedHosts: ['box.local'],
    allowedOrigins: [ALLOWED_ORIGIN],
  };
  const security = { bindHost: '127.0.0.1', getServerSettings: () => serverSettings };

  it('Host allow-list: a foreign Host is 403 ForbiddenHost; listed hosts are answered', async (t) => {
    const h = await harness(t, { security });
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io:80', '']) {
      const { raw, fast } = await sameBothWays(h, [`Host: ${host}`]);
      assert.equal(fast, false, host);
      assert.equal(statusOf(raw), 403);
      assert.deepEqual(JSON.parse(bodyOf(raw)), {
        statusCode: 403,
        code: 'ForbiddenHost',
        error: 'Forbidden',
        message: `Host ${JSON.stringify(host)} is not allowed${howToAllow(host)}`,
      });
    }
    // No Host header at all (HTTP/1.0): refused the same way.
    const bare = await exchange(h.s.port, ['GET /skills HTTP/1.0\r\n\r\n']);
    assert.equal(statusOf(bare.replace('HTTP/1.0', 'HTTP/1.1')), 403);
    assert.equal(JSON.parse(bodyOf(bare)).message, 'Host "" is not allowed');
    for (const host of ['localhost', 'LOCALHOST:7420', '[::1]:1', 'box.local']) {
      const { raw, fast } = await sameBothWays(h, [`Host: ${host}`]);
      assert.equal(fast, true, host);
      assert.equal(statusOf(raw), 200);
    }
  });

  it('Host allow-list: an edit of server.allowedHosts applies to the next poll', async (t) => {
    const live: ServerSettings = { ...defaultSettings().server, allowedHosts: ['box.local'] };
    const h = await harness(t, { security: { bindHost: '127.0.0.1', getServerSettings: () => live } });
    assert.equal((await sameBothWays(h, ['Host: box.local'])).fast, true);
    // A config reload replaces the settings: the host that was allowed a moment ago is refused on both paths.
    live.allowedHosts = ['other.local'];
    const refused = await sameBothWays(h, ['Host: box.local']);
    assert.equal(refused.fast, false);
    assert.equal(JSON.parse(bodyOf(refused.raw)).code, 'ForbiddenHost');
    assert.equal((await sameBothWays(h, ['Host: other.local'])).fast, true);
  });

  it('Origin: any Origin header goes to Fastify (403 ForbiddenOrigin, or the CORS answer for a listed one)', async (t) => {
    const h = await harness(t, { security });
    const refused = await sameBothWays(h, [h.host, 'Origin: http://evil.example']);
    assert.equal(refused.fast, false);
    assert.equal(statusOf(refused.raw), 403);
    assert.equal(JSON.parse(bodyOf(refused.raw)).code, 'ForbiddenOrigin');
    const allowed = await sameBothWays(h, [h.host, `Origin: ${ALLOWED_ORIGIN}`]);
    assert.equal(allowed.fast, false);
    assert.equal(statusOf(allowed.raw), 200);
    assert.match(allowed.raw, /\r\naccess-control-allow-origin: http:\/\/localhost:5173\r\n/);
    assert.match(allowed.raw, /\r\nvary: Origin\r\n/);
  });

  it('bearer token: missing or wrong is 401 with WWW-Authenticate; the right one is answered', async (t) => {
    const h = await harness(t, { security: { ...security, token: TOKEN } });
    const refusals: Array<[string[], string]> = [
      [[], 'A bearer token is required: send "Authorization: Bearer <token>"'],
      [['Authorization: Bearer wrong'], 'The bearer token is wrong'],
      [[`Authorization: Bearer ${TOKEN}x`], 'The bearer token is wrong'],
      [[`Authorization: Basic ${TOKEN}`], 'The bearer token is wrong'],
      [['Authorization: '], 'The bearer token is wrong'],
    ];
    for (const [headers, message] of refusals) {
      const { raw, fast } = await sameBothWays(h, [h.host, ...headers]);
      assert.equal(fast, false, headers.join());
      assert.equal(statusOf(raw), 401);
      assert.match(raw, /\r\nwww-authenticate: Bearer\r\n/);
      assert.deepEqual(JSON.parse(bodyOf(raw)), {
        statusCode: 401,
        code: 'Unauthorized',
        error: 'Unauthorized',
        message,
      });
    }
    for (const header of [`Authorization: Bearer ${TOKEN}`, `authorization: bearer   ${TOKEN}  `]) {
      const { raw, fast } = await sameBothWays(h, [h.host, header]);
      assert.equal(fast, true, header);
      assert.equal(statusOf(raw), 200);
    }
    // A wrong token on a foreign Host: the Host refusal comes first, on both paths.
    const both = await sameBothWays(h, ['Host: evil.example', 'Authorization: Bearer wrong']);
    assert.equal(JSON.parse(bodyOf(both.raw)).code, 'ForbiddenHost');
  });

  it('load shedding: under pressure polls get 503 Overloaded with Retry-After', async (t) => {
    // A heap bound of one byte: every sample is over it, so the state holds while the requests are sent (and the
    // harness's event-loop bound keeps the reason the same in both answers).
    const h = await harness(t, { pressure: { maxHeapUsedBytes: 1, sampleIntervalMs: 20 } });
    const deadline = Date.now() + WAIT_MS;
    while (!h.s.app.isUnderPressure() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(h.s.app.isUnderPressure(), true);
    const linesBefore = h.lines.length;
    const fast = await h.get('/skills', [h.host]);
    const viaFastify = await h.get('/skills?', [h.host]);
    assert.equal(h.answered(), 0);
    assert.equal(withoutDate(fast), withoutDate(viaFastify));
    assert.equal(statusOf(fast), 503);
    assert.match(fast, /\r\nretry-after: 5\r\n/);
    assert.equal(JSON.parse(bodyOf(fast)).code, 'Overloaded');
    const lines = (await logged(h, linesBefore + 2)).slice(linesBefore);
    assert.equal(stable(lines[0] ?? ''), stable(lines[1] ?? ''));
  });

  it('closing: a poll that arrives while the app closes gets 503 NotReady from Fastify', async (t) => {
    const h = await harness(t);
    const socket = connect(h.s.port, '127.0.0.1');
    t.after(() => socket.destroy());
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request: the connection is busy, so closing waits for it instead of dropping it as idle.
    socket.write(`GET /skills HTTP/1.1\r\n${h.host}\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = h.s.app.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write('\r\n');
    await ended;
    await closed;
    const raw = Buffer.concat(chunks).toString('utf8');
    assert.equal(h.answered(), 0);
    assert.equal(statusOf(raw), 503);
    assert.match(raw, /\r\nretry-after: 1\r\n/);
    assert.deepEqual(JSON.parse(bodyOf(raw)), {
      statusCode: 503,
      code: 'NotReady',
      error: 'Service Unavailable',
      message: 'The daemon is shutting down',
    });
  });

  it('a default workspace that is not open goes to Fastify (503 NotReady)', async (t) => {
    const h = await harness(t);
    await h.s.registry.close();
    const { raw, fast } = await sameBothWays(h, [h.host]);
    assert.equal(fast, false);
    assert.equal(statusOf(raw), 503);
    assert.equal(JSON.parse(bodyOf(raw)).code, 'NotReady');
  });
});

describe('the HTTP server behind the fast path', () => {
  it("keeps Fastify's server options and client error handler", async (t) => {
    const plain = await startServer(t, { app: { pollFastPath: false } });
    const fast = await startServer(t);
    assert.equal(plain.app.pollFastPath, undefined);
    assert.ok(fast.app.pollFastPath !== undefined);
    for (const s of [plain, fast]) {
      const server = s.app.server;
      // The bounded times of connection-limits.ts.
      assert.equal(server.keepAliveTimeout, 5000);
      assert.equal(server.requestTimeout, 30_000);
      assert.equal(server.headersTimeout, 10_000);
      assert.equal(server.timeout, 30_000);
      assert.ok(server.maxConnections > 0);
      assert.equal(server.maxHeadersCount, null);
      assert.equal(server.maxRequestsPerSocket, 0);
      assert.equal(server.listenerCount('request'), 1);
      assert.deepEqual(
        server.listeners('clientError').map((listener) => listener.name),
        ['bound answerClientError'],
      );
    }
    // A head over Node's limit is refused by the parser before any handler: the client error handler's JSON answer.
    const huge = await exchange(fast.port, [request('/skills', [`Host: 127.0.0.1`, `X-Big: ${'a'.repeat(20_000)}`])]);
    assert.equal(statusOf(huge), 431);
    assert.equal(JSON.parse(bodyOf(huge)).code, 'BadRequest');
    assert.equal(fast.app.pollFastPath?.answered, 0);
  });
});

/** The advice a ForbiddenHost message ends with, for a Host header whose name is well-formed. */
function howToAllow(header: string): string {
  const name = hostnameOf(header);
  return name === ''
    ? ''
    : `: to allow it, add ${JSON.stringify(name)} to server.allowedHosts in the config file or start with --allow-host ${name}`;
}
