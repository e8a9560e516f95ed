// Starts the real app on a real port for route tests: a fresh HOME and workspace per test, a registry with short
// watcher delays, and everything closed in `t.after`.

import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { discoverSkillChange } from '../../src/discovery/pipeline/discover-skills.js';
import { defaultSettings, parseSettings } from '../../src/discovery/settings.js';
import type { Settings } from '../../src/discovery/types.js';
import { WorkspaceRegistry, type WorkspaceRegistryOptions } from '../../src/live-index/workspace-registry.js';
import type { AppOptions } from '../../src/server/app.js';
import type { SchemaCompilers } from '../../src/server/lazy-schema-compilers.js';
import { buildApp } from '../../src/server/listen.js';
import { makeTempDir, type TreeEntry, writeTree } from './temp-tree.js';

export interface TestServer {
  app: FastifyInstance;
  registry: WorkspaceRegistry;
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** The temp root holding `home/` and `work/`. */
  root: string;
  home: string;
  /** The default workspace (a repository: `work/.git` exists). */
  cwd: string;
  /** The settings the registry started with. */
  settings: Settings;
}

export interface TestServerOptions {
  /** Files under the temp root, e.g. `work/.musepi/skills/pdf/SKILL.md`. */
  tree?: Record<string, TreeEntry>;
  settings?: unknown;
  watch?: boolean;
  registry?: Partial<WorkspaceRegistryOptions>;
  app?: Partial<AppOptions>;
  /**
   * Wait for the default workspace's first index before returning (default true), so that a test's first change to
   * the files is never raced by that first discovery. False for the tests of the not-yet-ready state.
   */
  ready?: boolean;
  /** The address to bind (default 127.0.0.1); `base` still names 127.0.0.1. */
  listenHost?: string;
  /** Serve the root of another test server (a second replica over the same files) instead of a new one. */
  sharedRoot?: string;
  /** How route schemas are compiled (buildApp's second argument): on first use unless a test says otherwise. */
  schemaCompilers?: SchemaCompilers | null;
  /**
   * The agent views are not computed before this resolves (their discoveries of the other profiles wait for it): with
   * a short `app.readyWaitMs`, their routes answer 503 `NotReady` until the test lets them through.
   */
  holdViews?: Promise<unknown>;
}

export async function startServer(t: TestContext, options: TestServerOptions = {}): Promise<TestServer> {
  const shared = options.sharedRoot;
  const { dir: root, cleanup } =
    shared === undefined ? await makeTempDir() : { dir: shared, cleanup: async () => undefined };
  // Undone in reverse: the app (ending event streams), the registry (its watchers), then the files.
  const undo: Array<() => Promise<unknown>> = [cleanup];
  t.after(async () => {
    for (const step of undo.reverse()) await step();
  });
  const home = `${root}/home`;
  const cwd = `${root}/work`;
  if (shared === undefined) {
    await writeTree(root, { 'home/.keep': '', 'work/.git/HEAD': 'ref: refs/heads/main\n', ...options.tree });
  } else if (options.tree !== undefined) {
    await writeTree(root, options.tree);
  }
  const settings = options.settings === undefined ? defaultSettings() : parseSettings(options.settings);
  const registry = new WorkspaceRegistry({
    home,
    env: {},
    defaultCwd: cwd,
    settings,
    watch: options.watch ?? false,
    watcher: { coalesceMs: 10, rereadDelayMs: 40, reconcileIntervalMs: 60_000 },
    ...(options.holdViews === undefined ? {} : { discover: heldForViews(options.holdViews, settings) }),
    ...options.registry,
  });
  undo.push(() => registry.close());
  // The settings in force are the registry's: a test re-applies settings as a config reload would.
  // Shedding on event-loop lag is off unless a test asks for it: on a loaded machine the test process itself lags
  // past any bound, and a 503 then would measure the machine, not the code under test.
  const app = await buildApp(
    {
      registry,
      getSettings: () => registry.settings,
      ...options.app,
      pressure: { maxEventLoopDelayMs: 0, ...options.app?.pressure },
    },
    options.schemaCompilers,
  );
  undo.push(() => app.close());
  await app.listen({ port: 0, host: options.listenHost ?? '127.0.0.1' });
  if (options.ready !== false) await registry.defaultWorkspace.ready;
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { app, registry, base: `http://127.0.0.1:${port}`, port, root, home, cwd, settings };
}

/** Discovery as usual, except that of a profile other than the daemon's (the agent views' only) waits for `hold`. */
function heldForViews(hold: Promise<unknown>, settings: Settings): WorkspaceRegistryOptions['discover'] {
  return async (ctx, options) => {
    if (ctx.settings.profile !== settings.profile) await hold;
    return discoverSkillChange(ctx, options);
  };
}

/** A parsed answer: arbitrary JSON that tests compare field by field with deepEqual. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type JsonBody = any;

/** GET as JSON, asserting nothing: returns status, headers and parsed body. */
export async function getJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: JsonBody }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}
