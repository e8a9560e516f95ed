// Walks one agent root by that agent's layout (docs/agents.md "Vocabulary"): breadth-first, entries in name order
// (UTF-16 code units) where the agent's own order is unspecified, each real directory walked once (links cannot
// loop), dangling links ignored. Returns the SKILL.md files found and the directories walked (the watcher covers them).

import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareCodeUnits } from '../pipeline/sort-skills.js';
import type { AgentRoot, Found } from './types.js';

export const SKILL_FILE = 'SKILL.md';

export interface RootWalk {
  found: Found[];
  /** Directories below the root that hold sub-directories: a skill added deep inside them must be seen. */
  innerDirs: string[];
  /** The walk stopped at a limit (Codex). */
  limitWarning?: string;
  /** The root exists but cannot be read. */
  error?: string;
  /** The root as reported (canonical for canonical layouts); absent when it does not exist. */
  shown?: string;
  /** The real directories walked (a link's target may lie outside the root): a change inside one changes the walk. */
  reals: string[];
}

interface QueuedDir {
  lexical: string;
  shown: string;
  real: string;
  depth: number;
}

export async function walkRoot(root: AgentRoot): Promise<RootWalk> {
  const layout = root.layout;
  const out: RootWalk = { found: [], innerDirs: [], reals: [] };
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
  const visited = new Set<string>([real]);
  out.reals.push(real);
  const queue: QueuedDir[] = [{ lexical: root.path, shown: rootShown, real, depth: 0 }];
  let dirs = 0;
  let entries = 0;
  for (let head = 0; head < queue.length; head++) {
    const dir = queue[head] as QueuedDir;
    dirs++;
    if (layout.limits !== undefined && dirs > layout.limits.dirs) {
      out.limitWarning = layout.limits.warning(rootShown);
      break;
    }
    let listing: Dirent[];
    try {
      listing = await readdir(dir.lexical, { withFileTypes: true });
    } catch (error) {
      if (dir.depth === 0) out.error = (error as Error).message;
      continue;
    }
    listing.sort((a, b) => compareCodeUnits(a.name, b.name));
    let hasSubdir = false;
    let stopped = false;
    for (const entry of listing) {
      entries++;
      if (layout.limits !== undefined && entries > layout.limits.entries) {
        out.limitWarning = layout.limits.warning(rootShown);
        stopped = true;
        break;
      }
      const lexical = join(dir.lexical, entry.name);
      if (entry.name === SKILL_FILE) {
        const file = await skillFile(lexical, entry, layout.fileLinks, dir.real);
        if (file === undefined || dir.depth < layout.minDepth) continue;
        out.found.push({
          filePath: join(dir.shown, SKILL_FILE),
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
      const childReal = await directoryTarget(lexical, entry);
      if (childReal === undefined) continue;
      hasSubdir = true;
      if (visited.has(childReal)) continue;
      visited.add(childReal);
      if (!childReal.startsWith(`${real}/`)) out.reals.push(childReal);
      queue.push({
        lexical,
        shown: layout.canonical ? childReal : lexical,
        real: childReal,
        depth: dir.depth + 1,
      });
    }
    if (hasSubdir && dir.depth > 0) out.innerDirs.push(dir.lexical);
    if (stopped) break;
  }
  return out;
}

/** The realpath of a SKILL.md entry that is a regular file (or a link to one, when links are read). */
async function skillFile(
  path: string,
  entry: Dirent,
  followLinks: boolean,
  realDir: string,
): Promise<string | undefined> {
  if (entry.isFile()) return join(realDir, SKILL_FILE);
  if (!entry.isSymbolicLink() || !followLinks) return undefined;
  try {
    const info = await stat(path);
    return info.isFile() ? await realpath(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The realpath of a directory entry (or of a link's target directory); undefined for anything else. */
async function directoryTarget(path: string, entry: Dirent): Promise<string | undefined> {
  if (!entry.isDirectory() && !entry.isSymbolicLink()) return undefined;
  try {
    if (entry.isSymbolicLink() && !(await stat(path)).isDirectory()) return undefined;
    return await realpath(path);
  } catch {
    return undefined;
  }
}
