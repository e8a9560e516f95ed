// The bounds of MCP sessions over Streamable HTTP (docs/mcp.md "Session bounds"), against the real app on a real port:
// the cap is reserved before anything is awaited, a full table evicts its least recently used idle session and never
// a busy one, sessions do not keep their workspaces open, subscriptions are capped per session and in all, and
// `skillsd_mcp_sessions` counts the live sessions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer as startAppServer, type TestServerOptions } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { connectHttp } from '../helpers/mcp-client.js';
import { openBareSession, pingSession, postInitialize, postMcp } from '../helpers/mcp-raw.js';
import { SK } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'work/.musepi/skills/pdf/scripts/a.sh': 'a\n',
  'work/.musepi/skills/pdf/scripts/b.sh': 'b\n',
  'work/.musepi/skills/pdf/scripts/c.sh': 'c\n',
};

const FULL_TABLE = (cap: number) =>
  `Too many MCP sessions (${cap}), each answering a request or holding a stream open: end one with DELETE /mcp, ` +
  'or retry later';

async function metricValue(base: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/**
 * `post` asked again while its connection is reset before an answer: a thousand connections at once, with two test
 * suites sharing two cores, had one reset once (`ECONNRESET`) before the app answered it. What the test counts is the
 * app's answers; a request the kernel reset is asked again, and its answer counts like any other.
 */
async function resetRetried<T>(post: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await post();
    } catch (error) {
      if (attempt >= tries || (error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    }
  }
}

describe('MCP session bounds (Streamable HTTP)', () => {
  it('reserves the slot before anything is awaited: 1,000 concurrent initialize never pass the cap', async (t) => {
    const s = await startServer(t, {
      tree: {
        ...TREE,
        'other/.git/HEAD': 'ref: refs/heads/main\n',
        'other/.musepi/skills/elsewhere/SKILL.md': SK({ name: 'elsewhere', description: 'Other workspace' }),
      },
    });
    // A workspace not open yet: opening it is awaited, where the cap check used to be passed by every request.
    const path = `/mcp?cwd=${encodeURIComponent(`${s.root}/other`)}`;
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        resetRetried(() => postMcp(s.port, [`Host: 127.0.0.1:${s.port}`], undefined, path)),
      ),
    );
    const statuses = new Map<number, number>();
    for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    assert.deepEqual(
      [...statuses.keys()].filter((status) => status !== 200 && status !== 503),
      [],
    );
    assert.equal(s.app.mcpSessionCount(), 64);
    assert.equal(await metricValue(s.base, 'skillsd_mcp_sessions'), 64);
    // Never more than the cap at any moment, not only at the end.
    assert.equal(s.app.mcpSessions.peak, 64);
    for (const answer of answers.filter((each) => each.status === 503)) {
      assert.equal(JSON.parse(answer.body).error.message, FULL_TABLE(64));
    }
  });

  it('lets a new client into a full table by evicting the least recently used idle session, never a busy one', async (t) => {
    const s = await startServer(t, { tree: TREE, app: { mcp: { maxSessions: 3 } } });
    const older = await openBareSession(s.port);
    const newer = await openBareSession(s.port);
    const listening = await connectHttp(`${s.base}/mcp`);
    t.after(() => listening.close());
    await waitUntil('the GET stream of the listening client', () => s.app.mcpSessions.busy === 1);
    // `older` is used again: `newer` is now the least recently used idle session.
    assert.equal(await pingSession(s.port, older), 200);

    const second = await connectHttp(`${s.base}/mcp`);
    t.after(() => second.close());
    assert.equal(s.app.mcpSessionCount(), 3);
    assert.equal(await pingSession(s.port, newer), 404);
    assert.equal(await pingSession(s.port, older), 200);
    assert.deepEqual(
      (await listening.client.listResources()).resources.map((resource) => resource.uri),
      ['skill://pdf/SKILL.md'],
    );
    await waitUntil('the GET stream of the second client', () => s.app.mcpSessions.busy === 2);

    const third = await connectHttp(`${s.base}/mcp`);
    t.after(() => third.close());
    assert.equal(await pingSession(s.port, older), 404);
    await waitUntil('the GET stream of the third client', () => s.app.mcpSessions.busy === 3);
    // Every session holds a stream open: none can be evicted.
    const refused = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(JSON.parse(refused.body).error.message, FULL_TABLE(3));
    for (const client of [listening, second, third])
      assert.equal((await client.client.listResources()).resources.length, 1);
  });

  it('never evicts a session answering a request', async (t) => {
    // A client that offers roots: its first request waits, in flight, until the client answers `roots/list` (for as
    // long as the test needs: the wait for an answer is an hour here).
    const s = await startServer(t, { tree: TREE, app: { mcp: { maxSessions: 1, rootsTimeoutMs: 3_600_000 } } });
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'raw', version: '1' } },
    });
    const id = await openBareSession(s.port, '/mcp', initialize);
    const headers = {
      host: `127.0.0.1:${s.port}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': id,
    };
    const pending = await fetch(`${s.base}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/list' }),
    });
    assert.equal(pending.status, 200);
    const reader = pending.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"roots/list"')) {
      const { value, done } = await reader.read();
      assert.equal(done, false, `the stream ended before the roots question: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    const question = JSON.parse(/data: (.*"roots\/list".*)\n/.exec(text)![1]!) as { id: number };

    const refused = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(refused.status, 503);
    assert.equal(JSON.parse(refused.body).error.message, FULL_TABLE(1));

    const answered = await fetch(`${s.base}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: { roots: [] } }),
    });
    assert.equal(answered.status, 202);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    assert.match(text, /"uri":"skill:\/\/pdf\/SKILL\.md"/);
    await waitUntil('the request to be answered', () => s.app.mcpSessions.busy === 0);
    const admitted = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(admitted.status, 200);
    assert.equal(await pingSession(s.port, id), 404);
  });

  it('does not keep workspaces open: 40 sessions on 40 workspaces, and a new ?cwd= still answers', async (t) => {
    const tree: Record<string, string> = { ...TREE };
    for (let i = 0; i <= 41; i++) {
      tree[`ws-${i}/.git/HEAD`] = 'ref: refs/heads/main\n';
      tree[`ws-${i}/.musepi/skills/s${i}/SKILL.md`] = SK({ name: `s${i}`, description: `Skill ${i}` });
    }
    const s = await startServer(t, { tree });
    const clients = [];
    for (let i = 0; i < 40; i++) {
      const client = await connectHttp(`${s.base}/mcp?cwd=${encodeURIComponent(`${s.root}/ws-${i}`)}`);
      t.after(() => client.close());
      clients.push(client);
    }
    assert.equal(s.app.mcpSessionCount(), 40);
    // At most 32 workspaces are open (the default one included): the sessions' own were closed as the least used.
    assert.equal(s.registry.size, 32);
    const fresh = await postMcp(
      s.port,
      [`Host: 127.0.0.1:${s.port}`],
      undefined,
      `/mcp?cwd=${encodeURIComponent(`${s.root}/ws-40`)}`,
    );
    assert.equal(fresh.status, 200);
    const rest = await fetch(`${s.base}/skills?cwd=${encodeURIComponent(`${s.root}/ws-41`)}`);
    assert.equal(rest.status, 200);
    await rest.arrayBuffer();
    // A session whose workspace was closed reopens it on its next request.
    assert.deepEqual(
      (await clients[0]!.client.listResources()).resources.map((resource) => resource.uri),
      ['skill://s0/SKILL.md'],
    );
  });

  it('counts the live sessions in skillsd_mcp_sessions', async (t) => {
    const s = await startServer(t, { tree: TREE });
    assert.equal(await metricValue(s.base, 'skillsd_mcp_sessions'), 0);
    await openBareSession(s.port);
    await openBareSession(s.port);
    const client = await connectHttp(`${s.base}/mcp`);
    t.after(() => client.close());
    assert.equal(await metricValue(s.base, 'skillsd_mcp_sessions'), 3);
    await client.transport.terminateSession();
    assert.equal(await metricValue(s.base, 'skillsd_mcp_sessions'), 2);
  });

  it('caps subscriptions per session and in all sessions', async (t) => {
    const s = await startServer(t, {
      tree: TREE,
      app: { mcp: { maxSubscriptionsPerSession: 2, maxSubscriptions: 3 } },
    });
    const one = await connectHttp(`${s.base}/mcp`);
    t.after(() => one.close());
    const two = await connectHttp(`${s.base}/mcp`);
    t.after(() => two.close());
    await one.client.subscribeResource({ uri: 'skill://pdf/scripts/a.sh' });
    await one.client.subscribeResource({ uri: 'skill://pdf/scripts/b.sh' });
    await assert.rejects(one.client.subscribeResource({ uri: 'skill://pdf/scripts/c.sh' }), {
      code: -32602,
      message: 'MCP error -32602: Too many subscriptions (2) in this session',
    });
    // A refused subscription takes no place.
    await assert.rejects(two.client.subscribeResource({ uri: 'skill://pdf/nope.sh' }), { code: -32602 });
    await two.client.subscribeResource({ uri: 'skill://pdf/scripts/a.sh' });
    await assert.rejects(two.client.subscribeResource({ uri: 'skill://pdf/scripts/b.sh' }), {
      code: -32602,
      message: 'MCP error -32602: Too many subscriptions (3) in all sessions of this daemon',
    });
    await one.client.unsubscribeResource({ uri: 'skill://pdf/scripts/a.sh' });
    await two.client.subscribeResource({ uri: 'skill://pdf/scripts/b.sh' });
    // A session that ends gives its places back.
    await one.transport.terminateSession();
    await two.client.unsubscribeResource({ uri: 'skill://pdf/scripts/a.sh' });
    const three = await connectHttp(`${s.base}/mcp`);
    t.after(() => three.close());
    await three.client.subscribeResource({ uri: 'skill://pdf/scripts/a.sh' });
    await three.client.subscribeResource({ uri: 'skill://pdf/scripts/c.sh' });
  });

  it('holds at most 256 subscriptions in one session by default', async (t) => {
    const tree: Record<string, string> = { ...TREE };
    for (let i = 0; i <= 256; i++) tree[`work/.musepi/skills/pdf/many/f${i}.txt`] = `${i}\n`;
    const s = await startServer(t, { tree });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    for (let i = 0; i < 256; i++) await mcp.client.subscribeResource({ uri: `skill://pdf/many/f${i}.txt` });
    await assert.rejects(mcp.client.subscribeResource({ uri: 'skill://pdf/many/f256.txt' }), {
      code: -32602,
      message: 'MCP error -32602: Too many subscriptions (256) in this session',
    });
  });

  it('reads server.mcp.maxSessions and idleTimeoutS from the settings in force', async (t) => {
    let clock = 0;
    const s = await startServer(t, {
      tree: TREE,
      settings: { server: { mcp: { maxSessions: 1, idleTimeoutS: 5 } } },
      app: { mcp: { now: () => clock, sweepIntervalMs: 3_600_000 } },
    });
    const client = await connectHttp(`${s.base}/mcp`);
    t.after(() => client.close());
    await waitUntil('the GET stream of the client', () => s.app.mcpSessions.busy === 1);
    const refused = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(refused.status, 503);
    assert.equal(JSON.parse(refused.body).error.message, FULL_TABLE(1));
    clock += 4999;
    s.app.mcpSessions.sweep();
    assert.equal(s.app.mcpSessionCount(), 1);
    clock += 1;
    s.app.mcpSessions.sweep();
    assert.equal(s.app.mcpSessionCount(), 0);
  });
});
