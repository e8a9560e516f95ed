// The answer without a daemon (docs/cli.md): the workspace indexed in this process, once and without watchers, and
// every request of the command answered by the functions the daemon's routes call (in-process-answers.ts). The
// command therefore prints exactly what a daemon started in that directory would answer; nothing is computed a second
// way, and no server is built to compute it.

import { homedir } from 'node:os';
import type { FetchLike } from '../client/skillsd-client.js';
import { defaultSettings } from '../discovery/settings.js';
import type { Profile } from '../discovery/types.js';
import { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { discoveryEnv } from './discovery-inputs.js';
import { InProcessAnswers } from './in-process-answers.js';

export interface InProcessOptions {
  cwd: string;
  config?: string;
  profile?: Profile;
  env: Readonly<Record<string, string | undefined>>;
}

export interface InProcessApp {
  /** The base URL the fetch function answers for (never opened). */
  url: string;
  fetch: FetchLike;
  close(): Promise<void>;
}

const LOCAL_URL = 'http://127.0.0.1';

export async function startInProcess(options: InProcessOptions): Promise<InProcessApp> {
  // The YAML parser is loaded only for a configuration file.
  const config =
    options.config === undefined ? undefined : await (await import('./config-file.js')).loadConfigFile(options.config);
  const base = config?.settings ?? defaultSettings();
  const settings = options.profile === undefined ? base : { ...base, profile: options.profile };
  const registry = new WorkspaceRegistry({
    home: homedir(),
    env: discoveryEnv(options.env),
    defaultCwd: options.cwd,
    settings,
    watch: false,
    // Nothing else runs in this process until the index is built: its reads may block (docs/performance.md).
    blockingFirstIndex: true,
  });
  // Built before the first request so that no answer is a 503 NotReady.
  await (await registry.get()).ready;
  const answers = new InProcessAnswers(registry, settings);
  return {
    url: LOCAL_URL,
    fetch: (url, init) => answers.fetch(url, init),
    close: () => registry.close(),
  };
}
