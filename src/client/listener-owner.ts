// Who listens where the client is about to send its requests (and its token), checked before every request
// (docs/cli.md "Trusting only your own daemon", SECURITY.md §2).
//
// Any local user may listen on a free loopback port: on the port a crashed daemon left behind (its runtime file still
// naming it), or on the default port when no daemon runs. Whatever listens there would receive the bearer token and
// choose what the client prints. The kernel's socket tables name the uid of every listening socket; a loopback target
// is used only when every socket that could take the connection belongs to this process's own user.

import { isIP } from 'node:net';
import { closeTables, listenerAddresses, listeningSockets, openTables, socketsInUse, uidOf } from './socket-tables.js';

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

/** Checks the listener of `url` (an http or https URL). */
export async function checkListener(url: string): Promise<ListenerCheck> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const addresses = await loopbackAddresses(host);
  if (addresses.length === 0) return { verdict: 'unchecked' };
  const tables = openTables();
  if (tables === undefined) return { verdict: 'unchecked' };
  const own = typeof process.geteuid === 'function' ? process.geteuid() : undefined;
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  let found = false;
  try {
    const inUse = socketsInUse();
    const listening = {
      4: tables.tcp === undefined ? [] : listeningSockets(tables.tcp, buffer, inUse[4]),
      6: tables.tcp6 === undefined ? [] : listeningSockets(tables.tcp6, buffer, inUse[6]),
    };
    for (const address of addresses) {
      for (const [family, local] of listenerAddresses(address, port)) {
        for (const columns of listening[family]) {
          if (columns[1] !== local) continue;
          const uid = uidOf(columns);
          if (uid === undefined) continue;
          found = true;
          if (uid !== own) return { verdict: 'foreign', uid, where: target.host };
        }
      }
    }
  } finally {
    closeTables(tables);
  }
  return found ? { verdict: 'own' } : { verdict: 'none' };
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
