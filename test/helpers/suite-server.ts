// One real app server shared by every test of a suite (started in `before`, closed in `after`), for test files that
// send many requests at one fixed tree: starting a server per test would dominate their run time.

import type { TestContext } from 'node:test';
import { startServer, type TestServer, type TestServerOptions } from './app-server.js';

export interface SuiteServer {
  server: TestServer;
  /** Closes the app and the registry and removes the temp tree. */
  close: () => Promise<void>;
}

export async function startSuiteServer(options: TestServerOptions = {}): Promise<SuiteServer> {
  const steps: Array<() => Promise<unknown>> = [];
  // startServer registers its undo steps through `t.after`, in order; they run here in that order.
  const context = { after: (step: () => Promise<unknown>) => steps.push(step) } as unknown as TestContext;
  try {
    const server = await startServer(context, options);
    return { server, close: () => runAll(steps) };
  } catch (error) {
    await runAll(steps);
    throw error;
  }
}

async function runAll(steps: Array<() => Promise<unknown>>): Promise<void> {
  for (const step of steps.splice(0)) await step();
}
