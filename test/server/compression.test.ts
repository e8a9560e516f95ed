// Compressed answers (docs/performance.md "Compression"): a large `GET /skills` (fast path and Fastify's route) or `/agents`
// goes gzip or br to a client that accepts it and decodes to exactly the identity body; small answers, 304s and the
// event stream stay identity. Requests go through node:http, which (unlike fetch) neither asks for nor decodes
// compressed answers on its own.

import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request } from 'node:http';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../helpers/app-server.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK, writeTree } from '../helpers/temp-tree.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** `path` as given: a URL would drop the empty query of `/skills?`, the target that always goes through Fastify. */
function get(s: TestServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const NOTES = `${'A line of notes that a client reads as it is.\n'.repeat(100)}`;

/** 40 skills: a `/skills` answer of ≈ 14 KB, far above the 1 KiB threshold; and a 4.6 KB file in one of them. */
function manySkills(): Record<string, string> {
  const tree: Record<string, string> = { 'work/.musepi/skills/skill-00/notes.md': NOTES };
  for (let i = 0; i < 40; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`;
    tree[`work/.musepi/skills/${name}/SKILL.md`] = SK({ name, description: `Does task number ${i} very well` });
  }
  return tree;
}

const DECODE = { gzip: gunzipSync, br: brotliDecompressSync } as const;

describe('compressed answers', () => {
  it('sends a large /skills gzip or br that decodes to exactly the identity body, on both paths', async (t) => {
    const s = await startServer(t, { tree: manySkills() });
    await (await s.registry.get()).ready;
    for (const path of ['/skills', '/skills?', '/skills?q=skill']) {
      const identity = await get(s, path);
      assert.equal(identity.status, 200);
      assert.equal(identity.headers['content-encoding'], undefined);
      assert.equal(identity.headers['content-length'], String(identity.body.length));
      assert.ok(identity.body.length > 10_000, `${path}: ${identity.body.length} bytes`);
      for (const [accept, encoding] of [
        ['gzip', 'gzip'],
        ['br', 'br'],
        // Node's fetch asks for `gzip, deflate`; gzip is preferred when both are accepted.
        ['gzip, deflate, br', 'gzip'],
      ] as const) {
        // Twice: the second answer is the kept compressed copy.
        for (let round = 0; round < 2; round++) {
          const encoded = await get(s, path, { 'accept-encoding': accept });
          assert.equal(encoded.status, 200);
          assert.equal(encoded.headers['content-encoding'], encoding, `${path} ${accept}`);
          assert.equal(encoded.headers.vary, 'accept-encoding');
          assert.equal(encoded.headers.etag, identity.headers.etag);
          assert.equal(encoded.headers['content-type'], 'application/json; charset=utf-8');
          assert.equal(encoded.headers['content-length'], String(encoded.body.length));
          assert.ok(encoded.body.length < identity.body.length / 4);
          assert.deepEqual(DECODE[encoding](encoded.body), identity.body);
        }
      }
    }
    // A poll of the fast path with If-None-Match: 304 there, with no body and no encoding, whatever is accepted.
    const etag = (await get(s, `/skills`)).headers.etag as string;
    const answered = s.app.pollFastPath?.answered ?? 0;
    for (const path of ['/skills', '/skills?']) {
      const notModified = await get(s, path, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.headers['content-encoding'], undefined);
      assert.equal(notModified.headers['content-length'], undefined);
      assert.equal(notModified.body.length, 0);
    }
    assert.equal(s.app.pollFastPath?.answered, answered + 1);
  });

  it('compresses a large /agents and agent view and leaves small answers identity', async (t) => {
    const s = await startServer(t, { tree: manySkills() });
    // Above the plugin's synchronous bound on 2 cores or more (8 KiB on 2), so streamed: the whole body must arrive.
    for (const path of ['/agents', '/skills?agent=musepi']) {
      const identity = await get(s, path);
      assert.equal(identity.status, 200);
      assert.ok(identity.body.length > 10_000, `${path}: ${identity.body.length} bytes`);
      const encoded = await get(s, path, { 'accept-encoding': 'gzip' });
      assert.equal(encoded.status, 200);
      assert.equal(encoded.headers['content-encoding'], 'gzip', path);
      assert.equal(encoded.headers.vary, 'accept-encoding');
      assert.deepEqual(gunzipSync(encoded.body), identity.body);
    }
    // HEAD of a compressed route ends (no body), with the encoding its GET would have.
    const head = await get(s, `/agents`, { 'accept-encoding': 'gzip' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    // A skill's file: its bytes and length as on disk, whatever the client accepts.
    const file = await get(s, '/skill/skill-00/notes.md', { 'accept-encoding': 'gzip, br' });
    assert.equal(file.status, 200);
    assert.equal(file.headers['content-encoding'], undefined);
    assert.equal(file.headers['content-length'], String(Buffer.byteLength(NOTES)));
    assert.equal(file.body.toString('utf8'), NOTES);
    // Below 1 KiB: as they are, with their length.
    for (const path of ['/skills?q=skill-07', '/health', '/skills/skill-07']) {
      const small = await get(s, path, { 'accept-encoding': 'gzip, br' });
      assert.equal(small.status, 200, path);
      assert.ok(small.body.length < 1024, `${path}: ${small.body.length} bytes`);
      assert.equal(small.headers['content-encoding'], undefined, path);
      assert.equal(small.headers['content-length'], String(small.body.length), path);
      JSON.parse(small.body.toString('utf8'));
    }
  });

  it('streams events to a client that accepts gzip, while /skills goes compressed', async (t) => {
    const s = await startServer(t, { tree: manySkills(), watch: true });
    await (await s.registry.get()).ready;
    const client = await SseClient.connect(`${s.base}/events`, { 'accept-encoding': 'gzip, br' });
    t.after(() => client.close());
    assert.equal(client.status, 200);
    assert.equal(client.headers['content-type'], 'text/event-stream');
    assert.equal(client.headers['content-encoding'], undefined);
    await client.next((event) => event.event === 'hello');
    // Each event arrives while the stream stays open: nothing holds it back to compress it in one piece.
    await writeTree(s.root, { 'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }) });
    const added = await client.next((event) => event.event === 'index');
    assert.deepEqual(JSON.parse(added.data), { generation: 2, added: ['docx'], removed: [], changed: [] });
    const list = await get(s, `/skills`, { 'accept-encoding': 'gzip' });
    assert.equal(list.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(list.body).toString('utf8')).generation, 2);
  });
});
