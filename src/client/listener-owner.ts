// Who listens where the client is about to send its requests (and its token), checked before every request
// (docs/cli.md "Trusting only your own daemon", SECURITY.md §2).
//
// Any local user may listen on a free loopback port: on the port a crashed daemon left behind (its runtime file still
// naming it), or on the default port when no daemon runs. Whatever listens there would receive the bearer token and
// choose what the client prints. The kernel's socket tables name the uid of every listening socket; a loopback target
// is used only when every socket that could take the connection belongs to this process's own user.

import { connect, isIP } from 'node:net';
import {
  closeTables,
  type Family,
  type ListeningSockets,
  listenerAddresses,
  listeningSockets,
  openTables,
  SOCKET_TABLES,
  SOCKSTAT,
  socketsInUse,
  uidOf,
} from './socket-tables.js';

export type ListenerCheck =
  /** Only this user listens there. */
  | { verdict: 'own' }
  /** Not a loopback address, or a platform without socket tables: nothing to check (the token decides). */
  | { verdict: 'unchecked' }
  /** Nothing listens on that address and port. */
  | { verdict: 'none' }
  /** Another user's socket listens there. */
  | { verdict: 'foreign'; uid: number; where: string };

/** A few lines per read (a line is 150 bytes in tcp, 178 in tcp6): see `listeningSockets`. */
const READ_CHUNK = 512;

/** Where the kernel's tables and counts are read (files in the same formats in tests). */
export interface SocketSources {
  tables: readonly [tcp: string, tcp6: string];
  sockstat: readonly [v4: string, v6: string];
}

const SYSTEM: SocketSources = { tables: SOCKET_TABLES, sockstat: SOCKSTAT };

/** Checks the listener of `url` (an http or https URL). */
export async function checkListener(url: string, sources: SocketSources = SYSTEM): Promise<ListenerCheck> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const addresses = await loopbackAddresses(host);
  if (addresses.length === 0) return { verdict: 'unchecked' };
  const tables = openTables(sources.tables);
  if (tables === undefined) return { verdict: 'unchecked' };
  const own = typeof process.geteuid === 'function' ? process.geteuid() : undefined;
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  try {
    const inUse = socketsInUse(sources.sockstat);
    const read = (fd: number | undefined, count: number) =>
      fd === undefined ? { sockets: [], partial: false } : listeningSockets(fd, buffer, count);
    const listening = { 4: read(tables.tcp, inUse[4]), 6: read(tables.tcp6, inUse[6]) };
    let judged = judge(addresses, port, listening, own);
    // An address with no listener found, in a table read only up to the count: its listener may lie past it (see
    // `ListeningSockets.partial`). A connection refused there settles it (nothing listens, and reading on would walk
    // the kernel's whole connection hash); one accepted (no byte is sent on it) has the table read to the end of its
    // listening head. An address where a listener was found needs neither: the kernel refuses another user a second
    // listener on that address or on a wildcard covering it, so the one found is the only one.
    const reread = new Set<Family>();
    for (const address of judged.unsettled) {
      const partial = listenerFamilies(address).filter((family) => listening[family].partial);
      if (partial.length > 0 && (await acceptsConnections(address, port)))
        for (const family of partial) reread.add(family);
    }
    if (reread.size > 0) {
      for (const family of reread) listening[family] = read(family === 4 ? tables.tcp : tables.tcp6, Infinity);
      judged = judge(addresses, port, listening, own);
    }
    const { foreign, found } = judged;
    if (foreign !== undefined) return { verdict: 'foreign', uid: foreign, where: target.host };
    return found ? { verdict: 'own' } : { verdict: 'none' };
  } finally {
    closeTables(tables);
  }
}

/**
 * The first listener of another user on any of `addresses` at `port`, whether any listener was found, and the
 * addresses where none was.
 */
function judge(
  addresses: readonly string[],
  port: number,
  listening: Record<Family, ListeningSockets>,
  own: number | undefined,
): { foreign?: number; found: boolean; unsettled: string[] } {
  let found = false;
  const unsettled: string[] = [];
  for (const address of addresses) {
    let here = false;
    for (const [family, local] of listenerAddresses(address, port)) {
      for (const columns of listening[family].sockets) {
        if (columns[1] !== local) continue;
        const uid = uidOf(columns);
        if (uid === undefined) continue;
        if (uid !== own) return { foreign: uid, found: true, unsettled: [] };
        here = true;
      }
    }
    found ||= here;
    if (!here) unsettled.push(address);
  }
  return { found, unsettled };
}

/** The tables a listener taking connections to `address` may be in. */
function listenerFamilies(address: string): Family[] {
  return [...new Set(listenerAddresses(address, 0).map(([family]) => family))];
}

/** How long a connection to a loopback port may take before it counts as accepted (a listener with a full queue). */
const PROBE_TIMEOUT_MS = 1000;

/** False when a connection to `address:port` is refused: nothing listens there. Nothing is sent on it. */
function acceptsConnections(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const done = (accepted: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(accepted);
    };
    const timer = setTimeout(() => done(true), PROBE_TIMEOUT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code !== 'ECONNREFUSED'));
  });
}

/**
 * The loopback addresses a connection to `host` may reach: the address itself when it is a loopback literal, every
 * loopback address a name resolves to (`localhost`: 127.0.0.1 and ::1); none for any other host.
 */
async function loopbackAddresses(host: string): Promise<string[]> {
  if (isIP(host) !== 0) return isLoopback(host) ? [host] : [];
  if (host === 'localhost') return ['127.0.0.1', '::1'];
  // The resolver is loaded only for a host name: the usual loopback literal never needs it.
  const { lookup } = await import('node:dns/promises');
  const resolved = await lookup(host, { all: true }).catch(() => []);
  return [...new Set(resolved.map((entry) => entry.address).filter(isLoopback))];
}

function isLoopback(address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.\d+\.\d+\.\d+$/i.exec(address);
  if (v4 !== null) return v4[1] === '127';
  return address === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(address);
}
