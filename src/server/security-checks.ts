// The Host, peer, browser and bearer-token decisions of docs/api.md §Security defaults, as plain functions over header
// values and the connection (the Host rule and its messages are host-allow-list.ts's). The security plugin's hooks
// and the poll fast path (poll-fast-path.ts) share one instance, so a request the fast path answers is one those hooks
// would have let through by the very same comparison.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { capEcho } from '../answers/echo.js';
import { SkillsdError } from '../discovery/errors.js';
import type { ServerSettings } from '../discovery/types.js';
import { hostHeaderRefusal, hostPolicyFor, targetHostRefusal } from './host-allow-list.js';
import { openPeerTables, type PeerTables } from './peer-uid.js';

export interface SecurityOptions {
  /** When set, every route but `/health` needs `Authorization: Bearer <token>`. */
  token?: string;
  /** The address the server binds; decides the base Host allow-list (see host-allow-list.ts). */
  bindHost: string;
  /** Read on every request so that an edit of `server.allowedHosts`/`allowedOrigins` in the config applies live. */
  getServerSettings: () => ServerSettings;
  /**
   * The kernel's socket tables (peer-uid.ts); default: this process's own, opened once. `null`: this platform cannot
   * tell local users apart (then `server.localPeers` cannot be enforced, and the CLI says so at start).
   */
  peerTables?: PeerTables | null;
  /** The uid the daemon serves (default: the process's own). */
  uid?: number;
}

export interface SecurityChecks {
  /** Why a request with this Host header and target is refused (403 `ForbiddenHost`), or undefined. */
  hostRefusal(hostHeader: string | undefined, target: string): SkillsdError | undefined;
  /**
   * Why this connection is refused as another local user's (403 `ForbiddenPeer`), or undefined. Applies only without
   * a token (a token admits any peer holding it) and while `server.localPeers` is `same-user`.
   */
  peerRefusal(socket: Socket): SkillsdError | undefined;
  /**
   * Why a request without an Origin header is refused (403 `ForbiddenOrigin`): a browser marked it
   * `Sec-Fetch-Site: cross-site` or `same-site`, so another site's page made it (an `<img src=…?cwd=…>`).
   */
  fetchSiteRefusal(secFetchSite: string | undefined): SkillsdError | undefined;
  /** Whether routes need a bearer token at all. */
  readonly tokenRequired: boolean;
  /** Whether a presented token is the configured one (constant time). False when none is configured. */
  tokenMatches(presented: string): boolean;
}

const BEARER = /^Bearer +(\S+) *$/i;
/** `Sec-Fetch-Site` values a browser sets on requests another site's page made (Fetch Metadata). */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);
/** The owner of each connection, looked up once: a socket's owner never changes. */
const peerUids = new WeakMap<Socket, number>();
let processPeerTables: PeerTables | null | undefined;

/** This process's view of the socket tables, opened on first use; null where the platform has none. */
export function localPeerTables(): PeerTables | null {
  processPeerTables ??= openPeerTables() ?? null;
  return processPeerTables;
}

export function securityChecks(options: SecurityOptions): SecurityChecks {
  const policy = hostPolicyFor(options.bindHost);
  const expectedDigest = options.token === undefined ? undefined : digest(options.token);
  // The last Host header found allowed, with the allow-list it was checked against: a client sends the same Host on
  // every request, and a config reload gives a new list (settings are replaced, never edited in place).
  let allowedHeader: string | undefined;
  let allowedWith: readonly string[] | undefined;
  const tables = options.peerTables === undefined ? localPeerTables() : options.peerTables;
  const uid = options.uid ?? process.getuid?.();
  return {
    hostRefusal(hostHeader, target) {
      const extraHosts = options.getServerSettings().allowedHosts;
      const header = hostHeader ?? '';
      if (header !== allowedHeader || extraHosts !== allowedWith) {
        const refusal = hostHeaderRefusal(header, policy, extraHosts);
        if (refusal !== undefined) return refusal;
        allowedHeader = header;
        allowedWith = extraHosts;
      }
      return targetHostRefusal(target, policy, extraHosts);
    },
    peerRefusal(socket) {
      if (expectedDigest !== undefined || tables === null || uid === undefined) return undefined;
      if (options.getServerSettings().localPeers === 'any') return undefined;
      let owner = peerUids.get(socket);
      if (owner === undefined) {
        const { remoteAddress, remotePort, localAddress, localPort } = socket;
        if (remoteAddress === undefined || remotePort === undefined || localAddress === undefined) {
          // The client is already gone: nothing to answer, and nothing to attribute.
          return new SkillsdError('ForbiddenPeer', 'The connection closed before its owner could be determined');
        }
        owner = tables.ownerOf({ remoteAddress, remotePort, localAddress, localPort: localPort ?? 0 });
        // Not in the tables: a client on another machine or network namespace, whose user the kernel cannot name.
        // Only reachable on a non-loopback bind, which needs a token; refused all the same (fail closed).
        if (owner === undefined) {
          return new SkillsdError(
            'ForbiddenPeer',
            'The local user of this connection could not be determined; use a token (--token-file)',
          );
        }
        peerUids.set(socket, owner);
      }
      if (owner === uid) return undefined;
      return new SkillsdError(
        'ForbiddenPeer',
        `Connections from other local users are refused: this one belongs to uid ${owner}, the daemon serves uid ${uid}`,
      );
    },
    fetchSiteRefusal(secFetchSite) {
      if (secFetchSite === undefined || !FOREIGN_SITES.has(secFetchSite.toLowerCase())) return undefined;
      return new SkillsdError(
        'ForbiddenOrigin',
        `A ${secFetchSite.toLowerCase()} request from a page whose origin is not allowed is refused (Sec-Fetch-Site)`,
      );
    },
    tokenRequired: expectedDigest !== undefined,
    tokenMatches(presented) {
      return expectedDigest !== undefined && timingSafeEqual(digest(presented), expectedDigest);
    },
  };
}

/** The token of an `Authorization` header; '' when it is not of the `Bearer <token>` form (then it matches nothing). */
export function bearerToken(header: string): string {
  return BEARER.exec(header)?.[1] ?? '';
}

/** Reflected header values are capped: the message is for a human, not an echo service. */
export function quote(value: string): string {
  return JSON.stringify(capEcho(value));
}

/** Hashing both sides first gives equal-length buffers, so neither the comparison nor its length leaks the token. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
