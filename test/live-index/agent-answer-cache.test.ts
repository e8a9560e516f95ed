// The answers one state of the agent views keeps (SECURITY.md "The views", docs/api.md "Agent views"): one per
// canonical query, the least recently used out first once 256 answers or 32 MiB are held. 101 spellings of `q=` used
// to keep 101 full bodies (819 MiB at a few thousand skills), cleared all at once at the 257th.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AgentViewsState, MAX_ANSWER_BYTES } from '../../src/live-index/agent-views-state.js';
import { ByteBoundedLru } from '../../src/live-index/byte-bounded-lru.js';
import { startServer, type TestServer } from '../helpers/app-server.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { SK } from '../helpers/temp-tree.js';

const SKILLS = 1000;
const nameOf = (i: number) => `s${String(i).padStart(4, '0')}`;

/** The state of the default workspace's views, and the answer count and bytes it holds now. */
async function heldBy(server: TestServer): Promise<{ state: AgentViewsState; count: number; bytes: number }> {
  const state = await server.registry.defaultWorkspace.agentViews(WAIT_MS);
  return { state, count: state.answerCount, bytes: state.heldBytes };
}

/** Claude Code's view with `query`, parsed, and the size of its body as sent (uncompressed). */
async function claudeSkills(server: TestServer, query: string) {
  const response = await fetch(`${server.base}/skills?agent=claude-code${query}`);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return { headers: response.headers, body: JSON.parse(text), size: Buffer.byteLength(text) };
}

describe('the answers a state of the agent views keeps', () => {
  it('101 distinct q= values leave at most 32 MiB held, the most recent ones', async (t) => {
    // Every skill matches every q= below: each answer is the whole list, the same bytes, about 0.7 MB.
    const tree: Record<string, string> = {};
    for (let i = 0; i < SKILLS; i++) {
      tree[`home/.claude/skills/${nameOf(i)}/SKILL.md`] = SK({ description: `Description ${'d'.repeat(400)}` });
    }
    const server = await startServer(t, { tree, app: { readyWaitMs: WAIT_MS } });
    const whole = await claudeSkills(server, '');
    assert.equal(whole.body.skills.length, SKILLS);

    let size = 0;
    for (let i = 1; i <= 101; i++) {
      const answer = await claudeSkills(server, `&q=${'d'.repeat(i)}`);
      assert.equal(answer.body.skills.length, SKILLS);
      size = answer.size;
    }
    const kept = Math.floor(MAX_ANSWER_BYTES / size);
    assert.ok(kept > 1 && kept < 101, `${kept} answers of ${size} bytes fit`);
    const held = await heldBy(server);
    assert.equal(held.count, kept);
    assert.equal(held.bytes, kept * size);
    assert.ok(held.bytes <= MAX_ANSWER_BYTES);

    // The most recent answer is kept: asked again, nothing is added or evicted.
    await claudeSkills(server, `&q=${'d'.repeat(101)}`);
    assert.deepEqual(await heldBy(server), held);
  });

  it('"PDF", "pdf", "Pdf" are one entry with one answer; " pdf " is its own, as its answer differs', async (t) => {
    const server = await startServer(t, {
      tree: {
        'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'home/.claude/skills/pdf-forms/SKILL.md': SK({ name: 'pdf-forms', description: 'Fill PDF forms' }),
        'home/.claude/skills/docx/SKILL.md': SK({ name: 'docx', description: 'Word files' }),
      },
      app: { readyWaitMs: WAIT_MS },
    });
    const whole = await claudeSkills(server, '');
    const before = await heldBy(server);

    const upper = await claudeSkills(server, '&q=PDF');
    assert.deepEqual(
      upper.body.skills.map((skill: { name: string }) => skill.name),
      ['pdf', 'pdf-forms'],
    );
    const after = await heldBy(server);
    assert.equal(after.count, before.count + 1);
    for (const spelling of ['pdf', 'Pdf', 'pDF']) {
      const same = await claudeSkills(server, `&q=${spelling}`);
      assert.equal(same.headers.get('etag'), upper.headers.get('etag'));
      assert.deepEqual(same.body, upper.body);
    }
    assert.deepEqual(await heldBy(server), after);

    // The spaces are part of what is looked for: "pdf tools" holds no " pdf ", "fill pdf forms" does.
    const spaced = await claudeSkills(server, `&q=${encodeURIComponent(' pdf ')}`);
    assert.deepEqual(
      spaced.body.skills.map((skill: { name: string }) => skill.name),
      ['pdf-forms'],
    );
    assert.equal((await heldBy(server)).count, after.count + 1);

    // An empty q= and hidden=true filter nothing: the answer of no filter, kept once.
    for (const query of ['&q=', '&hidden=true', '&q=&hidden=true']) {
      const same = await claudeSkills(server, query);
      assert.equal(same.headers.get('etag'), whole.headers.get('etag'));
    }
    assert.equal((await heldBy(server)).count, after.count + 1);
  });
});

describe('ByteBoundedLru', () => {
  const bytes = (value: string) => value.length;

  it('evicts the least recently used, a read counting as a use, until both bounds hold', () => {
    const lru = new ByteBoundedLru<string>({ maxEntries: 3, maxBytes: 10 }, bytes);
    lru.set('a', 'aaa');
    lru.set('b', 'bbb');
    lru.set('c', 'ccc');
    assert.equal(lru.get('a'), 'aaa');
    lru.set('d', 'ddd');
    assert.deepEqual([lru.size, lru.bytes], [3, 9]);
    assert.equal(lru.get('b'), undefined);
    lru.set('e', 'eeee');
    // 'c' is the oldest now ('a' was read): 3 + 3 + 4 = 10 bytes after it goes.
    assert.deepEqual([lru.get('c'), lru.size, lru.bytes], [undefined, 3, 10]);
    assert.deepEqual([lru.get('a'), lru.get('d'), lru.get('e')], ['aaa', 'ddd', 'eeee']);
  });

  it('keeps a value larger than the byte bound alone, and replaces a key in place', () => {
    const lru = new ByteBoundedLru<string>({ maxEntries: 3, maxBytes: 10 }, bytes);
    lru.set('a', 'aa');
    lru.set('big', 'x'.repeat(25));
    assert.deepEqual([lru.get('a'), lru.size, lru.bytes], [undefined, 1, 25]);
    lru.set('big', 'yy');
    assert.deepEqual([lru.get('big'), lru.size, lru.bytes], ['yy', 1, 2]);
  });
});
