// Walks one agent root by that agent's layout (docs/agents.md "Vocabulary"): breadth-first, entries in name order
// (UTF-16 code units) where the agent's own order is unspecified, each real directory walked once (links cannot
// loop), dangling links ignored. Returns the SKILL.md files found and the directories walked (the watcher covers them).
// Links are judged by the rules the default view reads by (SECURITY.md "Links and workspaces"): a link another user
// planted is not followed, and in contain mode a SKILL.md link must stay inside its skill, the workspace or its
// repository, or lead to a file named SKILL.md. What the agent would read and skillsd does not is listed in `refused`.
// Every walk is bounded by the daemon (`server.viewWalkLimits`, docs/api.md "Limits on walks"), whatever the agent's
// own layout: a root linked to `/` used to be walked and watched whole (SECURITY.md "The views"). Past a bound the walk
// keeps what it found and says where it stopped in `limitWarning`.

import type { Dirent, Stats } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { lstat, readdir, realpath, stat } from '../files/sliced-fs.js';
import { DEFAULT_VIEW_WALK_LIMITS, type WalkLimits } from '../files/walk-budget.js';
import { concatFlat } from '../flat-string.js';
import {
  isTrustedLink,
  type LinkPolicy,
  namedFileAllowed,
  untrustedLinkOnPath,
  untrustedLinkText,
} from '../link-trust.js';
import { compareCodeUnits } from '../pipeline/sort-skills.js';
import type { AgentRoot, Found, WalkedDir } from './types.js';

export const SKILL_FILE = 'SKILL.md';

export interface RootWalk {
  found: Found[];
  /** Directories below the root that hold sub-directories: a skill added deep inside them must be seen. */
  innerDirs: string[];
  /** `innerDirs` with their level below the root and what watching each costs: the views' watches are counted by these. */
  innerCosts: WalkedDir[];
  /** The walk stopped at a limit: the agent's own (Codex), or one of the daemon's (`RootWalkBounds`). */
  limitWarning?: string;
  /** The root exists but cannot be read. */
  error?: string;
  /** The root as reported (canonical for canonical layouts); absent when it does not exist. */
  shown?: string;
  /** The real directories walked (a link's target may lie outside the root): a change inside one changes the walk. */
  reals: string[];
  /** Paths the agent would read that the link rules keep skillsd from reading, each with the reason. */
  refused: Array<{ path: string; why: string }>;
}

interface QueuedDir {
  lexical: string;
  shown: string;
  real: string;
  depth: number;
}

/**
 * Directory listings shared by the walks of one computation and kept between them (walk-memo.ts): the agents walk
 * the same roots by different layouts, and each listing is read once. Keyed by real directory.
 */
export interface DirListings {
  /**
   * The entries of the directory whose real path is `real`, listed through `lexical`, in name order (UTF-16 code
   * units; `descending`: the reverse). Shared by every walk: never modified.
   */
  list(real: string, lexical: string, descending: boolean): Promise<readonly Dirent[]>;
  /** What is known of that listing's entries (shared: one `realpath` shows they can be reached, for every walk). */
  listed(real: string): Listed;
}

/** The daemon's bounds on one walk, and the agent whose view is told where a walk stopped. */
export interface RootWalkBounds {
  limits: WalkLimits;
  /** The agent's name (`[skillsd] <agent>: stopped walking …`). */
  agent?: string;
}

/**
 * `links`: the rules of the default view (the daemon's `symlinks` mode, the workspace and its repository); absent, every
 * link is followed as the agent follows it. `bounds`: the daemon's bounds (default `DEFAULT_VIEW_WALK_LIMITS`).
 */
