#!/usr/bin/env node
// The `skillsd` command (package.json `bin`). Parses the command line, starts the daemon, and closes it gracefully
// on SIGINT/SIGTERM: stop accepting, end streams, close watchers, exit 0 within 5 s (docs/api.md §Starting it).

import { CliError } from './cli/cli-error.js';
import { currentDirectoryGoneError, isCurrentDirectoryGone } from './cli/current-directory.js';
import { parseArgs, readVersion, USAGE } from './cli/parse-args.js';

/** close-with-grace exits 1 after this long; the daemon's own close cuts connections well before. */
const SHUTDOWN_DEADLINE_MS = 4500;

async function main(argv: readonly string[]): Promise<void> {
  const command = parseArgs(argv, process.env);
  if (command.kind === 'help' || command.kind === 'version' || command.kind === 'client') endOnClosedPipe();
  if (command.kind === 'help') {
    // Wrapped to a terminal narrower than the text (docs/cli.md "Output"); loaded only for the help.
    const width = process.stdout.isTTY ? process.stdout.columns : undefined;
    const { wrapHelp } = await import('./cli/terminal-text.js');
    process.stdout.write(width === undefined ? USAGE : wrapHelp(USAGE, width));
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${readVersion()}\n`);
    return;
  }
  if (command.kind === 'mcp') {
    const { runMcpStdio } = await import('./cli/mcp.js');
    await runMcpStdio(command.options, process.env);
    return;
  }
  if (command.kind === 'client') {
    // A client command never loads the server unless it has to answer in-process (no daemon running).
    const { runClientCommand } = await import('./cli/run-client-command.js');
    process.exitCode = await runClientCommand(command.command, command.args, process.env);
    return;
  }
  // Loaded only to serve: help, version and command-line errors answer without loading the server.
  const [{ startDaemon }, { default: closeWithGrace }] = await Promise.all([
    import('./cli/serve.js'),
    import('close-with-grace'),
  ]);
  const starting = startDaemon(command.options, process.env);
  // Installed before the daemon is up, so that a signal during start-up also ends in a clean close.
  closeWithGrace({ delay: SHUTDOWN_DEADLINE_MS, logger: stderrLogger }, async ({ signal, err }) => {
    // A start that failed is reported by main's caller, with its own exit code.
    const daemon = await starting.catch(() => undefined);
    if (daemon === undefined) return;
    if (err !== undefined) daemon.logger.fatal({ err }, 'skillsd is stopping after an unexpected error');
    else daemon.logger.info({ signal }, `skillsd is stopping (${signal ?? 'exit'})`);
    await daemon.close();
  });
  await starting;
}

/**
 * A reader that stops early (`skillsd cat big | head`, `skillsd --version | true`) closes the pipe: the command is
 * done, not failed. The daemon's and the MCP server's output is theirs to handle.
 */
function endOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

/** close-with-grace reports a second signal or a timed-out close here, as one line like every other failure. */
const stderrLogger = {
  error(message: unknown): void {
    process.stderr.write(`skillsd: ${String(message)}\n`);
  },
};

main(process.argv.slice(2)).catch((thrown: unknown) => {
  const error = isCurrentDirectoryGone(thrown) ? currentDirectoryGoneError() : thrown;
  const message = error instanceof Error ? error.message : String(error);
  // One line on stderr (docs/api.md §Starting it), and the exit code of the failure: 2 for bad input, else 1.
  process.stderr.write(`skillsd: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(error instanceof CliError ? error.exitCode : 1);
});
