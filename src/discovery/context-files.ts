// Context files (docs/discovery.md §9): the AGENTS.md files an agent started in CWD loads, found by walking up from CWD to a
// boundary that depends on where the repository and HOME are. Served by `GET /context-files` (docs/api.md).

import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, parse, resolve, sep } from 'node:path';
import { isTrustedLink, linkPolicyOf, namedFileAllowed, untrustedLinkText } from './link-trust.js';
import { MAX_TEXT_FILE_BYTES, readTextFile } from './read-text-file.js';
import type { Profile, SymlinkMode } from './types.js';
import { findRepoRoot, walkUp } from './workspace-context.js';

export interface ContextFile {
  path: string;
  content: string;
  level: 'project';
  /** segments(CWD) − segments(dir): 0 for CWD itself, 1 for its parent, … */
  depth: number;
}

/** An AGENTS.md the walk found but did not read, and why (daemon-only, like the diagnostics of `GET /skills`). */
export interface ContextFileDiagnostic {
  path: string;
  message: string;
}

export interface ContextFilesOptions {
  home: string;
  cwd: string;
  profile: Profile;
  /**
   * `contain` (the default): an AGENTS.md that is a link must lead inside the workspace or its repository, or to a
   * file named AGENTS.md. `follow`: wherever it leads, as the reference reads it. Either way another user's link to a
   * file not theirs is not followed (link-trust.ts).
   */
  symlinks?: SymlinkMode;
  /** Receives the AGENTS.md files skipped by those rules, closest first. */
  diagnostics?: ContextFileDiagnostic[];
}

const CONTEXT_FILE_NAME = 'AGENTS.md';

/**
 * The AGENTS.md files of the walk, closest first; an empty one is listed with `content: ""`, as the agents load it.
 * Unreadable and non-regular files are skipped; so is one over `MAX_TEXT_FILE_BYTES`, the daemon's own bound
 * (docs/discovery.md §9), with a diagnostic saying so.
 */
export async function findContextFiles(options: ContextFilesOptions): Promise<ContextFile[]> {
  const cwd = resolve(options.cwd);
  const repoRoot = await findRepoRoot(cwd);
  const files: ContextFile[] = [];
  // The real paths a linked AGENTS.md may lead into; resolved only once a link is met.
  let roots: Promise<readonly string[]> | undefined;
  const linkRoots = () => {
    roots ??= linkPolicyOf('contain', cwd, repoRoot, options.home).then((policy) => policy.roots);
    return roots;
  };
  for (const dir of contextFileDirs({ home: options.home, cwd, repoRoot, profile: options.profile })) {
    // A file in a directory whose own name starts with `.` (`.config`, `.musepi`, …) is tool state, not context.
    if (basename(dir).startsWith('.')) continue;
    const path = resolve(dir, CONTEXT_FILE_NAME);
    const place = await placeToRead(path, options.symlinks ?? 'contain', linkRoots);
    if (place === undefined) continue;
    if (typeof place !== 'string') {
      options.diagnostics?.push({ path, message: place.skipped });
      continue;
    }
    const content = await readContextFile(place);
    if (content === TOO_LARGE) {
      options.diagnostics?.push({
        path,
        message: `AGENTS.md is larger than ${MAX_TEXT_FILE_BYTES} bytes, the most the daemon reads of one; it is not read`,
      });
      continue;
    }
    if (content === null) continue;
    files.push({ path, content, level: 'project', depth: segmentCount(cwd) - segmentCount(dir) });
  }
  return files;
}

/**
 * Where to read `<dir>/AGENTS.md` from: the path itself when it is not a link, the link's real path when the link
 * rules allow it, `{ skipped }` when they do not, undefined when there is nothing to read.
 */
async function placeToRead(
  path: string,
  symlinks: SymlinkMode,
  linkRoots: () => Promise<readonly string[]>,
): Promise<string | { skipped: string } | undefined> {
  let link: Stats;
  try {
    link = await lstat(path);
  } catch {
    // Missing (or a path through a file): the agent finds nothing either. Other errors are the read's to meet.
    return undefined;
  }
  if (!link.isSymbolicLink()) return path;
  let target: Stats;
  let real: string;
  try {
    [target, real] = await Promise.all([stat(path), realpath(path)]);
  } catch {
    // Dangling or a loop: unreadable, skipped as the agent skips it.
    return undefined;
  }
  if (!isTrustedLink(link, target)) {
    const text = untrustedLinkText({ path, ownerUid: link.uid, targetUid: target.uid });
    return { skipped: `AGENTS.md not read: ${text}` };
  }
  if (symlinks === 'contain' && !namedFileAllowed(real, CONTEXT_FILE_NAME, await linkRoots())) {
    return {
      skipped:
        `AGENTS.md is a symbolic link to ${real}, which is outside the workspace and its repository, and not a file ` +
        'named AGENTS.md ("symlinks": "contain"); it is not read',
    };
  }
  return real;
}

/**
 * The directories whose AGENTS.md is read, closest first (before the `.`-name rule). MusePi/omp:
 * - repository under HOME → CWD up to, not including, HOME;
 * - no repository, CWD under HOME → CWD up to HOME inclusive;
 * - repository outside HOME → CWD up to the repository root inclusive;
 * - no repository, CWD outside HOME → CWD up to, not including, the filesystem root.
 * xcsh: CWD up to `REPO ?? HOME` inclusive (to the root inclusive when that is never met).
 */
export function contextFileDirs(options: {
  home: string;
  cwd: string;
  repoRoot: string | null;
  profile: Profile;
}): string[] {
  const home = resolve(options.home);
  const cwd = resolve(options.cwd);
  const repo = options.repoRoot === null ? null : resolve(options.repoRoot);
  if (options.profile === 'xcsh') return walkUp(cwd, repo ?? home);

  const underHome = (path: string) => isInside(home, path);
  const scanToHome = repo !== null && underHome(cwd) && underHome(repo);
  const boundary = scanToHome ? home : (repo ?? (underHome(cwd) ? home : parse(cwd).root));
  const includeBoundary = repo === null ? underHome(cwd) : boundary !== home;

  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (dir === boundary) {
      if (includeBoundary) dirs.push(dir);
      return dirs;
    }
    dirs.push(dir);
    if (dirname(dir) === dir) return dirs;
  }
}

const TOO_LARGE = Symbol('too large');

async function readContextFile(path: string): Promise<string | null | typeof TOO_LARGE> {
  try {
    // `path` was checked: a link put in its place since is not followed (ELOOP, skipped below).
    const read = await readTextFile(path, undefined, true);
    if (read.status === 'too-large') return TOO_LARGE;
    return read.status === 'ok' ? read.text : null;
  } catch {
    // Unreadable (permissions, a symlink loop): the agent skips it too.
    return null;
  }
}

function isInside(base: string, path: string): boolean {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
}

function segmentCount(path: string): number {
  return path.split(sep).filter((segment) => segment !== '').length;
}
