// A second listening socket for the same app, for a host name that resolves to several addresses (`localhost` is
// 127.0.0.1 and ::1 on a dual-stack machine). Fastify binds the other addresses itself with a bare `http.Server`
// that has none of the defences of the first one: no `clientError` answer in the shape of docs/api.md, no connection cap,
// no handler for a failed accept (an `error` event without a listener ends the process: a local peer flooding
// `[::1]` stopped the daemon) and no poll fast path; and any `error` of the first server closes it. So the daemon
// binds one address through Fastify and mirrors the server here for each other one, with the same request handling,
// timeouts and guards (SECURITY.md §4, exhaustion).

import type { Server } from 'node:http';
import type { ConnectionLimits } from './connection-limits.js';
import { guardServer, type ServerGuardOptions } from './guard-server.js';

// From the runtime, not an ES module import, which would load undici on Node 22 and later (src/client/http-fetch.ts).
const { createServer } = process.getBuiltinModule('node:http');

/** What the first server answers with: every listener of these events is shared by the mirror. */
const SHARED_EVENTS = ['request', 'clientError', 'checkContinue', 'checkExpectation', 'upgrade'] as const;

export interface MirrorOptions extends Omit<ServerGuardOptions, 'maxConnections'> {
  limits: ConnectionLimits;
  /** This server's share of the daemon's connection cap. */
  maxConnections: number;
}

/** A server answering exactly as `main` does (its listeners as installed now), guarded; not yet listening. */
export function createMirrorServer(main: Server, options: MirrorOptions): Server {
  const { limits } = options;
  // The options Fastify gives its own server (app.ts), from the same limits.
  const mirror = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  });
  mirror.keepAliveTimeout = limits.keepAliveTimeoutMs;
  mirror.setTimeout(limits.idleTimeoutMs);
  for (const event of SHARED_EVENTS) {
    for (const listener of main.listeners(event)) mirror.on(event, listener as (...args: unknown[]) => void);
  }
  guardServer(mirror, { ...options, maxConnections: options.maxConnections });
  return mirror;
}

/**
 * Splits the connection cap between `servers` listening sockets, so that all of them together hold no more
 * descriptors than one would (connection-limits.ts); each keeps at least one.
 */
export function connectionShare(cap: number, servers: number): number {
  return Math.max(1, Math.floor(cap / servers));
}
