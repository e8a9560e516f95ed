// The answer without a daemon (docs/cli.md): the same app the daemon serves, built in this process for one
// workspace without watchers, and asked through `inject`. The command therefore prints exactly what a daemon started
// in that directory would answer; nothing is computed a second way.

import { homedir } from 'node:os';
import type { FetchLike } from '../client/skillsd-client.js';
import { defaultSettings } from '../discovery/settings.js';
import type { Profile } from '../discovery/types.js';
import { WorkspaceRegistry } from '../index/workspace-registry.js';
import { buildApp } from '../server/listen.js';
import { loadConfigFile } from './config-file.js';
import { discoveryEnv } from './discovery-inputs.js';

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
  const config = options.config === undefined ? undefined : await loadConfigFile(options.config);
  const base = config?.settings ?? defaultSettings();
  const settings = options.profile === undefined ? base : { ...base, profile: options.profile };
  const registry = new WorkspaceRegistry({
    home: homedir(),
    env: discoveryEnv(options.env),
    defaultCwd: options.cwd,
    settings,
    watch: false,
  });
  const app = await buildApp({
    registry,
    getSettings: () => settings,
    docs: false,
    pollFastPath: false,
    // One client, in this process: shedding load would only refuse the one answer it came for.
    pressure: { maxEventLoopDelayMs: 0, maxHeapUsedBytes: 0, maxRssBytes: 0 },
  });
  // Built before the first request so that no answer is a 503 NotReady.
  await (await registry.get()).ready;
  const fetchLike: FetchLike = async (url, init) => {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const reply = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${target.pathname}${target.search}`,
      headers,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(one));
    }
    const empty = reply.statusCode === 204 || reply.statusCode === 304 || init.method === 'HEAD';
    return new Response(empty ? null : reply.rawPayload, { status: reply.statusCode, headers: responseHeaders });
  };
  return {
    url: LOCAL_URL,
    fetch: fetchLike,
    close: async () => {
      await app.close();
      await registry.close();
    },
  };
}
