// The kernel's TCP socket tables (Linux `/proc/net/tcp` and `/proc/net/tcp6`): every socket of the network namespace,
// with the uid that created it. Two checks read them: the daemon, to learn which user is at the other end of a
// loopback connection (src/server/peer-uid.ts), and the client, to learn which user listens on the port it is about to
// send its token to (listener-owner.ts). Both are explained in SECURITY.md §2.
//
// Kept here, below both faces and free of any server import, so that the typed client (which an editor plugin uses
// on its own) can read them too.

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { endianness } from 'node:os';

export const SOCKET_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;
/** Column of `uid` in a table line (`sl local rem st tx:rx tr:when retrnsmt uid …`). */
export const UID_COLUMN = 7;
/** Column of the socket state (`0A`: listening, `06`: time-wait). */
export const STATE_COLUMN = 3;
export const LISTEN = '0A';
const SYN_RECV = '03';
const LITTLE_ENDIAN = endianness() === 'LE';
const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const ANY_V4 = '00000000';
const ANY_V6 = '0'.repeat(32);

/** The two tables' descriptors; either is undefined where it cannot be opened (tcp6 on a kernel without IPv6). */
export interface TableDescriptors {
  tcp: number | undefined;
  tcp6: number | undefined;
}

/** Opens both tables; undefined where this platform has neither (then sockets cannot be told apart by owner). */
export function openTables(paths: readonly [tcp: string, tcp6: string] = SOCKET_TABLES): TableDescriptors | undefined {
  const [tcp, tcp6] = paths.map((path) => {
    try {
      return openSync(path, 'r');
    } catch {
      return undefined;
    }
  });
  if (tcp === undefined && tcp6 === undefined) return undefined;
  return { tcp, tcp6 };
}

export function closeTables(tables: TableDescriptors): void {
  for (const fd of [tables.tcp, tables.tcp6]) if (fd !== undefined) closeSync(fd);
}

/**
 * Reads a table from its start (the kernel regenerates it on every read from offset 0) and calls `visit` with the
 * columns of every complete line holding `needle`, until `visit` returns true (found) or the table ends.
 *
 * The kernel hands out a socket table 4 KiB per read however large the buffer, so a table of thousands of lines
 * (every connection closed in the last minute waits in TIME_WAIT there) takes hundreds of reads. Each read's text is
 * searched on its own, with only the line it cut carried over: keeping the whole text and searching it again after
 * each read made a lookup quadratic in the table's length (a table of 5,100 lines: 310–365 ms against 16 ms of reads).
 */
export function scanTable(fd: number, buffer: Buffer, needle: string, visit: (columns: string[]) => boolean): void {
  let carried = '';
  let position = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    position += read;
    const text = carried + buffer.toString('latin1', 0, read);
    // Only complete lines are searched; the last one, cut by the read, waits for the rest (unless the table ended
    // without a final newline). A needle holds no newline, so a match before `complete` lies in a complete line.
    const complete = read === 0 ? text.length : text.lastIndexOf('\n') + 1;
    for (let from = 0; ; ) {
      const at = text.indexOf(needle, from);
      if (at < 0 || at >= complete) break;
      from = at + needle.length;
      const start = text.lastIndexOf('\n', at) + 1;
      const end = text.indexOf('\n', at);
      const columns = text
        .slice(start, end < 0 ? undefined : end)
        .trim()
        .split(/\s+/);
      if (visit(columns)) return;
    }
    if (read === 0) return;
    carried = text.slice(complete);
  }
}

export const SOCKSTAT = ['/proc/net/sockstat', '/proc/net/sockstat6'] as const;

/**
 * How many TCP sockets of each family are open (`/proc/net/sockstat` and `sockstat6`, `inuse`), where the platform
 * says; listening ones included.
 */
