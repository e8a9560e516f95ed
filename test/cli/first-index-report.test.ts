import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { logFirstIndexSummary, reportScanProgress } from '../../src/cli/first-index-report.js';
import { createLogger } from '../../src/cli/logger.js';
import { waitUntil } from '../helpers/deadlines.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

describe('the first index report', () => {
  const cases = [
    {
      counts: { skills: 12, warnings: 2, diagnostics: 0 },
      msg: 'indexed 12 skills (2 warnings, 0 diagnostics) in 340 ms; watch mode polling',
    },
    {
      counts: { skills: 1, warnings: 1, diagnostics: 1 },
      msg: 'indexed 1 skill (1 warning, 1 diagnostic) in 340 ms; watch mode polling',
    },
  ];
  for (const { counts, msg } of cases) {
    it(`logs the summary with its fields and a sentence for people: ${msg}`, () => {
      const { lines, logger } = capture();
      logFirstIndexSummary(logger, { cwd: '/w', ...counts, indexMs: 340, watchMode: 'polling' });
      const { time, pid, hostname, ...line } = lines[0] as Record<string, unknown>;
      assert.equal(typeof time, 'number');
      assert.deepEqual(line, { level: 30, cwd: '/w', ...counts, indexMs: 340, watchMode: 'polling', msg });
    });
  }

  it('logs progress every interval while the scan runs, with the files read so far, until stopped', async () => {
    const { lines, logger } = capture();
    let read = 0;
    const stop = reportScanProgress({ logger, cwd: '/w', filesRead: () => (read += 1000), intervalMs: 5 });
    await waitUntil('two progress lines', () => lines.length >= 2);
    stop();
    const seen = lines.slice(0, 2).map(({ level, cwd, skillFiles, msg, elapsedMs }) => {
      assert.equal(typeof elapsedMs, 'number');
      return { level, cwd, skillFiles, msg };
    });
    assert.deepEqual(seen, [
      { level: 30, cwd: '/w', skillFiles: 1000, msg: 'indexing /w: 1000 SKILL.md files read so far' },
      { level: 30, cwd: '/w', skillFiles: 2000, msg: 'indexing /w: 2000 SKILL.md files read so far' },
    ]);
  });

  it('says nothing for a scan that ends within the first interval', () => {
    const { lines, logger } = capture();
    const stop = reportScanProgress({ logger, cwd: '/w', filesRead: () => 7 });
    stop();
    assert.deepEqual(lines, []);
  });
});
