// A new connection's peer check (docs/performance.md "A new connection's peer check"): the daemon finds the uid of a
// loopback client in /proc/net/tcp, where every connection closed in the last minute waits in TIME_WAIT (a shell loop
// of `curl` leaves one per call). Timed in this process, as the daemon runs it (`openPeerTables().ownerOf`), on fresh
// loopback connections with a few thousand TIME_WAIT lines made first, against the floor: reading the whole table
// with the same reads, nothing searched. The lookup stops at the client's line, so it may come out under the floor.

import { closeSync, openSync, readSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { STATE_COLUMN, scanTable } from '../src/client/socket-tables.js';
import { openPeerTables, type PeerTables } from '../src/server/peer-uid.js';
import type { BenchContext } from './lib/context.js';
import { median, percentile, ratio } from './lib/stats.js';
import type { BenchSection } from './lib/table.js';

const TABLE = '/proc/net/tcp';
const READ_CHUNK = 256 * 1024;
const TIME_WAIT = '06';
/** Connections opened at once while filling the table: well under the descriptor limit. */
const BATCH = 200;

export async function runPeerLookupBench(ctx: BenchContext): Promise<BenchSection[]> {
  const targets = ctx.sizes ?? (ctx.quick ? [0, 1000] : [0, 2000, 8000]);
  const rounds = ctx.quick ? 20 : 100;
  const tables = openPeerTables();
  if (tables === undefined) {
    ctx.log(`peers: no ${TABLE} here, skipped`);
    return [];
  }
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const rows: string[][] = [];
  try {
    for (const target of targets) {
      const made = await fillTimeWait(server, target - timeWaitLines());
      const lines = timeWaitLines();
      ctx.log(`peers: ${lines} TIME_WAIT lines (${made} made), ${rounds} lookups`);
      const lookup: number[] = [];
      const floor: number[] = [];
      for (let round = 0; round < rounds; round++) {
        lookup.push(await timedLookup(server, tables));
        floor.push(readWholeTable());
      }
      rows.push([
        lines.toLocaleString('en-US'),
        `${median(lookup).toFixed(2)} ms (p90 ${percentile(lookup, 90).toFixed(2)})`,
        `${median(floor).toFixed(2)} ms (p90 ${percentile(floor, 90).toFixed(2)})`,
        ratio(median(lookup), median(floor)),
      ]);
    }
  } finally {
    tables.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return [
    {
      title: 'A new connection’s peer check',
      intro:
        `\`ownerOf\` (src/server/peer-uid.ts) on a fresh loopback connection, in-process, ${rounds} lookups per row, ` +
        `alternating with the floor: reading all of ${TABLE} with the same ${READ_CHUNK / 1024} KiB reads (the kernel ` +
        'hands out 4 KiB per read), nothing searched. TIME_WAIT lines are made first by connections the server closes.',
      headers: ['TIME_WAIT lines', 'lookup, median (p90)', 'whole table read, median (p90)', 'ratio (medians)'],
      rows,
      notes: ['No target: the row holds the lookup linear in the table (it was quadratic: 67 ms at 5,100 lines).'],
    },
  ];
}

/** Lines of the IPv4 table in TIME_WAIT, read with the daemon's own table scan. */
function timeWaitLines(): number {
  let count = 0;
  const fd = openSync(TABLE, 'r');
  try {
    // Columns are separated by spaces and no other column of a line is ever `06`: the state column is the only match.
    scanTable(fd, Buffer.allocUnsafe(READ_CHUNK), ` ${TIME_WAIT} `, (columns) => {
      if (columns[STATE_COLUMN] === TIME_WAIT) count++;
      return false;
    });
    return count;
  } finally {
    closeSync(fd);
  }
}

/** Opens and lets the server close `count` connections, BATCH at a time; returns how many it made. */
async function fillTimeWait(server: Server, count: number): Promise<number> {
  const { port } = server.address() as { port: number };
  let made = 0;
  while (made < count) {
    const batch = Math.min(BATCH, count - made);
    await Promise.all(
      Array.from(
        { length: batch },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = createConnection({ host: '127.0.0.1', port });
            socket.once('error', reject);
            socket.once('close', () => resolve());
            socket.resume();
          }),
      ),
    );
    made += batch;
  }
  return made;
}

/** Milliseconds `ownerOf` takes for a connection the server has just accepted; it must name this process's uid. */
async function timedLookup(server: Server, tables: PeerTables): Promise<number> {
  const { port } = server.address() as { port: number };
  const accepted = new Promise<Socket>((resolve) => server.prependOnceListener('connection', resolve));
  const client = createConnection({ host: '127.0.0.1', port });
  client.resume();
  const socket = await accepted;
  const ends = {
    remoteAddress: socket.remoteAddress ?? '',
    remotePort: socket.remotePort ?? 0,
    localAddress: socket.localAddress ?? '',
    localPort: socket.localPort ?? 0,
  };
  const started = performance.now();
  const uid = tables.ownerOf(ends);
  const elapsed = performance.now() - started;
  await new Promise<void>((resolve) => client.once('close', () => resolve()));
  if (uid !== process.getuid?.()) throw new Error(`ownerOf named uid ${uid}, not ${process.getuid?.()}`);
  return elapsed;
}

/** Milliseconds to read the whole table with the lookup's reads, nothing searched. */
function readWholeTable(): number {
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  const started = performance.now();
  const fd = openSync(TABLE, 'r');
  try {
    let position = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
    }
  } finally {
    closeSync(fd);
  }
  return performance.now() - started;
}
