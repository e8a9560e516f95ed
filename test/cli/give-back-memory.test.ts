// giveBackMemory (src/cli/give-back-memory.ts, docs/memory.md "After the start" and "After a burst") in a child
// process of its own, so that its collections touch no other test: one at once, none while the process stays idle,
// one once a burst is over and the event loop quiet, which shrinks the young generation back to its starting size.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WAIT_MS } from '../helpers/deadlines.js';

const CHILD = fileURLToPath(new URL('../helpers/give-back-memory-child.ts', import.meta.url));
const CHECK_MS = 200;
/** V8 before 12 (Node 20) has no last-resort flavour for `gc`: its full collection keeps the young generation grown. */
const SHRINKS = Number(process.versions.v8.split('.')[0]) >= 12;

interface Line {
  msg: string;
  youngBefore?: number;
  youngAfter?: number;
}

/** The child's lines as they come, and a wait for the next one matching. */
function linesOf(child: ChildProcess) {
  const seen: Line[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    seen.push(JSON.parse(text) as Line);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    seen,
    async next(msg: string, from: number): Promise<Line> {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const found = seen.slice(from).find((line) => line.msg === msg);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no "${msg}" within ${WAIT_MS} ms: ${JSON.stringify(seen)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1000).unref();
        });
      }
    },
  };
}

describe('giveBackMemory', () => {
  it('collects at once, not again while idle, and once more after a burst', {
    skip: SHRINKS ? false : `V8 ${process.versions.v8} keeps its young generation grown: no burst grows it again`,
  }, async (t) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, String(CHECK_MS)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    t.after(() => child.kill());
    const lines = linesOf(child);
    const start = await lines.next('gave back the memory of the start', 0);
    // Idle for ten checks: the young generation does not grow, so nothing is collected again.
    await new Promise((resolve) => setTimeout(resolve, 10 * CHECK_MS));
    assert.deepEqual(
      lines.seen.map((line) => line.msg),
      ['gave back the memory of the start'],
    );
    child.stdin!.write('burst\n');
    const over = lines.seen.length;
    await lines.next('burst over', over);
    const burst = await lines.next('gave back the memory of a burst', over);
    t.diagnostic(`young generation ${burst.youngBefore} -> ${burst.youngAfter} bytes`);
    assert.ok((burst.youngBefore ?? 0) - (start.youngAfter ?? 0) >= 8 * 1024 * 1024, JSON.stringify(burst));
    assert.equal(burst.youngAfter, start.youngAfter);
    // Quiet again with its young generation back where it started: one collection for one burst.
    await new Promise((resolve) => setTimeout(resolve, 10 * CHECK_MS));
    assert.deepEqual(
      lines.seen.map((line) => line.msg),
      ['gave back the memory of the start', 'burst over', 'gave back the memory of a burst'],
    );
    child.stdin!.end();
  });
});
