#!/usr/bin/env node
// Runs the whole test suite with node's own runner.
// Node 20's `node --test` neither expands globs nor picks up `.ts` files, so the file list is built here.
// Usage: node scripts/run-tests.mjs [path-substring ...]   (no argument: every test file)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function listTests(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTests(full));
    else if (entry.name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = listTests(join(root, 'test'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test file matches ${filters.join(' ')}`);
  process.exit(1);
}

// End-to-end tests spawn the built CLI, so the build must be current.
const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// Most tests wait on the file system or on sockets, not on the CPU: run a few files at once.
const concurrency = process.env.SKILLSD_TEST_CONCURRENCY ?? '3';
const run = spawnSync(
  process.execPath,
  // A test that hangs fails after 5 minutes instead of holding the run (the slowest test takes under one minute).
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=300000',
    '--test-reporter=spec',
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
