#!/usr/bin/env node
// The `skillsd` command (package.json `bin`). Parses the command line, starts the daemon, and closes it gracefully
// on SIGINT/SIGTERM: stop accepting, end streams, close watchers, exit 0 within 5 s (API.md §Starting it).

import closeWithGrace from 'close-with-grace';
import { CliError } from './cli/cli-error.js';
import { parseArgs, readVersion, USAGE } from './cli/parse-args.js';

/** close-with-grace exits 1 after this long; the daemon's own close cuts connections well before. */
const SHUTDOWN_DEADLINE_MS = 4500;

async function main(argv: readonly string[]): Promise<void> {
  const command = parseArgs(argv, process.env);
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${readVersion()}\n`);
    return;
  }
  // Loaded only to serve: help, version and command-line errors answer without loading the server.
  const { startDaemon } = await import('./cli/serve.js');
  const daemon = await startDaemon(command.options, process.env);
  closeWithGrace({ delay: SHUTDOWN_DEADLINE_MS, logger: daemon.logger }, async ({ signal, err }) => {
    if (err !== undefined) daemon.logger.fatal({ err }, 'skillsd is stopping after an unexpected error');
    else daemon.logger.info({ signal }, `skillsd is stopping (${signal ?? 'exit'})`);
    await daemon.close();
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // One line on stderr (API.md §Starting it); the usage hint only where the command line itself was wrong.
  process.stderr.write(`skillsd: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(error instanceof CliError ? error.exitCode : 1);
});
