// The diagnostics a skipped skill entry is listed with (docs/discovery.md §3; the link rules of SECURITY.md "Links and
// workspaces"), worded once for both loaders (load-skill.ts, load-skill-now.ts) so they say the same.

import type { Stats } from 'node:fs';
import { untrustedLinkText } from '../link-trust.js';
import { isErrnoException } from './is-errno-exception.js';

export const NO_NOTES: readonly string[] = Object.freeze([]);

export function untrustedEntryText(baseDir: string, link: Stats, target: Stats): string {
  const text = untrustedLinkText({ path: baseDir, ownerUid: link.uid, targetUid: target.uid });
  return `skill directory not read: ${text}; the skill is skipped`;
}

export function unreadableNote(error: unknown): string {
  const reason = isErrnoException(error) && error.code !== undefined ? error.code : String(error);
  return `SKILL.md cannot be read (${reason}); the skill is skipped`;
}

export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a file';
}
