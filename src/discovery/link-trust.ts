// Which symbolic links the daemon follows, and where a linked SKILL.md or AGENTS.md may lead (SECURITY.md, "Links and
// workspaces"). The daemon reads files for whoever asks about a workspace, so every read must be one its own user
// would have made:
// - Ownership, in every `symlinks` mode: a link is followed only when the daemon's user owns it, or the owner of what
//   it leads to does (Linux's protected symlinks, judged by the link's owner against its target's owner). Another
//   local user's `SKILL.md -> /home/<you>/.ssh/id_ed25519` in a directory of theirs is never followed. Links root owns
//   are followed too: root can read every file anyway, and system layouts (`/home -> /data/home`) are root's links.
// - Names, in `contain` mode: a SKILL.md or AGENTS.md that is a link must resolve inside the skill's directory, the
//   workspace or its repository, or to a file of the same name. A cloned repository's
//   `SKILL.md -> ../../../../.ssh/id_ed25519` is skipped; `SKILL.md -> ~/lib/pdf/SKILL.md` and
//   `AGENTS.md -> CLAUDE.md` inside the repository still load.

import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, join, parse, resolve, sep } from 'node:path';
import { SkillsdError } from './errors.js';
import type { SymlinkMode } from './types.js';

/**
 * The daemon's own user: the identity every read is made for. Read from the process once, like the platform itself;
 * undefined where there are no uids (Windows), where the ownership rule is then off.
 */
export const DAEMON_UID: number | undefined = typeof process.geteuid === 'function' ? process.geteuid() : undefined;

const ROOT_UID = 0;

/** A link the ownership rule does not follow. */
export interface UntrustedLink {
  /** The link itself. */
  path: string;
  ownerUid: number;
  /** The owner of what it leads to; undefined when it leads nowhere (dangling or a loop). */
  targetUid: number | undefined;
}

/** What discovery needs to judge links (built once per discovery, see `linkPolicyOf`). */
export interface LinkPolicy {
  /** `contain`: a linked SKILL.md must lead inside its skill, `roots`, or to a file named SKILL.md. */
  contain: boolean;
  /** Real paths of the workspace and its repository. */
  roots: readonly string[];
}

/** The ownership rule for one link, from its `lstat` and its target's `stat`. */
export function isTrustedLink(link: Pick<Stats, 'uid'>, target: Pick<Stats, 'uid'> | undefined): boolean {
  if (DAEMON_UID === undefined) return true;
  if (link.uid === DAEMON_UID || link.uid === ROOT_UID) return true;
  return target !== undefined && link.uid === target.uid;
}

/**
 * The first link on `path` (any component, the last included) that the ownership rule refuses, or undefined. `real`
 * is `realpath(path)` when the caller has it: equal to the path, no link is on it and nothing more is read, so only
 * paths that go through links pay (one `lstat` per component, one `stat` per link).
 */
export async function untrustedLinkOnPath(path: string, real?: string): Promise<UntrustedLink | undefined> {
  if (DAEMON_UID === undefined) return undefined;
  const absolute = resolve(path);
  const resolved = real ?? (await realpath(absolute).catch(() => undefined));
  if (resolved === absolute) return undefined;
  let prefix = parse(absolute).root;
  for (const segment of absolute.slice(prefix.length).split(sep)) {
    if (segment === '') continue;
    prefix = join(prefix, segment);
    let info: Stats;
    try {
      info = await lstat(prefix);
    } catch {
      // Nothing there: nothing more is followed.
      return undefined;
    }
    if (!info.isSymbolicLink()) continue;
    const target = await stat(prefix).catch(() => undefined);
    if (!isTrustedLink(info, target)) return { path: prefix, ownerUid: info.uid, targetUid: target?.uid };
    // A link leading nowhere ends the walk: what lies below it cannot be read either.
    if (target === undefined) return undefined;
  }
  return undefined;
}

/** The rule, in the words of a diagnostic or an error message. */
export function untrustedLinkText(link: UntrustedLink): string {
  const target = link.targetUid === undefined ? 'a target that does not resolve' : `uid ${link.targetUid}`;
  return (
    `the symbolic link ${link.path} is owned by uid ${link.ownerUid} and leads to ${target}: links are followed ` +
    `only when owned by the daemon's user (uid ${DAEMON_UID}) or by the owner of their target`
  );
}

/** The ownership rule refused a link on the way of a file asked for: 403, like a path escaping its skill. */
export function linkNotFollowed(link: UntrustedLink): SkillsdError {
  return new SkillsdError('PathEscapesSkill', `Symbolic link not followed: ${untrustedLinkText(link)}`);
}

/** Contain mode's rule for a linked SKILL.md or AGENTS.md that resolves to `real`. */
export function namedFileAllowed(real: string, name: string, roots: readonly string[]): boolean {
  return basename(real) === name || roots.some((root) => isInside(root, real));
}

/**
 * The policy of one discovery: the real paths of the workspace and its repository (a missing one is left out). A root
 * that is HOME or holds it does not count: a HOME kept under git (dotfiles), or a workspace opened at HOME, would
 * otherwise let a link reach every file of the user, `~/.ssh` included.
 */
export async function linkPolicyOf(
  symlinks: SymlinkMode,
  cwd: string,
  repoRoot: string | null,
  home: string,
): Promise<LinkPolicy> {
  const paths = repoRoot === null || repoRoot === cwd ? [cwd, home] : [cwd, repoRoot, home];
  const real = await Promise.all(paths.map((path) => realpath(path).catch(() => undefined)));
  const realHome = real.pop();
  const roots = real.filter(
    (path): path is string => path !== undefined && (realHome === undefined || !isInside(path, realHome)),
  );
  return { contain: symlinks === 'contain', roots };
}

export function isInside(base: string, path: string): boolean {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
}
