// `skillsd serve`: composes the logger, settings, token, workspace registry and HTTP app, then listens
// (docs/api.md §Starting it, §Security defaults). This is the one place that reads the process environment and HOME;
// everything below receives them as arguments.

import { lstat, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { RuntimeDirectoryError, removeRuntimeFile, writeRuntimeFile } from '../client/runtime-file.js';
import { defaultSettings } from '../discovery/settings.js';
import type { Settings } from '../discovery/types.js';
import { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { isLoopbackBind } from '../server/host-allow-list.js';
import { buildApp } from '../server/listen.js';
import { localPeerTables } from '../server/security-checks.js';
import { CliError } from './cli-error.js';
import type { ConfigWatcher } from './config-file.js';
import { discoveryEnv, workspaceDirectory } from './discovery-inputs.js';
import { listenAddress, withCliOverrides } from './effective-settings.js';
import { logFirstIndexSummary, reportScanProgress } from './first-index-report.js';
import { giveBackMemory } from './give-back-memory.js';
import { listenDaemon } from './listen-daemon.js';
import { createLogger, drainLogs } from './logger.js';
import { readVersion, type ServeOptions } from './parse-args.js';
import { assertPrivateConfigFile, assertTokenLength, loadTokenFile } from './token-file.js';

/** Open connections get this long to finish on shutdown before they are cut, well inside docs/api.md's 5 s. */
const CLOSE_GRACE_MS = 2500;
/** How long the close waits for the log lines to be written (within close-with-grace's 5 s). */
const LOG_DRAIN_MS = 1000;
/**
 * The watcher is armed once the first answer is out, or this long after listening when nobody asks: arming over a
 * large tree (a watch and a fingerprint per entry) takes the event loop, and a first `GET /skills` answered meanwhile
 * waits for it (docs/performance.md).
 */
const ARM_AFTER_LISTEN_MS = 500;
/** `--watch-mode poll`: a stat of every watched path each second is cheap next to a skill tree's size. */
const DEFAULT_POLL_INTERVAL_MS = 1000;

export interface RunningDaemon {
  url: string;
  logger: Logger;
  /** The runtime file written for clients (undefined when it could not be written). */
  runtimeFile: string | undefined;
  /** Stops accepting, ends SSE streams and open connections, closes watchers. */
  close(): Promise<void>;
}

/** Starts the daemon. Throws `CliError`: exit 2 for bad input, 1 for a port in use or another listen failure. */
export async function startDaemon(options: ServeOptions, env: Readonly<Record<string, string | undefined>>) {
  const logger = createLogger(options.logLevel ?? 'info', undefined, options.logFormat);
  const cwd = await workspaceDirectory(options.cwd ?? process.cwd());

  // The config file's reader (and `yaml` with it) is loaded only when there is a config file.
  const configFile = options.config === undefined ? undefined : await import('./config-file.js');
  const config = options.config === undefined ? undefined : await configFile?.loadConfigFile(options.config);
  let settings = withCliOverrides(config?.settings ?? defaultSettings(), options);
  const { host, port } = listenAddress(settings);

  const tokenFile = settings.server.tokenFile;
  // A token file this start generates is removed again if the start fails: a failed start leaves nothing behind.
  const generatedTokenFile = tokenFile !== undefined && !(await pathExists(tokenFile)) ? resolve(tokenFile) : undefined;
  const token = tokenFile !== undefined ? await loadTokenFile(tokenFile, logger) : settings.server.token;
  if (tokenFile === undefined && token !== undefined && config !== undefined) {
    await assertPrivateConfigFile(config.file);
    assertTokenLength(token, `config file ${config.file}: server.token`);
  }
  if (token === undefined && !isLoopbackBind(host)) {
    // Anyone who can reach a non-loopback address could read every skill and file under the skill directories.
    throw new CliError(
      `refusing to listen on ${host} without a token: pass --token-file FILE (or set server.tokenFile in the config)`,
    );
  }

  if (token === undefined && settings.server.localPeers === 'same-user' && localPeerTables() === null) {
    // SECURITY.md: where the kernel's socket tables cannot be read, every local user can reach the daemon.
    logger.warn(
      'this platform cannot tell which local user a connection comes from: other users of this machine can reach the daemon; use a token (--token-file)',
    );
  }

  const indexStarted = performance.now();
  let startArming = (): void => {};
  const armAfter = new Promise<void>((resolve) => {
    startArming = resolve;
  });
  const registry = new WorkspaceRegistry({
    home: homedir(),
    env: discoveryEnv(env),
    defaultCwd: cwd,
    settings,
    logger,
    // Nothing listens before the first index is built: its reads may block (docs/performance.md).
    blockingFirstIndex: true,
    // What is written meanwhile is not lost: the listings are watched already, the re-check after arming looks again.
    armAfter,
    // Polling is for file systems whose events do not reach this process (Docker Desktop and WSL bind mounts, NFS,
    // SMB): `--watch-mode poll` (docs/deploy.md §Watching).
    watcher: {
      usePolling: settings.server.watchMode === 'poll',
      pollIntervalMs: settings.server.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    },
  });
  const stopProgress = reportScanProgress({ logger, cwd, filesRead: () => registry.skillFilesRead });
  let watcher: ConfigWatcher | undefined;
  // Watching starts before the first index, so an edit made while the daemon starts is not lost.
  if (config !== undefined) {
    const { followConfigFile } = await import('./follow-config-file.js');
    watcher = followConfigFile(config, {
      cliOptions: options,
      startSettings: settings,
      registry,
      logger,
      onSettings(next) {
        warnAboutRestartOnlyChanges(logger, config.file, settings, next);
        settings = next;
      },
    });
  }

  let app: FastifyInstance | undefined;
  let url: string;
  let stopGivingBack: (() => void) | undefined;
  let runtimeFile: string | undefined;
  try {
    // The default workspace's first index is built before the port opens, so the first answer is complete.
    // A failed first build is not fatal: the workspace retries it and requests answer 503 NotReady meanwhile.
    // Built before the app, whose load sampling starts with it: the build blocks the event loop (seconds for a large
    // tree on a loaded machine), and counted as lag it had the first requests after the listening line refused 503.
    // The watcher arms after that, while the port is open (WorkspaceIndex.firstIndex).
    const workspace = await registry.get();
    await workspace.firstIndex.catch(() => undefined);
    stopProgress();
    const health = registry.health(workspace);
    if (workspace.snapshot !== undefined) {
      logFirstIndexSummary(logger, {
        cwd,
        skills: health.skills,
        warnings: workspace.snapshot.warnings.length,
        diagnostics: health.diagnostics,
        indexMs: Math.round(performance.now() - indexStarted),
        watchMode: health.watchMode,
      });
    }
    app = await buildApp({
      registry,
      getSettings: () => settings,
      security: { token, bindHost: host, getServerSettings: () => settings.server },
      logger,
    });
    logger.info({ cwd, profile: settings.profile, config: config?.file }, `serving the workspace ${cwd}`);
    // Clients on this machine find the daemon (and its token file) through the runtime file, written as the socket
    // starts listening and before the listening line is logged (this listener runs before Fastify's).
    const built = app;
    built.server.once('listening', () => {
      runtimeFile = writeDaemonRuntimeFile(built, { env, host, cwd, tokenFile, logger });
      setTimeout(startArming, ARM_AFTER_LISTEN_MS).unref();
    });
    built.server.once('request', (_request, response) => response.once('close', startArming));
    url = await listenDaemon(app, host, port);
    // Once the first answer is out and the watcher armed, the start's burst of memory is given back at once, and
    // each later burst's once the daemon is quiet again.
    void workspace.ready.then(
      () => {
        stopGivingBack = giveBackMemory(logger);
      },
      () => undefined,
    );
    // Log lines are batched (log-destination.ts); the listening line is the one scripts wait for: out at once.
    logger.flush();
  } catch (error) {
    startArming();
    stopProgress();
    if (runtimeFile !== undefined) removeRuntimeFile(runtimeFile);
    watcher?.close();
    await app?.close().catch(() => undefined);
    await registry.close().catch(() => undefined);
    if (generatedTokenFile !== undefined) await rm(generatedTokenFile, { force: true });
    // The log lines of the start come out before the one-line error on stderr, in the order they happened.
    await drainLogs(logger, LOG_DRAIN_MS);
    throw error;
  }

  const server = app;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopGivingBack?.();
      if (runtimeFile !== undefined) removeRuntimeFile(runtimeFile);
      watcher?.close();
      // Idle keep-alive sockets are closed at once; a request in flight (or an SSE stream the app does not end
      // itself) gets CLOSE_GRACE_MS before its socket is cut.
      server.server.closeIdleConnections();
      const cut = setTimeout(() => server.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await server.close();
      } finally {
        clearTimeout(cut);
        await registry.close();
      }
      logger.info('skillsd stopped');
      await drainLogs(logger, LOG_DRAIN_MS);
    })();
    return closing;
  };
  return { url, logger, close, runtimeFile } satisfies RunningDaemon;
}

