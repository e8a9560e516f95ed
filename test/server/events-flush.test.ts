// An event leaves when it is logged, not when the work that follows it in the same chain of promise continuations
// is done (src/server/event-stream.ts `flushNow`): Node's HTTP response corks its socket on a write until the next
// tick, and the next tick waits for the microtask queue to empty. The client is another process, which stamps each
// event's arrival while this one is still busy in that chain.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

/** Connects to `url`, prints `ready` once the hello is in, then the arrival time of the first `index` event, and exits. */
const CLIENT = `
const response = await fetch(process.argv[1]);
const decoder = new TextDecoder();
let seen = '';
let ready = false;
for await (const chunk of response.body) {
  seen += decoder.decode(chunk, { stream: true });
  if (!ready && seen.includes('event: hello')) { ready = true; console.log('ready'); }
  if (seen.includes('event: index')) { console.log('index ' + Date.now()); process.exit(0); }
}
`;

/** How long this process stays in promise continuations after logging the event. */
const BUSY_MS = 1500;

describe('GET /events', () => {
  it('sends an event as it is logged, while the process is still busy in promise continuations', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) },
    });
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, `${s.base}/events`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    t.after(() => child.kill());
    const lines = createInterface({ input: child.stdout });
    const next = async (): Promise<string> => (await once(lines, 'line'))[0] as string;
    assert.equal(await next(), 'ready');
    const arrival = next();

    const workspace = await s.registry.get();
    workspace.events.appendChange('f'.repeat(64), [
      { type: 'index', data: { added: ['x'], removed: [], changed: [] } },
    ]);
    // Continuations only, each queuing the next: no tick runs until the chain ends.
    const until = Date.now() + BUSY_MS;
    while (Date.now() < until) await Promise.resolve();
    const busyEnded = Date.now();

    const line = await arrival;
    assert.match(line, /^index \d+$/);
    const arrived = Number(line.slice('index '.length));
    assert.ok(arrived < busyEnded, `arrived at ${arrived}, the continuations ended at ${busyEnded}`);
  });
});
