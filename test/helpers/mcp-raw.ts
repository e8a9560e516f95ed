// MCP messages over plain HTTP, for what the SDK's client would not send as given (Host, Origin), or could not hold in
// a given state (a session without a GET stream, a request left waiting for the client's answer).

import { request as httpRequest } from 'node:http';
import type { RawResponse } from './raw-http.js';

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/**
 * POSTs `body` to `path` (default `/mcp`) with extra header lines (`Name: value`). node:http reads the answer by its
 * length: the SDK answers `Connection: keep-alive` whatever the request said.
 */
export function postMcp(
  port: number,
  headers: string[],
  body: string = INITIALIZE,
  path = '/mcp',
): Promise<RawResponse> {
  const extra = Object.fromEntries(
    headers.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...extra,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({ status: response.statusCode ?? 0, headers: flat, body: text });
          response.socket.destroy();
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** An `initialize` POST with extra header lines (the Host line is the caller's). */
export function postInitialize(port: number, headers: string[]): Promise<RawResponse> {
  return postMcp(port, headers);
}

/** A session opened with one `initialize` and nothing else: no GET stream, no request in flight. */
export async function openBareSession(port: number, path = '/mcp', initialize = INITIALIZE): Promise<string> {
  const answer = await postMcp(port, [`Host: 127.0.0.1:${port}`], initialize, path);
  const id = answer.headers['mcp-session-id'];
  if (answer.status !== 200 || id === undefined)
    throw new Error(`initialize answered ${answer.status}: ${answer.body}`);
  return id;
}

/** A `ping` in session `id`: 200 while the session lives, 404 once it ended. */
export async function pingSession(port: number, id: string): Promise<number> {
  const answer = await postMcp(
    port,
    [`Host: 127.0.0.1:${port}`, `Mcp-Session-Id: ${id}`],
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  );
  return answer.status;
}
