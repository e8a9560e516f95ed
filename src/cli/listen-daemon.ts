// Opening the daemon's socket(s). A host given as an address is bound as it is; a host name is bound on every
// address it resolves to (`localhost`: 127.0.0.1, and ::1 on a dual-stack machine), the first through Fastify, the
// others through guarded mirrors of its server (src/server/mirror-server.ts), never through Fastify's own extra
// bindings, which lack the daemon's defences.

import { lookup } from 'node:dns/promises';
import { type AddressInfo, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { CliError } from './cli-error.js';

/** Every address a host name resolves to, in the resolver's order. */
export type ResolveHost = (host: string) => Promise<string[]>;

const resolveWithSystem: ResolveHost = async (host) =>
  (await lookup(host, { all: true })).map((found) => found.address);

/** The addresses to bind for `host`: an IP address is itself; a name, each address it resolves to, once. */
export async function listenAddresses(host: string, resolveHost: ResolveHost = resolveWithSystem): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const found = [...new Set(await resolveHost(host))];
  return found.length === 0 ? [host] : found;
}

/**
 * Listens and returns the first URL a client can use. The listening line of the API contract names the address
 * actually bound (`http://0.0.0.0:7420` for a wildcard bind: the one line scripts wait for). Fastify logs one line per
 * interface address for a wildcard bind: the first says where it is reachable too, the others
 * `skillsd reachable at <url>`, as does each further address of a host name.
 */
export async function listenDaemon(
  app: FastifyInstance,
  host: string,
  port: number,
  resolveHost?: ResolveHost,
): Promise<string> {
  let first = true;
  const listenTextResolver = (address: string): string => {
    if (!first) return `skillsd reachable at ${address}`;
    first = false;
    const bound = boundUrl(app.server.address() as AddressInfo | null) ?? address;
    return bound === address
      ? `skillsd listening on ${bound}`
      : `skillsd listening on ${bound} (reachable at ${address})`;
  };
  let url: string;
  let others: string[];
  try {
    const [address, ...rest] = await listenAddresses(host, resolveHost);
    others = rest;
    url = await app.listen({ host: address ?? host, port, listenTextResolver });
  } catch (error) {
    throw listenError(error, host, port);
  }
  const boundPort = (app.server.address() as AddressInfo).port;
  for (const address of others) {
    try {
      const bound = await app.listenAlso(address, boundPort);
      app.log.info(`skillsd reachable at ${boundUrl(bound)}`);
    } catch (error) {
      // As for any address but the first of a name (Fastify skips them too): the daemon serves on the others.
      app.log.warn(
        { address, err: error },
        `not listening on ${address}, an address of ${host}: ${(error as Error).message}`,
      );
    }
  }
  return url;
}

function listenError(error: unknown, host: string, port: number): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${port} is already in use on ${host}`, 1);
  if (code === 'EACCES') return new CliError(`permission denied to listen on ${host} port ${port}`, 1);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CliError(`cannot listen on ${host}: not an address of this machine`, 1);
  }
  return new CliError(`cannot listen on ${host} port ${port}: ${(error as Error).message}`, 1);
}

/** `http://<address>:<port>` of a bound socket, IPv6 in brackets. */
function boundUrl(address: AddressInfo | string | null): string | undefined {
  if (address === null || typeof address === 'string') return undefined;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
