import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getJson, startServer } from '../helpers/app-server.js';
import { WAIT_MS, waitUntil } from '../helpers/deadlines.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK } from '../helpers/temp-tree.js';

/** Keeps the event loop busy for `ms`, as a runaway request or a huge synchronous parse would. */
function blockEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spinning on purpose
  }
}

/**
 * Leaves `bytes` of garbage in the old generation: arrays of 1 MiB (each one V8 maps and unmaps on its own, where
 * Buffers' memory goes through malloc, which may keep it after they are freed), held through two collections, then
 * dropped. Made in a function of its own, not in the async test, whose suspended frame could still hold them.
 */
function oldGarbage(bytes: number, gc: () => void): void {
  const held = Array.from({ length: bytes / (1024 * 1024) }, (_, i) => new Array<number>(128 * 1024).fill(i));
  gc();
  gc();
  assert.equal(held.length * 1024 * 1024, bytes);
}

/** GETs `url` until it is not refused for load, until the bound. */
async function untilServed(url: string): Promise<Awaited<ReturnType<typeof getJson>>> {
  const deadline = Date.now() + WAIT_MS;
  let answer = await getJson(url);
  while (answer.status === 503 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await getJson(url);
  }
  return answer;
}

describe('load shedding', () => {
  it('answers 503 Overloaded with Retry-After while the event loop lags; /health stays 200 and says so', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) },
      // One-second samples: once a sample sees the lag, the state holds for a second, far longer than the request
      // below takes even on a loaded machine (with 100 ms samples, a loaded CI machine once missed it 20 times).
      app: { pressure: { maxEventLoopDelayMs: 50, sampleIntervalMs: 1000, retryAfterS: 2 } },
    });
    // Start-up itself lags the loop past 50 ms: wait until a sample without lag clears that.
    assert.equal((await untilServed(`${s.base}/skills`)).status, 200);

    // A lag longer than a whole sample; the request goes once a sample has seen it (the sampler's timer and the
    // delay monitor's may fire in either order after the block, so it is the first or the second sample).
    let overloaded: Awaited<ReturnType<typeof getJson>> | undefined;
    for (let attempt = 0; attempt < 10 && overloaded === undefined; attempt++) {
      blockEventLoop(1200);
      await waitUntil('a sample sees the lag', () => s.app.pressureType() === 'eventLoopDelay', 5000).catch(
        () => undefined,
      );
      const answer = await getJson(`${s.base}/skills`);
      if (answer.status === 503) overloaded = answer;
    }
    assert.ok(overloaded !== undefined, 'never refused while the event loop was blocked');
    assert.equal(overloaded.headers.get('retry-after'), '2');
    assert.equal(overloaded.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(overloaded.body.statusCode, 503);
    assert.equal(overloaded.body.code, 'Overloaded');
    assert.equal(overloaded.body.error, 'Service Unavailable');
    assert.match(overloaded.body.message, /^The daemon is overloaded \(eventLoopDelay\); retry in 2 s$/);

    blockEventLoop(400);
    const health = await getJson(`${s.base}/health`);
    assert.equal(health.status, 200);
    // /health answers either way, and its status agrees with its `overloaded` flag.
    assert.equal(health.body.status, health.body.overloaded ? 'overloaded' : 'ok');

    // Once the loop is free again, the next samples clear the state and requests are served.
    const after = await untilServed(`${s.base}/skills`);
    assert.equal(after.status, 200);
    assert.deepEqual(
      after.body.skills.map((skill: { name: string }) => skill.name),
      ['pdf'],
    );
    // A loaded machine can lag one more sample past 50 ms; the state must clear once a sample does not.
    await waitUntil('/health to report the load gone', async () => {
      return (await getJson(`${s.base}/health`)).body.overloaded === false;
    });
  });

  it('reports overloaded: true on /health while refusing', async (t) => {
    // A heap bound of one byte: every sample is over it, so the state is stable for the assertion.
    const s = await startServer(t, { app: { pressure: { maxHeapUsedBytes: 1, sampleIntervalMs: 20 } } });
    const deadline = Date.now() + WAIT_MS;
    let health = await getJson(`${s.base}/health`);
    while (health.body.overloaded !== true && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      health = await getJson(`${s.base}/health`);
    }
    assert.equal(health.status, 200);
    assert.equal(health.body.overloaded, true);
    assert.equal(health.body.status, 'overloaded');
    const refused = await getJson(`${s.base}/skills`);
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'Overloaded');
    assert.equal(refused.headers.get('retry-after'), '5');
    const stream = await SseClient.connect(`${s.base}/events`);
    t.after(() => stream.close());
    assert.equal(stream.status, 503);
    assert.equal(stream.headers['content-type'], 'application/json; charset=utf-8');
  });

  it('0 turns each bound off: a sample over nothing refuses nothing', async (t) => {
    // What the command line's in-process answer uses: it refused its one request as "overloaded (heapUsedBytes)"
    // once a sample ran before the request, which a loaded machine's slow start made happen.
    const s = await startServer(t, {
      app: { pressure: { maxEventLoopDelayMs: 0, maxHeapUsedBytes: 0, maxRssBytes: 0, sampleIntervalMs: 10 } },
    });
    // Node fires timers in the order they expire: once this 50 ms timer fires, the 10 ms sampler (armed earlier)
    // has sampled at least once, however loaded the machine.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await getJson(`${s.base}/skills`);
    assert.equal(answer.status, 200);
    const health = await getJson(`${s.base}/health`);
    assert.equal(health.body.overloaded, false);
  });

  it('takes 0 as "off" for the heap and RSS bounds too, as the in-process clients set them', async (t) => {
    // Heap off, RSS at one byte: the first sample must name the RSS, not a heap "above 0 bytes".
    const s = await startServer(t, {
      app: { pressure: { maxEventLoopDelayMs: 0, maxHeapUsedBytes: 0, maxRssBytes: 1, sampleIntervalMs: 10 } },
    });
    await waitUntil('a sample', () => s.app.pressureType() !== undefined);
    assert.equal(s.app.pressureType(), 'rssBytes');
  });

  it('collects garbage before it refuses for the resident set: garbage alone over the bound refuses nothing', async (t) => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // The bound leaves the server's start 200 MB; the garbage is twice that, made in one turn so that no sample
    // runs while it is alive. Collected twice while held, it is in the old generation, which only a full collection
    // frees: V8 would leave it there while nothing is allocated. Twice, as edits leave garbage again and again: each
    // collection that brought the RSS under the bound allows the next (here at once).
    const bound = process.memoryUsage.rss() + 200 * 1024 * 1024;
    const server = await startServer(t, {
      tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) },
      app: {
        pressure: {
          maxEventLoopDelayMs: 0,
          maxHeapUsedBytes: 0,
          maxRssBytes: bound,
          sampleIntervalMs: 10,
          collectGapMs: 0,
          collectEveryMs: 0,
        },
      },
    });
    assert.equal((await getJson(`${server.base}/skills`)).status, 200);
    const states = new Set<string | undefined>();
    for (let round = 1; round <= 2; round++) {
      oldGarbage(400 * 1024 * 1024, gc);
      assert.ok(process.memoryUsage.rss() > bound, `round ${round}: the garbage puts the RSS over the bound`);
      await waitUntil(`round ${round}: the RSS back under the bound`, () => {
        states.add(server.app.pressureType());
        return process.memoryUsage.rss() < bound;
      });
      states.add(server.app.pressureType());
      assert.equal((await getJson(`${server.base}/skills`)).status, 200);
    }
    assert.deepEqual([...states], [undefined]);
  });

  it('refuses for the resident set when a collection leaves it over the bound', async (t) => {
    let collections = 0;
    const s = await startServer(t, {
      app: {
        pressure: {
          maxEventLoopDelayMs: 0,
          maxHeapUsedBytes: 0,
          maxRssBytes: 1,
          sampleIntervalMs: 10,
          collect: () => collections++,
        },
      },
    });
    await waitUntil('a sample over the bound', () => s.app.pressureType() !== undefined);
    assert.equal(s.app.pressureType(), 'rssBytes');
    assert.equal(collections, 1);
    assert.equal((await getJson(`${s.base}/skills`)).status, 503);
    // Not asked again for a minute: every sample until then refuses.
    assert.equal(collections, 1);
  });
});
