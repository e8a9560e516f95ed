// http-fetch.ts against a bare node:http server on a real port: a body that arrives in several chunks is read
// whole, and a connection cut in the middle of a body fails the read instead of leaving it pending.

import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { httpFetch } from '../../src/client/http-fetch.js';

async function serve(t: { after(fn: () => Promise<void>): void }, handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('httpFetch', () => {
  it('reads a body sent in several chunks whole, as text, JSON and bytes', async (t) => {
    const url = await serve(t, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Each write waits for the previous one to be flushed: the client sees separate chunks.
      response.write('{"a":', () => response.write('"é', () => response.end('x"}')));
    });
    const text = await httpFetch(`${url}/one`, {});
    assert.equal(text.status, 200);
    assert.equal(text.headers.get('Content-Type'), 'application/json');
    assert.equal(await text.text(), '{"a":"éx"}');
    assert.deepEqual(await (await httpFetch(`${url}/two`, {})).json(), { a: 'éx' });
    const bytes = Buffer.from(await (await httpFetch(`${url}/three`, {})).arrayBuffer());
    assert.equal(bytes.toString('utf8'), '{"a":"éx"}');
  });

  it('rejects the read of a body whose connection is cut before it is complete', async (t) => {
    const url = await serve(t, (_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('0123456789', () => response.socket?.destroy());
    });
    const response = await httpFetch(`${url}/cut`, {});
    assert.equal(response.status, 200);
    await assert.rejects(response.text(), { name: 'Error', code: 'ECONNRESET', message: 'aborted' });
  });
});
