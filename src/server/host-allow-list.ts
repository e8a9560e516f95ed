// Which Host header values the daemon answers (docs/api.md §Security defaults).
// DNS rebinding: a web page on evil.com re-points its own name at 127.0.0.1, and the browser then sends
// `Host: evil.com` to the daemon. Only names the attacker cannot control may pass, so the check is an allow-list.

import { isIP } from 'node:net';
import { capEcho } from '../answers/echo.js';
import { SkillsdError } from '../discovery/errors.js';

/** Names a loopback client uses; `[::1]` is the bracketed form of a Host header. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

// RFC 9110 §4.2.1 allows an empty port after the colon.
const PORT_SUFFIX = /^:\d{0,5}$/;
const WILDCARD_BINDS = new Set(['0.0.0.0', '::']);
const ABSOLUTE_TARGET = /^[a-z][a-z0-9+.-]*:\/\//i;

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

/** Which Host names a bind accepts, before `server.allowedHosts` (read per request) is added. */
export interface HostPolicy {
  /** Names always accepted: the loopback names, and a specific bind address. */
  names: ReadonlySet<string>;
  /** Whether any IP literal is accepted (non-loopback binds). */
  anyIpLiteral: boolean;
}

/**
 * The Host policy of a bind address.
 * - Loopback bind (the default): `localhost`, `127.0.0.1`, `[::1]` only (docs/api.md §Security defaults).
 * - Any other bind (`0.0.0.0` in Docker, a LAN address), which requires a token: those names, the bind address, and
 *   any IP literal. DNS rebinding needs a DNS name the attacker controls; an IP literal in Host names the address the
 *   client itself connected to (behind Docker's port publishing or NAT that address is not one of this machine's,
 *   so the interface list would not do). Any DNS name remote clients use must be listed in `server.allowedHosts`.
 */
export function hostPolicyFor(bindHost: string): HostPolicy {
  const names = new Set(LOOPBACK_HOSTS);
  if (isLoopbackBind(bindHost)) return { names, anyIpLiteral: false };
  const bind = normaliseHostEntry(bindHost);
  if (bind !== '' && !WILDCARD_BINDS.has(unbracket(bind))) names.add(bind);
  return { names, anyIpLiteral: true };
}

/** True when `hostname` (as `hostnameOf` returns it) passes the policy or one of the `extraHosts` entries. */
export function isAllowedHostname(hostname: string, policy: HostPolicy, extraHosts: readonly string[]): boolean {
  if (hostname === '') return false;
  if (policy.names.has(hostname)) return true;
  if (policy.anyIpLiteral && isIP(unbracket(hostname)) !== 0) return true;
  return extraHosts.some((entry) => normaliseHostEntry(entry) === hostname);
}

/** Why a request with this Host header is refused (403 `ForbiddenHost`), or undefined. */
export function hostHeaderRefusal(
  header: string,
  policy: HostPolicy,
  extraHosts: readonly string[],
): SkillsdError | undefined {
  if (isAllowedHostname(hostnameOf(header), policy, extraHosts)) return undefined;
  return new SkillsdError('ForbiddenHost', `Host ${quoted(header)} is not allowed${howToAllow(header)}`);
}

/**
 * Why a request target is refused (403 `ForbiddenHost`), or undefined. An absolute-form target
 * (`GET http://evil.com/ HTTP/1.1`) names the authority the client meant (RFC 9112 §3.2.2): a proxy in front of the
 * daemon may have routed by it, so it must pass the same allow-list as the Host header.
 */
export function targetHostRefusal(
  target: string,
  policy: HostPolicy,
  extraHosts: readonly string[],
): SkillsdError | undefined {
  if (!ABSOLUTE_TARGET.test(target)) return undefined;
  const authority = authorityOf(target);
  if (authority !== undefined && isAllowedHostname(hostnameOf(authority), policy, extraHosts)) return undefined;
  return new SkillsdError('ForbiddenHost', `Request target ${quoted(target)} names a host that is not allowed`);
}

function authorityOf(target: string): string | undefined {
  try {
    const url = new URL(target);
    return url.username === '' && url.password === '' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/** What the operator does to answer this name: it goes in `server.allowedHosts` (or `--allow-host`). */
function howToAllow(header: string): string {
  const name = hostnameOf(header);
  if (name === '') return '';
  return `: to allow it, add ${quoted(name)} to server.allowedHosts in the config file or start with --allow-host ${name}`;
}

/** Reflected header values are capped: the message is for a human, not an echo service. */
function quoted(value: string): string {
  return JSON.stringify(capEcho(value));
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
