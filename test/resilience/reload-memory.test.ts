// A short run of bench/soak-reloads.ts: 1,000 reloads with an edit each, in a fresh `--expose-gc` child so that the
// figures are this workload's alone. The heap may grow while the event log fills (it holds the last 1000 events);
// anything kept per reload beyond that would show as megabytes.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SoakResult } from '../../bench/soak-reloads.js';

const SOAK = fileURLToPath(new URL('../../bench/soak-reloads.ts', import.meta.url));

describe('memory across reloads', () => {
  it('stays flat over 1,000 reloads of an edited skill', async (t) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', SOAK, '--reloads', '1000', '--json'],
      // A safety net only, under the suite's 300 s per test: a loaded CI machine took over 60 s for the 1,000 reloads.
      { timeout: 240_000 },
    );
    const result = JSON.parse(stdout) as SoakResult;
    assert.equal(result.reloads, 1000);
    // Every reload was a real change: one generation each, after the first index.
    assert.equal(result.generation, 1001);
    const growth = result.end.heapUsedBytes - result.warm.heapUsedBytes;
    t.diagnostic(`heapUsed after 100 reloads ${result.warm.heapUsedBytes}, after 1000 ${result.end.heapUsedBytes}`);
    assert.ok(growth < 4 * 1024 * 1024, `heapUsed grew by ${growth} bytes between reload 100 and reload 1000`);
  });
});
