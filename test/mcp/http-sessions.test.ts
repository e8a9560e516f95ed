import assert from 'node:assert/strict';
import { appendFile, unlink, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import { startServer as startAppServer, type TestServerOptions } from '../helpers/app-server.js';
import { connectHttp } from '../helpers/mcp-client.js';
import { pingSession, postInitialize } from '../helpers/mcp-raw.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
  'work/.musepi/skills/pdf/scripts/other.sh': '#!/bin/sh\necho other\n',
};

/** Waits for a condition the test cannot be told about by an event (a timer inside the server), bounded. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('MCP over Streamable HTTP: notifications and sessions', () => {
  it('notifies a subscribed supporting file of an edit, and stops after unsubscribe', async (t) => {
    const s = await startServer(t, { tree: TREE, watch: true });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const dir = `${s.cwd}/.musepi/skills/pdf`;
    await mcp.client.subscribeResource({ uri: 'skill://pdf/scripts/run.sh' });
    await mcp.client.subscribeResource({ uri: 'skill://pdf/scripts/other.sh' });
    await appendFile(`${dir}/scripts/run.sh`, 'echo more\n');
    const updated = await mcp.waitFor((n) => n.method === 'notifications/resources/updated');
    assert.deepEqual(updated.params, { uri: 'skill://pdf/scripts/run.sh' });

    await mcp.client.unsubscribeResource({ uri: 'skill://pdf/scripts/run.sh' });
    const before = mcp.notifications.length;
    await appendFile(`${dir}/scripts/run.sh`, 'echo again\n');
    // A later edit of a file still subscribed (same directory) is the barrier: its notification comes after any the
    // first edit could have caused.
    await appendFile(`${dir}/scripts/other.sh`, 'echo changed\n');
    await mcp.waitFor(
      (n) => n.method === 'notifications/resources/updated' && n.params?.uri === 'skill://pdf/scripts/other.sh',
    );
    assert.deepEqual(
      mcp.notifications.slice(before).filter((n) => n.params?.uri === 'skill://pdf/scripts/run.sh'),
      [],
    );
  });

  it('notifies a subscribed SKILL.md of a body edit; list_changed when a skill is added', async (t) => {
    const s = await startServer(t, { tree: TREE, watch: true });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    await mcp.client.subscribeResource({ uri: 'skill://pdf/SKILL.md' });
    await writeFile(`${s.cwd}/.musepi/skills/pdf/SKILL.md`, `${SK({ name: 'pdf', description: 'PDF tools' })}More.\n`);
    const updated = await mcp.waitFor((n) => n.method === 'notifications/resources/updated');
    assert.deepEqual(updated.params, { uri: 'skill://pdf/SKILL.md' });

    await writeTree(s.cwd, { '.musepi/skills/zeta/SKILL.md': SK({ name: 'zeta', description: 'Last' }) });
    await mcp.waitFor((n) => n.method === 'notifications/resources/list_changed');
    await mcp.waitFor((n) => n.method === 'notifications/prompts/list_changed');
    const listed = await mcp.client.listResources();
    assert.deepEqual(
      listed.resources.map((resource) => resource.uri),
      ['skill://pdf/SKILL.md', 'skill://zeta/SKILL.md'],
    );
  });

  it('notifies a subscribed SKILL.md once when it is deleted, though the skill then leaves the index too', async (t) => {
    const s = await startServer(t, {
      tree: { ...TREE, 'work/.musepi/skills/zeta/SKILL.md': SK({ name: 'zeta', description: 'Last' }) },
      watch: true,
    });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const updates = (uri: string) =>
      mcp.notifications.filter((n) => n.method === 'notifications/resources/updated' && n.params?.uri === uri);
    await mcp.client.subscribeResource({ uri: 'skill://pdf/SKILL.md' });
    await mcp.client.subscribeResource({ uri: 'skill://zeta/SKILL.md' });
    // The file goes (its watch hears it: not found), then the skill leaves the index (an index event: unknown skill).
    await unlink(`${s.cwd}/.musepi/skills/pdf/SKILL.md`);
    await mcp.waitFor((n) => n.method === 'notifications/resources/list_changed');
    await mcp.waitFor(
      (n) => n.method === 'notifications/resources/updated' && n.params?.uri === 'skill://pdf/SKILL.md',
    );
    // A later edit of another subscribed file is the barrier: its notification comes after any the deletion caused.
    await writeFile(`${s.cwd}/.musepi/skills/zeta/SKILL.md`, `${SK({ name: 'zeta', description: 'Last' })}More.\n`);
    await mcp.waitFor(
      (n) => n.method === 'notifications/resources/updated' && n.params?.uri === 'skill://zeta/SKILL.md',
    );
    assert.deepEqual(updates('skill://pdf/SKILL.md'), [
      { method: 'notifications/resources/updated', params: { uri: 'skill://pdf/SKILL.md' } },
    ]);
    assert.equal(updates('skill://zeta/SKILL.md').length, 1);
  });

  it('refuses to subscribe what resources/read refuses', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    await assert.rejects(mcp.client.subscribeResource({ uri: 'skill://pdf/../x' }), {
      code: -32602,
      message: 'MCP error -32602: Path traversal (..) is not allowed in skill:// URLs',
    });
  });

  it('ends a session on DELETE: its id is then unknown (404)', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const id = mcp.transport.sessionId;
    assert.ok(id);
    assert.equal(s.app.mcpSessionCount(), 1);
    await mcp.transport.terminateSession();
    assert.equal(s.app.mcpSessionCount(), 0);
    const after = await fetch(`${s.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    assert.equal(after.status, 404);
    assert.deepEqual(await after.json(), {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found: it ended or expired; initialize a new one' },
      id: null,
    });
  });

  it('leaves nothing behind for an initialize the transport refuses', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const refused = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`, 'Accept: application/json']);
    assert.equal(refused.status, 406);
    assert.equal(s.app.mcpSessionCount(), 0);
    assert.equal(s.registry.defaultWorkspace.events.subscriberCount, 0);
    assert.equal(s.registry.defaultWorkspace.events.observerCount, 0);
  });

  it('caps sessions and expires idle ones', async (t) => {
    // The idle timeout runs on a clock the test moves: nothing expires because the machine is slow, and the sweep runs
    // when the test calls it (its own timer is out of the way).
    let clock = 0;
    const s = await startServer(t, {
      tree: TREE,
      app: { mcp: { maxSessions: 1, idleTimeoutMs: 1000, now: () => clock, sweepIntervalMs: 3_600_000 } },
    });
    const first = await connectHttp(`${s.base}/mcp`);
    t.after(() => first.close());
    // The SDK's client holds a GET stream open: its session is busy, so a full table cannot make room.
    await until(() => s.app.mcpSessions.busy === 1, 'the GET stream of the first session');
    const refused = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['retry-after'], '60');
    assert.deepEqual(JSON.parse(refused.body), {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message:
          'Too many MCP sessions (1), each answering a request or holding a stream open: end one with DELETE /mcp, ' +
          'or retry later',
      },
      id: null,
    });
    // One millisecond short of the timeout the session lives; at the timeout it ends, its open stream with it.
    clock += 999;
    s.app.mcpSessions.sweep();
    assert.equal(s.app.mcpSessionCount(), 1);
    clock += 1;
    s.app.mcpSessions.sweep();
    assert.equal(s.app.mcpSessionCount(), 0);
    await assert.rejects(first.client.ping(), /Session not found/);
    // Its place is free again.
    const second = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(second.status, 200);
    const id = second.headers['mcp-session-id'] ?? '';
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(await pingSession(s.port, id), 200);
  });

  it('applies the Host, Origin and token guards to /mcp', async (t) => {
    const token = 'a-token-for-tests';
    const s = await startServer(t, {
      tree: TREE,
      app: { security: { token, bindHost: '127.0.0.1', getServerSettings: () => defaultSettings().server } },
    });
    const host = await postInitialize(s.port, ['Host: evil.example', `Authorization: Bearer ${token}`]);
    assert.equal(host.status, 403);
    assert.equal(JSON.parse(host.body).code, 'ForbiddenHost');
    const origin = await postInitialize(s.port, [
      `Host: 127.0.0.1:${s.port}`,
      'Origin: https://evil.example',
      `Authorization: Bearer ${token}`,
    ]);
    assert.equal(origin.status, 403);
    assert.equal(JSON.parse(origin.body).code, 'ForbiddenOrigin');
    const anonymous = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`]);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
    await assert.rejects(connectHttp(`${s.base}/mcp`, { headers: { authorization: 'Bearer wrong' } }));
    const mcp = await connectHttp(`${s.base}/mcp`, { headers: { authorization: `Bearer ${token}` } });
    t.after(() => mcp.close());
    assert.equal((await mcp.client.listResources()).resources.length, 1);
  });

  it('answers an allowed origin with CORS headers that expose the session id', async (t) => {
    const server = { ...defaultSettings().server, allowedOrigins: ['https://app.example'] };
    const s = await startServer(t, {
      tree: TREE,
      app: { security: { bindHost: '127.0.0.1', getServerSettings: () => server } },
    });
    const answer = await postInitialize(s.port, [`Host: 127.0.0.1:${s.port}`, 'Origin: https://app.example']);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(
      answer.headers['access-control-expose-headers'],
      'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
    );
    assert.match(answer.headers['mcp-session-id'] ?? '', /^[0-9a-f-]{36}$/);
  });

  it("serves the workspace of ?cwd=, or of the client's first file:// root", async (t) => {
    const s = await startServer(t, {
      tree: {
        ...TREE,
        'other/.git/HEAD': 'ref: refs/heads/main\n',
        'other/.musepi/skills/elsewhere/SKILL.md': SK({ name: 'elsewhere', description: 'Other workspace' }),
      },
    });
    const other = `${s.root}/other`;
    const byQuery = await connectHttp(`${s.base}/mcp?cwd=${encodeURIComponent(other)}`);
    t.after(() => byQuery.close());
    assert.deepEqual(
      (await byQuery.client.listResources()).resources.map((resource) => resource.uri),
      ['skill://elsewhere/SKILL.md'],
    );
    const byRoots = await connectHttp(`${s.base}/mcp`, { roots: [`file://${other}`, `file://${s.cwd}`] });
    t.after(() => byRoots.close());
    assert.deepEqual(
      (await byRoots.client.listResources()).resources.map((resource) => resource.uri),
      ['skill://elsewhere/SKILL.md'],
    );
    const plain = await connectHttp(`${s.base}/mcp`);
    t.after(() => plain.close());
    assert.deepEqual(
      (await plain.client.listResources()).resources.map((resource) => resource.uri),
      ['skill://pdf/SKILL.md'],
    );
  });
});