export async function walkRoot(
  root: AgentRoot,
  links?: LinkPolicy,
  listings?: DirListings,
  bounds: RootWalkBounds = { limits: DEFAULT_VIEW_WALK_LIMITS },
): Promise<RootWalk> {
  const layout = root.layout;
  const limits = bounds.limits;
  const out: RootWalk = { found: [], innerDirs: [], innerCosts: [], reals: [], refused: [] };
  let real: string;
  try {
    const info = await stat(root.path);
    if (!info.isDirectory()) return out;
    real = await realpath(root.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return out;
    out.error = (error as Error).message;
    return out;
  }
  const rootShown = layout.canonical ? real : root.path;
  out.shown = rootShown;
  // Paths below a root written as `path.join` writes it are joined without its normalising pass (`childPath`).
  const under = isNormalised(root.path) ? childPath : join;
  if (links !== undefined) {
    // The root itself, reached through another user's link (`<workspace>/.claude -> /home/<you>/…`): not walked.
    const untrusted = await untrustedLinkOnPath(root.path, real);
    if (untrusted !== undefined) {
      out.refused.push({ path: root.path, why: untrustedLinkText(untrusted) });
      return out;
    }
  }
  const visited = new Set<string>([real]);
  const insideRoot = `${real}/`;
  const descending = layout.descending === true;
  out.reals.push(real);
  const queue: QueuedDir[] = [{ lexical: root.path, shown: rootShown, real, depth: 0 }];
  let dirs = 0;
  let entries = 0;
  // The agent's own limits (Codex) are checked first: where both are passed at once, the agent's warning is its own.
  const stop = (bound: 'maxEntries' | 'maxDirectories'): void => {
    out.limitWarning = stoppedText(bounds, rootShown, bound);
  };
  for (let head = 0; head < queue.length; head++) {
    const dir = queue[head] as QueuedDir;
    dirs++;
    if (layout.limits !== undefined && dirs > layout.limits.dirs) {
      out.limitWarning = layout.limits.warning(rootShown);
      break;
    }
    if (dirs > limits.maxDirectories) {
      stop('maxDirectories');
      break;
    }
    let listing: readonly Dirent[];
    try {
      listing =
        listings === undefined
          ? sortedEntries(await readdir(dir.lexical, { withFileTypes: true }), descending)
          : await listings.list(dir.real, dir.lexical, descending);
    } catch (error) {
      if (dir.depth === 0) out.error = (error as Error).message;
      continue;
    }
    let hasSubdir = false;
    let stopped = false;
    // A sub-directory past the depth bound: not walked, said once the listing shows it would have been.
    let tooDeep = false;
    // `leaf` layouts: the sub-directories are queued only once the listing shows no SKILL.md file.
    let isLeaf = false;
    const subdirs: QueuedDir[] = [];
    const listed: Listed = listings?.listed(dir.real) ?? { real: dir.real, searchable: false };
    for (const entry of listing) {
      entries++;
      if (layout.limits !== undefined && entries > layout.limits.entries) {
        out.limitWarning = layout.limits.warning(rootShown);
        stopped = true;
        break;
      }
      if (entries > limits.maxEntries) {
        stop('maxEntries');
        stopped = true;
        break;
      }
      const lexical = under(dir.lexical, entry.name);
      if (layout.markdownFiles === true && isMarkdownFile(entry)) {
        if (dir.depth < layout.minDepth) continue;
        const file = entry.isFile()
          ? childPath(dir.real, entry.name)
          : await skillFile(lexical, entry, layout.fileLinks, dir.real, links);
        if (file === undefined) continue;
        if (typeof file !== 'string') {
          out.refused.push({ path: layout.canonical ? under(dir.shown, entry.name) : lexical, why: file.why });
          continue;
        }
        const filePath = under(dir.shown, entry.name);
        out.found.push({ filePath, lexicalPath: lexical, realPath: file, baseDir: dir.shown, root, rootShown });
        continue;
      }
      const leafFile =
        layout.leaf === true && entry.name === SKILL_FILE
          ? entry.isFile()
            ? childPath(dir.real, entry.name)
            : await skillFile(lexical, entry, layout.fileLinks, dir.real, links)
          : undefined;
      const skillDir = layout.skillDirs === true && entry.name === SKILL_FILE && entry.isDirectory();
      if (entry.name === SKILL_FILE && !skillDir && (layout.leaf !== true || leafFile !== undefined)) {
        if (dir.depth < layout.minDepth) continue;
        const file =
          layout.leaf === true
            ? leafFile
            : entry.isFile()
              ? childPath(dir.real, entry.name)
              : await skillFile(lexical, entry, layout.fileLinks, dir.real, links);
        if (file === undefined) continue;
        isLeaf = true;
        if (typeof file !== 'string') {
          out.refused.push({ path: layout.canonical ? under(dir.shown, SKILL_FILE) : lexical, why: file.why });
          continue;
        }
        out.found.push({
          filePath: under(dir.shown, SKILL_FILE),
          lexicalPath: lexical,
          realPath: file,
          baseDir: dir.shown,
          root,
          rootShown,
        });
        continue;
      }
      if (layout.maxDepth !== null && dir.depth + 1 > layout.maxDepth) continue;
      if (layout.hidden === 'skip' && entry.name.startsWith('.')) continue;
      if (layout.skipNames?.includes(entry.name) === true) continue;
      // A plain directory of a listing known searchable lies in its real directory: no call, no promise.
      const childReal =
        entry.isDirectory() && listed.searchable
          ? childPath(listed.real, entry.name)
          : await directoryTarget(lexical, entry, listed, links);
      if (childReal === undefined) continue;
      if (typeof childReal !== 'string') {
        out.refused.push({ path: lexical, why: childReal.why });
        continue;
      }
      hasSubdir = true;
      if (dir.depth + 1 > limits.maxDepth) {
        tooDeep = true;
        continue;
      }
      const walked = visited.has(childReal);
      if (walked && !(layout.everyPath === true && layout.maxDepth !== null)) continue;
      visited.add(childReal);
      if (!walked && !childReal.startsWith(insideRoot)) out.reals.push(childReal);
      subdirs.push({
        lexical,
        shown: layout.canonical ? childReal : lexical,
        real: childReal,
        depth: dir.depth + 1,
      });
    }
    if (layout.leaf !== true || !isLeaf) {
      queue.push(...subdirs);
      if (tooDeep && out.limitWarning === undefined) out.limitWarning = stoppedText(bounds, rootShown, 'maxDepth');
    }
    // A leaf's sub-directories were not walked: reached again through a link elsewhere, they are.
    else for (const sub of subdirs) visited.delete(sub.real);
    if (hasSubdir && dir.depth > 0) {
      out.innerDirs.push(dir.lexical);
      out.innerCosts.push({ path: dir.lexical, depth: dir.depth, watches: 1 + listing.filter(isWatchedEntry).length });
    }
    if (stopped) break;
  }
  if (layout.pathOrder === true) out.found.sort((a, b) => compareCodeUnits(a.lexicalPath, b.lexicalPath));
  return out;
}

/**
 * The realpath of a file entry named `entry.name` that is a regular file (or a link to one, when links are read); the
 * reason when the link rules refuse it; undefined for anything else. A SKILL.md may also lead to another file named
 * SKILL.md (`namedFileAllowed`); a command file (`*.md`, a `markdownFiles` layout) must stay inside.
 */
async function skillFile(
  path: string,
  entry: Dirent,
  followLinks: boolean,
  realDir: string,
  links: LinkPolicy | undefined,
): Promise<string | { why: string } | undefined> {
  if (entry.isFile()) return childPath(realDir, entry.name);
  if (!entry.isSymbolicLink() || !followLinks) return undefined;
  let real: string;
  try {
    const target = await stat(path);
    if (!target.isFile()) return undefined;
    real = await realpath(path);
    const refused = links === undefined ? undefined : await linkRefused(path, target);
    if (refused !== undefined) return refused;
  } catch {
    return undefined;
  }
  if (links === undefined || !links.contain || namedFileAllowed(real, entry.name, [realDir, ...links.roots])) {
    return real;
  }
  const why =
    entry.name === SKILL_FILE
      ? `SKILL.md is a symbolic link to ${real}, which is outside the skill's directory, the workspace and its ` +
        'repository, and not a file named SKILL.md ("symlinks": "contain")'
      : `${entry.name} is a symbolic link to ${real}, outside the workspace and its repository ("symlinks": "contain")`;
  return { why };
}

/**
 * A directory's entries in name order (UTF-16 code units), or its reverse: names in one directory are distinct, so the
 * descending order is the ascending one reversed.
 */
export function sortedEntries(entries: Dirent[], descending: boolean): Dirent[] {
  entries.sort((a, b) => compareCodeUnits(a.name, b.name));
  return descending ? entries.reverse() : entries;
}

/**
 * `join(dir, name)` for a directory path the walk holds (absolute and normalised: a realpath, a root written as
 * `path.join` writes it, and the paths made from them here) and a name a listing gave (never `.`, `..`, empty or
 * holding `/`): the two joined, without `join`'s pass over the whole path (10,000 skills made some 100,000 joins in
 * one computation). Built flat: the paths of each `Found` are kept with the walk (docs/memory.md "Kept strings").
 */
function childPath(dir: string, name: string): string {
  return dir === '/' ? concatFlat('/', name) : concatFlat(dir, '/', name);
}

/** A path `join` would leave as it is: absolute, normalised, no trailing `/` (the root `/` aside). */
function isNormalised(path: string): boolean {
  return isAbsolute(path) && normalize(path) === path && (path === '/' || !path.endsWith('/'));
}

/** The warning of a walk stopped by one of the daemon's bounds (docs/api.md "Limits on walks"). */
function stoppedText(bounds: RootWalkBounds, root: string, bound: keyof WalkLimits): string {
  const who = bounds.agent === undefined ? '' : ` ${bounds.agent}:`;
  const limit = bounds.limits[bound];
  const where =
    bound === 'maxDepth'
      ? `${limit} levels deep (server.viewWalkLimits.maxDepth); what lies deeper`
      : bound === 'maxEntries'
        ? `${limit} entries (server.viewWalkLimits.maxEntries); what lies past them`
        : `${limit} directories (server.viewWalkLimits.maxDirectories); what lies past them`;
  return `[skillsd]${who} stopped walking ${root} at ${where} is not in this view`;
}

/** An entry the watcher watches in a watched directory: a folder or a link, not starting with a dot. */
function isWatchedEntry(entry: Dirent): boolean {
  return !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink());
}

