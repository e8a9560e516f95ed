// The committed OpenAPI document under `redocly lint` with the recommended rules (redocly.yaml): what client
// generators and API portals expect of a document, checked with no error and no warning.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

describe('OpenAPI document under `redocly lint` (recommended rules, redocly.yaml)', () => {
  it('has no error and no warning', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', 'openapi/openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      {
        cwd: ROOT,
        // No network from a test: no telemetry, no update check.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
      // A document with errors exits non-zero: its report is still on stdout.
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`,
    );
    assert.deepEqual(problems, [], 'fix the route schemas, then run: node --import tsx scripts/write-openapi.ts');
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  });
});
