// The `--config FILE` reload of docs/api.md §Starting it, wired the same way for `serve` and `mcp`: each good edit is
// re-applied to every workspace with the command line's overrides on top; a bad one is logged and told to clients while
// the last good settings stay. The file is watched as the skills are (`--watch-mode`, `--poll-interval`).

import type { Logger } from 'pino';
import type { Settings } from '../discovery/types.js';
import type { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { presenceModeOf } from '../watch/watch-presence.js';
import { type ConfigWatcher, type LoadedConfig, watchConfigFile } from './config-file.js';
import { withCliOverrides } from './effective-settings.js';
import type { ServeOptions } from './parse-args.js';

export interface ConfigFollowing {
  /** The command line, whose overrides win over the file's settings. */
  cliOptions: ServeOptions;
  /** The settings in force at start: their watch mode is the file's (it changes only with a restart). */
  startSettings: Settings;
  registry: Pick<WorkspaceRegistry, 'applySettings' | 'reportSettingsError'>;
  logger: Pick<Logger, 'info' | 'error'>;
  /** Told the new effective settings of a good edit, before the workspaces re-apply them. */
  onSettings: (next: Settings) => void;
}

export function followConfigFile(config: LoadedConfig, wiring: ConfigFollowing): ConfigWatcher {
  const { file } = config;
  const { registry, logger } = wiring;
  return watchConfigFile({
    file,
    initialText: config.text,
    ...presenceModeOf(wiring.startSettings.server),
    onSettings(fileSettings) {
      const next = withCliOverrides(fileSettings, wiring.cliOptions);
      wiring.onSettings(next);
      logger.info({ file }, `config file ${file} re-applied`);
      registry.applySettings(next, file).catch((error: unknown) => {
        logger.error({ err: error, file }, `applying config file ${file} failed`);
      });
    },
    onError(error) {
      // The last good settings stay in force (docs/api.md §Starting it).
      logger.error({ file, problem: error.problem }, `${error.message}; keeping the last good settings`);
      registry.reportSettingsError(file, error.problem);
    },
  });
}
