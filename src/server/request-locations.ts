// `paths=local|url` for a request (docs/api.md §Remote-friendly text): which choice applies when the client made none,
// and the daemon's base URL as that client reaches it.

import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { httpLocations, LOCAL_LOCATIONS, type PathsChoice, type SkillLocations } from '../discovery/skill-locations.js';

/**
 * The choice a client gets without asking: local paths for a client on this machine (they are its paths too), URLs
 * for any other (the paths would name files it cannot open).
 */
export function defaultPathsChoice(remoteAddress: string | undefined): PathsChoice {
  return isLoopbackAddress(remoteAddress) ? 'local' : 'url';
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * `server.publicUrl` when set (a proxy or a published port in front of the daemon), else `http://<Host>` with the
 * Host the client used: the security hooks have already held it to the allow-list, so the text can only name an
 * address the daemon answers on.
 */
export function publicBaseUrl(hostHeader: string | undefined, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl.replace(/\/+$/, '');
  return `http://${hostHeader ?? 'localhost'}`;
}

/** The locations a REST answer names for this request and `paths` query value. */
export function requestLocations(
  request: FastifyRequest,
  paths: PathsChoice | undefined,
  publicUrl: string | undefined,
): SkillLocations {
  const choice = paths ?? defaultPathsChoice(request.socket.remoteAddress);
  return choice === 'local' ? LOCAL_LOCATIONS : httpLocations(publicBaseUrl(request.headers.host, publicUrl));
}