export function socketsInUse(paths: readonly [v4: string, v6: string] = SOCKSTAT): { 4: number; 6: number } {
  const count = (path: string, label: string) => {
    try {
      const match = new RegExp(`^${label}: inuse (\\d+)`, 'm').exec(readFileSync(path, 'latin1'));
      return match === null ? Number.POSITIVE_INFINITY : Number(match[1]);
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  };
  return { 4: count(paths[0], 'TCP'), 6: count(paths[1], 'TCP6') };
}

/** A line's uid, or undefined when the column does not hold one. */
export function uidOf(columns: readonly string[]): number | undefined {
  const uid = Number(columns[UID_COLUMN]);
  return Number.isInteger(uid) && uid >= 0 ? uid : undefined;
}

export type Family = 4 | 6;
export type Spelling = [family: Family, hex: string];

/**
 * `<client> <server> ` in each table the client's socket of a connection can be in: an IPv4 client in tcp, or,
 * reaching a dual-stack server through an IPv6 socket, in tcp6 as `::ffff:a.b.c.d`; an IPv6 client in tcp6.
 */
export function connectionNeedles(
  client: { address: string; port: number },
  server: { address: string; port: number },
): Array<[family: Family, needle: string]> {
  const servers = addressSpellings(server.address);
  const out: Array<[Family, string]> = [];
  for (const [family, hex] of addressSpellings(client.address)) {
    const serverHex = servers.find(([serverFamily]) => serverFamily === family)?.[1];
    if (serverHex !== undefined) {
      out.push([family, ` ${hex}:${hexPort(client.port)} ${serverHex}:${hexPort(server.port)} `]);
    }
  }
  return out;
}

/**
 * The local addresses (`hex:port`, as the tables print them) of every socket that could take a connection to
 * `address:port`: one listening on that address, on the wildcard address of its family, or (for an IPv4 address) an
 * IPv6 socket listening on the mapped address or on `::`.
 */
export function listenerAddresses(address: string, port: number): Array<[family: Family, local: string]> {
  const out: Array<[Family, string]> = [];
  for (const [family, hex] of addressSpellings(address)) {
    const any = family === 4 ? ANY_V4 : ANY_V6;
    for (const local of new Set([hex, any])) out.push([family, `${local}:${hexPort(port)}`]);
  }
  return out;
}

/** The listening sockets read from the head of a table. */
export interface ListeningSockets {
  /** The columns of each. */
  sockets: string[][];
  /**
   * Reading stopped at the count of sockets in use (`inUse`), before the first line of another state: more may
   * follow. The count is read before the table, and listeners opened in between (by any program) may come first, so
   * a listener that existed all along can lie past that many lines.
   */
  partial: boolean;
}

/**
 * The listening sockets of a table, read from its start. The kernel lists the listening sockets first (with, on older
 * kernels, the half-open connections of each, state `03`), then every other socket: reading stops at the first line
 * of another state, so a check costs a few reads however many connections are open. It also stops once `inUse`
 * listening sockets were read (every socket of the family then counted is listed, if none was opened since): past
 * the last listener, a table holding no other socket of its family makes the kernel walk every bucket of its
 * connection hash, about 9 ms on a machine with 262,144 of them.
 */
export function listeningSockets(fd: number, buffer: Buffer, inUse = Number.POSITIVE_INFINITY): ListeningSockets {
  const sockets: string[][] = [];
  // No socket of the family when counted: none that existed before the check can be listed.
  if (inUse <= 0) return { sockets, partial: false };
  let rest = '';
  let position = 0;
  let header = true;
  for (;;) {
    // The kernel makes only as many lines as a read asks for: small reads stop the walk of its socket tables soon
    // after the last listening socket, where one large read would walk every connection.
    const read = readSync(fd, buffer, 0, buffer.length, position);
    position += read;
    const lines = (rest + buffer.toString('latin1', 0, read)).split('\n');
    rest = read === 0 ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (header) {
        header = false;
        continue;
      }
      const columns = line.trim().split(/\s+/);
      if (columns.length <= UID_COLUMN) continue;
      if (columns[STATE_COLUMN] === LISTEN) {
        sockets.push(columns);
        if (sockets.length >= inUse) return { sockets, partial: true };
      } else if (columns[STATE_COLUMN] !== SYN_RECV) return { sockets, partial: false };
    }
    if (read === 0) return { sockets, partial: false };
  }
}

/** An address as the tables print it: each 32-bit word in host byte order, as 8 upper-case hex digits. */
export function addressSpellings(address: string): Spelling[] {
  const mapped = MAPPED_V4.exec(address)?.[1];
  const v4 = mapped ?? (isIPv4(address) ? address : undefined);
  if (v4 !== undefined) {
    const bytes = v4.split('.').map(Number);
    const mappedBytes = [...new Array<number>(10).fill(0), 0xff, 0xff, ...bytes];
    return [
      [4, words(bytes)],
      [6, words(mappedBytes)],
    ];
  }
  if (isIPv6(address)) return [[6, words(ipv6Bytes(address))]];
  return [];
}

function words(bytes: readonly number[]): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 4) {
    const word = bytes.slice(index, index + 4);
    if (LITTLE_ENDIAN) word.reverse();
    out += word.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  }
  return out.toUpperCase();
}

function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}

/** The 16 bytes of an IPv6 address (Node reports them compressed, `::1`, possibly with a zone `%lo`). */
function ipv6Bytes(address: string): number[] {
  const bare = address.split('%')[0] ?? '';
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const all = [...before, ...new Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return all.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}