/** A `*.md` entry that is not a directory (a `markdownFiles` layout's candidates). */
function isMarkdownFile(entry: Dirent): boolean {
  return entry.name.endsWith('.md') && entry.name !== '.md' && !entry.isDirectory();
}

/** A directory being listed: its real path, and whether a `realpath` of one of its entries has succeeded. */
export interface Listed {
  real: string;
  searchable: boolean;
  /**
   * The first `realpath` of a directory entry under way, and whether it succeeded: the walks of other layouts that
   * list the directory meanwhile wait for it instead of asking for their own.
   */
  proof?: Promise<boolean>;
}

/**
 * The realpath of a directory entry (or of a link's target directory); the reason when the link rules refuse the link;
 * undefined for anything else. A directory that is no link lies where its listing's real directory is, as a regular
 * file does (`skillFile`), once one `realpath` below the listing has shown that its entries can be reached at all (a
 * directory readable but not searchable lists names whose `realpath` fails): a tree of 10,000 skill folders paid
 * 10,000 `realpath`s, each resolving every component of the path again.
 */
async function directoryTarget(
  path: string,
  entry: Dirent,
  listed: Listed,
  links: LinkPolicy | undefined,
): Promise<string | { why: string } | undefined> {
  if (entry.isDirectory() && listed.searchable) return childPath(listed.real, entry.name);
  if (!entry.isDirectory() && !entry.isSymbolicLink()) return undefined;
  try {
    if (entry.isSymbolicLink()) {
      const target = await stat(path);
      if (!target.isDirectory()) return undefined;
      const refused = links === undefined ? undefined : await linkRefused(path, target);
      if (refused !== undefined) return refused;
    } else if (listed.proof !== undefined && (await listed.proof)) {
      return childPath(listed.real, entry.name);
    }
    const resolved = realpath(path);
    if (entry.isDirectory()) {
      listed.proof ??= resolved.then(
        () => true,
        () => false,
      );
    }
    const real = await resolved;
    listed.searchable = true;
    return real;
  } catch {
    return undefined;
  }
}

/**
 * The ownership rule for the link at `path` whose target is `target`: the reason it is not followed, if it is not.
 * Throws when the link is gone (the caller skips the entry, like a dangling link).
 */
async function linkRefused(path: string, target: Stats): Promise<{ why: string } | undefined> {
  const link = await lstat(path);
  if (isTrustedLink(link, target)) return undefined;
  return { why: untrustedLinkText({ path, ownerUid: link.uid, targetUid: target.uid }) };
}
