// What the server gives up when accepting a connection fails for want of a descriptor.
//
// libuv keeps one spare descriptor for this case: it closes the spare, accepts and closes the waiting connections,
// and opens the spare again. If another thread (libuv's file-system pool serving a skill file, say) takes the freed
// number first, the spare is gone for good, and from then on every failed accept calls back with EMFILE from a loop
// that only ends when an accept succeeds: the process spins and answers nothing while any connection waits
// (reported as joyent/libuv#1189). Node surfaces each of those callbacks as the server's `error` event, so the drain
// runs inside that loop and ends it: it frees one descriptor and, for the rest of this turn of the event loop, has
// every accepted connection closed at once, so the waiting connections are taken off the queue one after another
// through that single free number. The descriptor freed is a spare of its own when it holds one; otherwise the
// oldest connection that has not sent a byte, else the oldest connection (nginx likewise closes idle connections
// when it runs out of descriptors).

import { closeSync, openSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often a spare that could not be opened again is retried (ms). */
const SPARE_RETRY_MS = 100;

export interface DescriptorDrain {
  /** Frees one descriptor now and closes every connection accepted before the event loop's next turn. */
  release(): void;
  /** Whether accepted connections are being closed at once (their `drop` events are the drain's, not the cap's). */
  readonly draining: boolean;
  /** Whether the spare descriptor is held. */
  readonly holdsSpare: boolean;
  /** Connections closed to free a descriptor since the server started. */
  readonly connectionsClosed: number;
}

export function descriptorDrain(server: Server): DescriptorDrain {
  // Oldest first: a Set iterates in insertion order.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  let spare = openSpare();
  let retry: NodeJS.Timeout | undefined;
  let draining = false;
  let capBefore = server.maxConnections;
  let connectionsClosed = 0;

  const acquireSpare = () => {
    retry = undefined;
    spare ??= openSpare();
    if (spare === undefined && server.listening) {
      retry = setTimeout(acquireSpare, SPARE_RETRY_MS);
      retry.unref();
    }
  };
  const endDrain = () => {
    server.maxConnections = capBefore;
    draining = false;
    acquireSpare();
  };
  server.once('close', () => {
    if (retry !== undefined) clearTimeout(retry);
    if (spare !== undefined) closeSync(spare);
    spare = undefined;
  });

  return {
    release() {
      if (!draining) {
        draining = true;
        capBefore = server.maxConnections;
        // Node closes a connection accepted at or over the cap before handing it on; 1 is the lowest cap it honours
        // (0 means none), and the connection that made the shortage is already counted.
        server.maxConnections = 1;
        setImmediate(endDrain);
      }
      if (spare !== undefined) {
        closeSync(spare);
        spare = undefined;
        return;
      }
      const victim = oldestSilent(sockets) ?? sockets.values().next().value;
      if (victim !== undefined) {
        sockets.delete(victim);
        // destroy() closes the descriptor before it returns: the next accept can use it.
        victim.destroy();
        connectionsClosed++;
      }
    },
    get draining() {
      return draining;
    },
    get holdsSpare() {
      return spare !== undefined;
    },
    get connectionsClosed() {
      return connectionsClosed;
    },
  };
}

function openSpare(): number | undefined {
  try {
    return openSync('/dev/null', 'r');
  } catch {
    return undefined;
  }
}

function oldestSilent(sockets: Set<Socket>): Socket | undefined {
  for (const socket of sockets) if (socket.bytesRead === 0) return socket;
  return undefined;
}
