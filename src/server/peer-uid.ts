// Which local user owns the client end of a TCP connection, read from the kernel's socket tables (Linux).
//
// Loopback is reachable by every account on the machine: without this, any other local user could read the
// daemon's user's skills (SECURITY.md §2, other local users). `/proc/net/tcp` and `/proc/net/tcp6` list every socket of
// the network namespace with the uid that created it; the client's socket is the line whose local address is the
// connection's remote address and port, and whose remote address is the daemon's end of it. The table reading is
// shared with the client's own check of who listens (src/client/socket-tables.ts).
//
// Both tables are opened once and re-read from offset 0 (pread) on each lookup: a lookup needs no new descriptor, so
// it still works when a flood of connections has used every descriptor up (SECURITY.md §4, exhaustion).

import {
  closeTables,
  connectionNeedles,
  openTables,
  SOCKET_TABLES,
  STATE_COLUMN,
  scanTable,
  uidOf,
} from '../client/socket-tables.js';

/** A connection's two ends, as `net.Socket` reports them. */
export interface ConnectionEnds {
  remoteAddress: string;
  remotePort: number;
  localAddress: string;
  localPort: number;
}

export interface PeerTables {
  /** The uid owning the client's socket, or undefined when no table lists it. */
  ownerOf(ends: ConnectionEnds): number | undefined;
  close(): void;
}

const READ_CHUNK = 256 * 1024;
/** TCP_TIME_WAIT: a closed connection's remnant, listed with uid 0; a live socket with the same ends wins. */
const TIME_WAIT = '06';

/** Opens the tables, or returns undefined where this platform has none (then no peer can be told apart). */
export function openPeerTables(paths: readonly [tcp: string, tcp6: string] = SOCKET_TABLES): PeerTables | undefined {
  const tables = openTables(paths);
  if (tables === undefined) return undefined;
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  let closed = false;
  return {
    ownerOf(ends) {
      // Each read makes the kernel walk its socket hash tables (about 1.5 ms per read here, one read per 4 KiB of
      // table): only the table the client can be in is read, and only until its line has been seen.
      const needles = connectionNeedles(
        { address: ends.remoteAddress, port: ends.remotePort },
        { address: ends.localAddress, port: ends.localPort },
      );
      for (const [family, needle] of needles) {
        const fd = family === 4 ? tables.tcp : tables.tcp6;
        if (fd === undefined) continue;
        let uid: number | undefined;
        scanTable(fd, buffer, needle, (columns) => {
          if (columns[STATE_COLUMN] === TIME_WAIT) return false;
          uid = uidOf(columns);
          return uid !== undefined;
        });
        if (uid !== undefined) return uid;
      }
      return undefined;
    },
    close() {
      if (closed) return;
      closed = true;
      closeTables(tables);
    },
  };
}
