// bench/lib/server-process.ts: a comparison server whose port was taken between `freePort` releasing it and the
// server binding it (other programs open listeners all the time) is started again on another port, not reported as
// a failed run.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { BARE_SERVER, httpGet, spawnServer, waitForStatus } from '../../bench/lib/server-process.js';

describe('spawnServer and waitForStatus', () => {
  it('start the server again on another port when its port was taken before it bound', async (t) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const takenPort = (taken.address() as { port: number }).port;
    const ports: number[] = [];
    // The first start is given the taken port, as if another program had bound it in the meantime.
    const server = await spawnServer({
      args: (port) => {
        ports.push(port);
        return [BARE_SERVER, String(ports.length === 1 ? takenPort : port)];
      },
    });
    t.after(() => server.stop());
    await waitForStatus(server, '/', 200, 60_000);
    assert.equal(ports.length, 2);
    assert.equal(server.port, ports[1]);
    assert.equal(server.url, `http://127.0.0.1:${ports[1]}`);
    assert.equal((await httpGet(`${server.url}/`)).status, 200);
  });
});
