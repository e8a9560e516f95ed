// Precedence of docs/api.md §Starting it: defaults < config file < environment < flags. parse-args already folded the
// environment under the flags; this lays the result over the settings of the config file (or the defaults).
// Applied again on every config reload, so `--profile omp` still wins after an edit of `profile` in the file.

import type { Settings } from '../discovery/types.js';
import type { ServeOptions } from './parse-args.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7420;

export function withCliOverrides(settings: Settings, options: ServeOptions): Settings {
  const server = { ...settings.server };
  if (options.host !== undefined) server.host = options.host;
  if (options.port !== undefined) server.port = options.port;
  if (options.allowHosts !== undefined) {
    server.allowedHosts = [...new Set([...server.allowedHosts, ...options.allowHosts])];
  }
  if (options.watchMode !== undefined) server.watchMode = options.watchMode;
  if (options.pollInterval !== undefined) server.pollIntervalMs = options.pollInterval;
  if (options.generation !== undefined) server.generation = options.generation;
  if (options.tokenFile !== undefined) {
    // A token file on the command line replaces any token from the config file, whichever form it took.
    server.tokenFile = options.tokenFile;
    delete server.token;
  }
  return { ...settings, profile: options.profile ?? settings.profile, server };
}

export function listenAddress(settings: Settings): { host: string; port: number } {
  return { host: settings.server.host ?? DEFAULT_HOST, port: settings.server.port ?? DEFAULT_PORT };
}
