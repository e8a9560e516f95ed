// One request whose path is sent byte for byte: fetch (and `inject()`) normalise `..` and `//` away, which are
// exactly what the traversal tests must send. `http.request` keeps the socket open until the answer arrives.

import { request } from 'node:http';
import { WAIT_MS } from './deadlines.js';

export interface RawPathResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function requestRawPath(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawPathResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(WAIT_MS, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}