interface RuntimeFileInput {
  env: Readonly<Record<string, string | undefined>>;
  host: string;
  cwd: string;
  tokenFile: string | undefined;
  logger: Logger;
}

/** The runtime file of this daemon; a failure only means clients must be told the URL (logged, not fatal). */
function writeDaemonRuntimeFile(app: FastifyInstance, input: RuntimeFileInput): string | undefined {
  const address = app.server.address();
  if (address === null || typeof address !== 'object') return undefined;
  // A daemon bound to every interface is reached locally through loopback.
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  try {
    const file = writeRuntimeFile(
      { env: input.env, home: homedir() },
      {
        pid: process.pid,
        url,
        port: address.port,
        host: input.host,
        cwd: input.cwd,
        startedAt: new Date().toISOString(),
        ...(input.tokenFile === undefined ? {} : { tokenFile: resolve(input.tokenFile) }),
        version: readVersion(),
      },
    );
    // A daemon that dies without closing (an uncaught error) still takes its file with it.
    process.once('exit', () => removeRuntimeFile(file));
    input.logger.debug({ runtimeFile: file }, `runtime file ${file} written`);
    return file;
  } catch (error) {
    // A runtime directory that is a link or another user's is refused, never written through (docs/cli.md
    // "Trusting only your own daemon"): the daemon serves all the same, and says why no client will find it.
    if (error instanceof RuntimeDirectoryError) {
      input.logger.warn(`${error.message}: no runtime file written; clients will not find this daemon by themselves`);
    } else {
      input.logger.warn(
        { err: error },
        'cannot write the runtime file: clients will not find this daemon by themselves',
      );
    }
    return undefined;
  }
}

async function pathExists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

/** The socket and the token are fixed at start; the rest of `server.*` (allow-lists) applies live. */
function warnAboutRestartOnlyChanges(logger: Logger, file: string, before: Settings, after: Settings): void {
  const changed = (['host', 'port', 'token', 'tokenFile', 'watchMode', 'pollIntervalMs'] as const).filter(
    (key) => before.server[key] !== after.server[key],
  );
  if (changed.length > 0) {
    logger.warn(
      { file, keys: changed.map((key) => `server.${key}`) },
      `config file ${file}: ${changed.map((key) => `server.${key}`).join(', ')} take effect after a restart`,
    );
  }
}
