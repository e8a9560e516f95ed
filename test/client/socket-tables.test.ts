// socket-tables.ts: reading only the listening head of a socket table (the kernel lists listening sockets first),
// over table text written to a file in the kernel's format.

import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import {
  type ListeningSockets,
  listenerAddresses,
  listeningSockets,
  scanTable,
} from '../../src/client/socket-tables.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const line = (n: number, local: string, remote: string, state: string, uid: number) =>
  `  ${n}: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000  ${uid}        0 ${1000 + n} 1 0000000000000000 100 0 0 10 0`;

async function table(t: { after(fn: () => Promise<void>): void }, lines: string[]): Promise<number> {
  const { dir, cleanup } = await makeTempDir('skillsd-tables-');
  t.after(cleanup);
  await writeFile(`${dir}/tcp`, `${[HEADER, ...lines].join('\n')}\n`);
  const fd = openSync(`${dir}/tcp`, 'r');
  t.after(async () => closeSync(fd));
  return fd;
}

describe('listeningSockets', () => {
  it('reads the listening sockets (half-open ones between them skipped) and stops at the first other state', async (t) => {
    const fd = await table(t, [
      line(0, '0100007F:1CF4', '00000000:0000', '0A', 1000),
      line(1, '0100007F:1CF4', '0100007F:D431', '03', 1000),
      line(2, '00000000:0016', '00000000:0000', '0A', 0),
      line(3, '0100007F:1CF4', '0100007F:D432', '01', 1000),
      line(4, '0100007F:1F90', '00000000:0000', '0A', 1002),
    ]);
    // Small reads: lines cut between reads are put together.
    const { sockets } = listeningSockets(fd, Buffer.alloc(64));
    assert.deepEqual(
      sockets.map((columns) => [columns[1], columns[7]]),
      [
        ['0100007F:1CF4', '1000'],
        ['00000000:0016', '0'],
      ],
    );
  });

  it('stops once as many listening sockets as the family has in use were read', async (t) => {
    const fd = await table(t, [
      line(0, '0100007F:1CF4', '00000000:0000', '0A', 1000),
      line(1, '0100007F:1F90', '00000000:0000', '0A', 1002),
    ]);
    assert.deepEqual(count(listeningSockets(fd, Buffer.alloc(512), 1)), { sockets: 1, partial: true });
    // A count of none proves the table held no listener when it was read: nothing is left unread that could matter.
    assert.deepEqual(count(listeningSockets(fd, Buffer.alloc(512), 0)), { sockets: 0, partial: false });
    assert.deepEqual(count(listeningSockets(fd, Buffer.alloc(512), 2)), { sockets: 2, partial: true });
    assert.deepEqual(count(listeningSockets(fd, Buffer.alloc(512), 3)), { sockets: 2, partial: false });
    assert.deepEqual(count(listeningSockets(fd, Buffer.alloc(512))), { sockets: 2, partial: false });
  });
});

const count = ({ sockets, partial }: ListeningSockets) => ({ sockets: sockets.length, partial });

describe('scanTable', () => {
  it('visits every complete line holding the needle, whatever reads cut them, and stops when told', async (t) => {
    // 300 lines, the needle in three of them, the last without its newline: read 37 bytes at a time (the kernel
    // hands a table out in pieces too), lines and needles are cut in every place.
    const lines = Array.from({ length: 300 }, (_, n) =>
      line(n, '0100007F:1CF4', n === 4 || n === 150 || n === 299 ? '0100007F:D431' : '0100007F:0001', '01', n),
    );
    const { dir, cleanup } = await makeTempDir('skillsd-tables-');
    t.after(cleanup);
    await writeFile(`${dir}/tcp`, [HEADER, ...lines].join('\n'));
    const fd = openSync(`${dir}/tcp`, 'r');
    t.after(async () => closeSync(fd));
    const needle = ' 0100007F:1CF4 0100007F:D431 ';
    for (const size of [37, 150, 4096]) {
      const seen: string[] = [];
      scanTable(fd, Buffer.alloc(size), needle, (columns) => {
        seen.push(`${columns[0]} ${columns[7]}`);
        return false;
      });
      assert.deepEqual(seen, ['4: 4', '150: 150', '299: 299'], `reads of ${size} bytes`);
      const first: string[] = [];
      scanTable(fd, Buffer.alloc(size), needle, (columns) => first.push(columns[0]!) === 2);
      assert.deepEqual(first, ['4:', '150:'], `reads of ${size} bytes, stopped at the second`);
    }
  });
});

describe('listenerAddresses', () => {
  it('names the address, the wildcard, and for IPv4 the mapped address and :: in tcp6', () => {
    assert.deepEqual(listenerAddresses('127.0.0.1', 7420), [
      [4, '0100007F:1CFC'],
      [4, '00000000:1CFC'],
      [6, '0000000000000000FFFF00000100007F:1CFC'],
      [6, '00000000000000000000000000000000:1CFC'],
    ]);
    assert.deepEqual(listenerAddresses('::1', 80), [
      [6, '00000000000000000000000001000000:0050'],
      [6, '00000000000000000000000000000000:0050'],
    ]);
  });
});
