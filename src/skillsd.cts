#!/usr/bin/env node
// The `skillsd` command (package.json `bin`). It answers `skillsd --version` itself and hands every other command
// line to the program, `dist/cli.js`. It is a CommonJS file so that the version costs no more than starting `node`:
// an ES module entry starts Node's ES module loader before its first line runs, and on Node 22 that cost more than
// the answer itself (docs/performance.md "Client commands").

import fs = require('node:fs');
import path = require('node:path');

/** The command lines `parseArgs` (src/cli/parse-args.ts) reads as a version request and nothing else. */
const VERSION_LINES = new Set(['--version', '-v', 'version']);

const argv = process.argv.slice(2);
if (argv.length === 1 && VERSION_LINES.has(argv[0] as string)) {
  // A reader that has gone (`skillsd --version | true`) ends the command as done, as in src/cli.ts.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  process.stdout.write(`${packageVersion()}\n`);
} else {
  // The program runs as its own entry would: it reads process.argv, sets the exit code and reports its errors.
  import('./cli.js');
}

/** As `readVersion` in src/cli/parse-args.ts: `src/` and `dist/` both sit one level below package.json. */
function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
