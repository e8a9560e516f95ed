// `skillsd mcp [--cwd DIR] [--config FILE] [--profile P] [--log-level L]`: indexes in-process with the same watchers
// as `serve` and speaks MCP on stdin/stdout (docs/mcp.md §Transports). Logs go to stderr: stdout is the protocol's.

import { homedir } from 'node:os';
import pino from 'pino';
import { createFileDigests } from '../discovery/files/file-digests.js';
import { defaultSettings } from '../discovery/settings.js';
import { DEFAULT_READY_WAIT_MS } from '../live-index/ready-wait.js';
import { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { serverVersion } from '../mcp/server-version.js';
import { serveMcpOverStdio } from '../mcp/stdio.js';
import { presenceModeOf } from '../watch/watch-presence.js';
import { type ConfigWatcher, loadConfigFile } from './config-file.js';
import { discoveryEnv, workspaceDirectory } from './discovery-inputs.js';
import { withCliOverrides } from './effective-settings.js';
import { followConfigFile } from './follow-config-file.js';
import { giveBackMemory } from './give-back-memory.js';
import { createLogger } from './logger.js';
import type { ServeOptions } from './parse-args.js';

/** Runs until the client closes stdin or a signal arrives; resolves then, with everything closed. */
export async function runMcpStdio(
  options: ServeOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const logger = createLogger(options.logLevel ?? 'info', pino.destination({ fd: 2, sync: true }), options.logFormat);
  const explicitCwd = options.cwd === undefined ? undefined : await workspaceDirectory(options.cwd);
  const config = options.config === undefined ? undefined : await loadConfigFile(options.config);
  let settings = withCliOverrides(config?.settings ?? defaultSettings(), options);
  const watch = presenceModeOf(settings.server);
  const registry = new WorkspaceRegistry({
    home: homedir(),
    env: discoveryEnv(env),
    defaultCwd: explicitCwd ?? (await workspaceDirectory(process.cwd())),
    settings,
    logger,
    // `--watch-mode poll` as for `serve` (docs/deploy.md §Watching).
    watcher: { usePolling: watch.mode === 'polling', pollIntervalMs: watch.pollIntervalMs },
  });
  let watcher: ConfigWatcher | undefined;
  if (config !== undefined) {
    watcher = followConfigFile(config, {
      cliOptions: options,
      startSettings: settings,
      registry,
      logger,
      onSettings(next) {
        settings = next;
      },
    });
  }
  try {
    await (await registry.get()).ready.catch(() => undefined);
    const running = await serveMcpOverStdio(
      {
        registry,
        getSettings: () => settings,
        digests: createFileDigests(),
        readyWaitMs: DEFAULT_READY_WAIT_MS,
        logger,
        version: serverVersion(),
      },
      { cwd: explicitCwd },
    );
    logger.info({ cwd: registry.defaultCwd }, 'skillsd MCP server on stdio');
    // The first index was built and the watcher armed before the server started: the start's burst is over.
    const stopGivingBack = giveBackMemory(logger);
    const stop = () => {
      void running.close();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await running.closed;
    stopGivingBack();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  } finally {
    watcher?.close();
    await registry.close();
    logger.info('skillsd MCP server stopped');
  }
}
