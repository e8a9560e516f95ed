// The socket-table lookup of peer-uid.ts over real connections: each address family and the IPv4-mapped forms of a
// dual-stack server, answered with this process's own uid (the refusal of other users is in
// test/security/local-peers.test.ts).

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openPeerTables } from '../../src/server/peer-uid.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const linux = process.platform === 'linux' ? false : 'the socket tables are Linux-only';

/** A server on `listenHost`, a client connected to it from `connectHost`, and the server's end of that connection. */
async function connection(listenHost: string, connectHost: string) {
  const server: Server = createServer();
  const accepted = new Promise<Socket>((resolve) => {
    server.once('connection', resolve);
  });
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve));
  const port = (server.address() as { port: number }).port;
  const client = connect({ port, host: connectHost });
  await new Promise<void>((resolve) => client.once('connect', resolve));
  const serverSide = await accepted;
  return {
    serverSide,
    close() {
      client.destroy();
      serverSide.destroy();
      server.close();
    },
  };
}

describe('openPeerTables', { skip: linux }, () => {
  const cases = [
    { label: 'IPv4 loopback', listen: '127.0.0.1', connect: '127.0.0.1', remote: '127.0.0.1' },
    { label: 'IPv6 loopback', listen: '::1', connect: '::1', remote: '::1' },
    { label: 'an IPv4 client of a dual-stack server', listen: '::', connect: '127.0.0.1', remote: '::ffff:127.0.0.1' },
    {
      label: 'an IPv6 client connecting to an IPv4-mapped address',
      listen: '::',
      connect: '::ffff:127.0.0.1',
      remote: '::ffff:127.0.0.1',
    },
  ];
  for (const item of cases) {
    it(`finds the client's owner: ${item.label}`, async (t) => {
      const tables = openPeerTables();
      assert.ok(tables !== undefined);
      t.after(() => tables.close());
      const c = await connection(item.listen, item.connect);
      t.after(() => c.close());
      const { remoteAddress, remotePort, localAddress, localPort } = c.serverSide;
      assert.equal(remoteAddress, item.remote);
      const ends = {
        remoteAddress: remoteAddress!,
        remotePort: remotePort!,
        localAddress: localAddress!,
        localPort: localPort!,
      };
      assert.equal(tables.ownerOf(ends), process.getuid?.());
      // A client port nobody connected from is in no table.
      const unused = ends.remotePort === 1 ? 2 : 1;
      assert.equal(tables.ownerOf({ ...ends, remotePort: unused }), undefined);
    });
  }

  it('answers undefined for a connection no table lists', () => {
    const tables = openPeerTables();
    assert.ok(tables !== undefined);
    try {
      assert.equal(
        tables.ownerOf({ remoteAddress: '127.0.0.1', remotePort: 1, localAddress: '127.0.0.1', localPort: 2 }),
        undefined,
      );
      assert.equal(
        tables.ownerOf({ remoteAddress: 'not-an-address', remotePort: 1, localAddress: '127.0.0.1', localPort: 2 }),
        undefined,
      );
    } finally {
      tables.close();
    }
  });

  it("finds a line cut by a read's end, wherever the cut falls", async (t) => {
    // A table file longer than one read (256 KiB): the client's line is placed so that the read ends inside its
    // addresses, then between its addresses and its uid.
    const { dir, cleanup } = await makeTempDir();
    t.after(cleanup);
    const ends = { remoteAddress: '127.0.0.1', remotePort: 0xd431, localAddress: '127.0.0.1', localPort: 0x1cfc };
    const line = (index: number, port: string, uid: number) =>
      `${String(index).padStart(4)}: 0100007F:${port} 0100007F:1CFC 01 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 ${index} 1 0000000000000000 20 4 0 10 -1\n`;
    const READ = 256 * 1024;
    for (const cutAt of ['needle', 'before uid']) {
      const filler: string[] = [];
      let length = 0;
      while (length < READ - 300) {
        const next = line(filler.length, '0001', 0);
        filler.push(next);
        length += next.length;
      }
      const target = line(filler.length, 'D431', 4321);
      // Where in the target line the read should end: inside ` 0100007F:D431 `, or after the addresses.
      const offsetInLine = cutAt === 'needle' ? target.indexOf('D431') : target.indexOf(' 01 ');
      const pad = READ - length - offsetInLine;
      const header = `${' '.repeat(Math.max(0, pad - 1))}\n`;
      const file = join(dir, `tcp-${cutAt.replace(' ', '-')}`);
      await writeFile(file, header + filler.join('') + target + line(filler.length + 1, '0002', 0));
      const tables = openPeerTables([file, join(dir, 'missing-tcp6')]);
      assert.ok(tables !== undefined);
      try {
        assert.equal(tables.ownerOf(ends), 4321, cutAt);
      } finally {
        tables.close();
      }
    }
  });

  it('is undefined where no table can be opened', () => {
    assert.equal(openPeerTables(['/nonexistent/tcp', '/nonexistent/tcp6']), undefined);
  });
});
