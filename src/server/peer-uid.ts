// Which local user owns the client end of a TCP connection, read from the kernel's socket tables (Linux).
//
// Loopback is reachable by every account on the machine: without this, any other local user could read the
// daemon's user's skills (SECURITY.md §2, other local users). `/proc/net/tcp` and `/proc/net/tcp6` list every socket of
// the network namespace with the uid that created it; the client's socket is the line whose local address is the
// connection's remote address and port, and whose remote address is the daemon's end of it.
//
// Both tables are opened once and re-read from offset 0 (pread) on each lookup: a lookup needs no new descriptor, so
// it still works when a flood of connections has used every descriptor up (SECURITY.md §4, exhaustion).

import { closeSync, openSync, readSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { endianness } from 'node:os';

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

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;
const READ_CHUNK = 256 * 1024;
/** Column of `uid` in a table line (`sl local rem st tx:rx tr:when retrnsmt uid …`). */
const UID_COLUMN = 7;
/** TCP_TIME_WAIT: a closed connection's remnant, listed with uid 0; a live socket with the same ends wins. */
const TIME_WAIT = '06';
const LITTLE_ENDIAN = endianness() === 'LE';
const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Opens the tables, or returns undefined where this platform has none (then no peer can be told apart). */
export function openPeerTables(paths: readonly [tcp: string, tcp6: string] = TABLES): PeerTables | undefined {
  const [tcp, tcp6] = paths.map((path) => {
    try {
      return openSync(path, 'r');
    } catch {
      // tcp6 is absent on a kernel without IPv6; tcp alone still answers IPv4 clients.
      return undefined;
    }
  });
  const descriptors = [tcp, tcp6].filter((fd): fd is number => fd !== undefined);
  if (descriptors.length === 0) return undefined;
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  return {
    ownerOf(ends) {
      // Each read makes the kernel walk its socket hash tables (about 1.5 ms per read here, one read per 4 KiB of
      // table): only the table the client can be in is read, and only until its line has been seen.
      for (const [family, needle] of lineNeedles(ends)) {
        const fd = family === 4 ? tcp : tcp6;
        if (fd === undefined) continue;
        const uid = scanTable(fd, buffer, needle);
        if (uid !== undefined) return uid;
      }
      return undefined;
    },
    close() {
      for (const fd of descriptors.splice(0)) closeSync(fd);
    },
  };
}

/**
 * Reads a table from its start (the kernel regenerates it on every read from offset 0) until the line holding
 * `needle` is complete, and returns that line's uid; undefined when no line holds it.
 */
function scanTable(fd: number, buffer: Buffer, needle: string): number | undefined {
  let text = '';
  let position = 0;
  let from = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read > 0) text += buffer.toString('latin1', 0, read);
    position += read;
    let incomplete = false;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0) break;
      const end = text.indexOf('\n', at);
      // The line is not complete yet: read on (unless the table ended without a final newline).
      if (end < 0 && read > 0) {
        from = at;
        incomplete = true;
        break;
      }
      from = at + needle.length;
      const start = text.lastIndexOf('\n', at) + 1;
      const columns = text
        .slice(start, end < 0 ? undefined : end)
        .trim()
        .split(/\s+/);
      if (columns[3] === TIME_WAIT) continue;
      const uid = Number(columns[UID_COLUMN]);
      if (Number.isInteger(uid) && uid >= 0) return uid;
    }
    if (read === 0) return undefined;
    // A needle cut by the chunk's end is searched again once the rest has arrived.
    if (!incomplete) from = Math.max(from, text.length - needle.length);
  }
}

/**
 * `<client> <server> ` in each table the client's socket can be in: an IPv4 client in tcp, or, reaching a dual-stack
 * server through an IPv6 socket, in tcp6 as `::ffff:a.b.c.d`; an IPv6 client in tcp6.
 */
function lineNeedles(ends: ConnectionEnds): Array<[family: 4 | 6, needle: string]> {
  const clients = addressSpellings(ends.remoteAddress);
  const servers = addressSpellings(ends.localAddress);
  const out: Array<[4 | 6, string]> = [];
  for (const [family, client] of clients) {
    const server = servers.find(([serverFamily]) => serverFamily === family)?.[1];
    if (server !== undefined) {
      out.push([family, ` ${client}:${hexPort(ends.remotePort)} ${server}:${hexPort(ends.localPort)} `]);
    }
  }
  return out;
}

type Spelling = [family: 4 | 6, hex: string];

/** An address as the tables print it: each 32-bit word in host byte order, as 8 upper-case hex digits. */
function addressSpellings(address: string): Spelling[] {
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
