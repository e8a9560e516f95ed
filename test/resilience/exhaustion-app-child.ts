// The daemon's app with its connection cap out of the way, for the test of what happens when descriptors really run
// out (run under `prlimit --nofile=N:N`). Argument: JSON `{ home, cwd }`. Logs pino JSON to stdout, with the usual
// `skillsd listening on <url>` line.

import pino from 'pino';
import { defaultSettings } from '../../src/discovery/settings.js';
import { WorkspaceRegistry } from '../../src/live-index/workspace-registry.js';
import { buildApp } from '../../src/server/listen.js';

const { home, cwd } = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const logger = pino({ level: 'info' });
const settings = defaultSettings();
const registry = new WorkspaceRegistry({ home: home!, env: {}, defaultCwd: cwd!, settings, logger, watch: false });
const app = await buildApp({
  registry,
  getSettings: () => settings,
  security: { bindHost: '127.0.0.1', getServerSettings: () => settings.server },
  logger,
  // A loaded test machine may lag the loop: only descriptors are under test here.
  pressure: { sampleIntervalMs: 100, maxEventLoopDelayMs: 60_000 },
  // No cap, and no deadline that would close the flood's silent connections (or the test's kept one) while a loaded
  // machine runs the test slowly: descriptors stay used until the test lets them go.
  connections: {
    maxConnections: 1_000_000,
    headersTimeoutMs: 290_000,
    requestTimeoutMs: 300_000,
    idleTimeoutMs: 600_000,
    keepAliveTimeoutMs: 600_000,
  },
});
await (await registry.get()).ready;
const url = await app.listen({ host: '127.0.0.1', port: 0 });
logger.info(`skillsd listening on ${url}`);
