// Which Host header values the daemon answers (API.md §Security defaults).
// DNS rebinding: a web page on evil.com re-points its own name at 127.0.0.1, and the browser then sends
// `Host: evil.com` to the daemon. Only names the attacker cannot control may pass, so the check is an allow-list.

import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Names a loopback client uses; `[::1]` is the bracketed form of a Host header. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

// RFC 9110 §4.2.1 allows an empty port after the colon.
const PORT_SUFFIX = /^:\d{0,5}$/;
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** True when binding `host` keeps the daemon reachable from this machine only. */
export function isLoopbackBind(host: string): boolean {
  const bare = unbracket(host.trim().toLowerCase());
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * The hostname of a Host header (or of an absolute-form request target's authority), lower-cased, without the
 * port; IPv6 literals keep their brackets. Returns '' for anything malformed, which no allow-list contains.
 */
export function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return '';
    const rest = host.slice(end + 1);
    if (rest !== '' && !PORT_SUFFIX.test(rest)) return '';
    const literal = host.slice(1, end);
    return isIP(literal) === 6 ? `[${literal}]` : '';
  }
  const colon = host.indexOf(':');
  if (colon < 0) return host;
  // A bare IPv6 literal (`::1`) is not a valid Host header, but old clients send it: accept the address itself.
  if (isIP(host) === 6) return `[${host}]`;
  return PORT_SUFFIX.test(host.slice(colon)) ? host.slice(0, colon) : '';
}

/** Normalises an allow-list entry the way `hostnameOf` normalises a header: `::1` → `[::1]`, `box:7420` → `box`. */
export function normaliseHostEntry(entry: string): string {
  const host = entry.trim().toLowerCase();
  if (isIP(host) === 6) return `[${host}]`;
  return hostnameOf(host);
}

/**
 * The allow-list for a bind address.
 * - Loopback bind: the loopback names plus `server.allowedHosts`.
 * - A specific non-loopback address: that address too (clients reach it by that literal).
 * - A wildcard bind (`0.0.0.0`, `::`, the Docker case): every address of this machine's interfaces too. An IP literal
 *   cannot be rebound by DNS, so accepting the machine's own addresses keeps the guard; any DNS name a remote client
 *   uses must be listed in `server.allowedHosts`.
 */
export function bindHostAllowList(bindHost: string): Set<string> {
  const allowed = new Set(LOOPBACK_HOSTS);
  const bind = bindHost.trim().toLowerCase();
  if (WILDCARD_BINDS.has(bind)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const info of addresses ?? []) {
        // Link-local IPv6 addresses need a zone id, which a Host header cannot carry.
        if (info.family === 'IPv6' && info.scopeid !== 0) continue;
        allowed.add(normaliseHostEntry(info.address));
      }
    }
  } else {
    allowed.add(normaliseHostEntry(bind));
  }
  allowed.delete('');
  return allowed;
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
