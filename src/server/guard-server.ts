// The HTTP server's own defences against running out of descriptors (SECURITY.md §4, exhaustion):
// a cap on open connections, a logged refusal when it is reached, and accept errors (EMFILE/ENFILE) handled as
// overload. Node emits a failed accept as the server's `error` event, which without a listener ends the process:
// any local peer (or, on a `--host 0.0.0.0` bind, any remote one, token or not) could stop the daemon by opening
// connections.

import type { Server } from 'node:http';
import { descriptorDrain } from './descriptor-drain.js';

export interface ServerGuardOptions {
  maxConnections: number;
  log: {
    warn(fields: Record<string, unknown>, message: string): void;
    info(fields: Record<string, unknown>, message: string): void;
  };
  /** Called when accepting failed for want of a descriptor. */
  onShortage: () => void;
}

export function guardServer(server: Server, options: ServerGuardOptions): void {
  server.maxConnections = options.maxConnections;
  const drain = descriptorDrain(server);
  // One line when refusing starts and one when it stops, with the count: a flood must not become a flood of logs.
  let dropped = 0;
  server.on('drop', () => {
    // Connections closed while the drain empties the queue are not the cap's refusals.
    if (drain.draining) return;
    dropped++;
    if (dropped === 1) {
      // Read from the server: its share shrinks when the daemon listens on more addresses (mirror-server.ts).
      const cap = server.maxConnections;
      options.log.warn({ maxConnections: cap }, `refusing connections: ${cap} are open, the most this daemon accepts`);
    }
  });
  server.on('connection', () => {
    if (dropped === 0) return;
    options.log.info({ dropped }, `accepting connections again after refusing ${dropped}`);
    dropped = 0;
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    // Before listening, errors (EADDRINUSE…) are the caller's: `listen` reports them.
    if (!server.listening) return;
    if (error.code === 'EMFILE' || error.code === 'ENFILE') {
      options.onShortage();
      // This runs inside libuv's accept loop, which calls again at once until an accept succeeds: one line per
      // drain, and the drain makes the next accept succeed (descriptor-drain.ts).
      if (!drain.draining) {
        options.log.warn({ code: error.code }, 'out of file descriptors: a connection could not be accepted');
      }
      drain.release();
      return;
    }
    // Other errors after listening (none are known to happen) are logged, not fatal.
    options.log.warn({ err: error }, 'server error');
  });
}
