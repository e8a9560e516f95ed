// Context files (SKILLS.md §9): the AGENTS.md files an agent started in CWD loads, found by walking up from CWD to a
// boundary that depends on where the repository and HOME are. Served by `GET /context-files` (API.md).

import { basename, dirname, parse, resolve, sep } from 'node:path';
import { readTextFile } from './read-text-file.js';
import type { Profile } from './types.js';
import { findRepoRoot, walkUp } from './workspace-context.js';

export interface ContextFile {
  path: string;
  content: string;
  level: 'project';
  /** segments(CWD) − segments(dir): 0 for CWD itself, 1 for its parent, … */
  depth: number;
}

export interface ContextFilesOptions {
  home: string;
  cwd: string;
  profile: Profile;
}

const CONTEXT_FILE_NAME = 'AGENTS.md';

/**
 * The non-empty AGENTS.md files of the walk, closest first. Unreadable files, non-regular files and files over
 * `MAX_TEXT_FILE_BYTES` are skipped.
 */
export async function findContextFiles(options: ContextFilesOptions): Promise<ContextFile[]> {
  const cwd = resolve(options.cwd);
  const repoRoot = await findRepoRoot(cwd);
  const files: ContextFile[] = [];
  for (const dir of contextFileDirs({ home: options.home, cwd, repoRoot, profile: options.profile })) {
    // A file in a directory whose own name starts with `.` (`.config`, `.musepi`, …) is tool state, not context.
    if (basename(dir).startsWith('.')) continue;
    const path = resolve(dir, CONTEXT_FILE_NAME);
    const content = await readContextFile(path);
    if (content === null || content === '') continue;
    files.push({ path, content, level: 'project', depth: segmentCount(cwd) - segmentCount(dir) });
  }
  return files;
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

async function readContextFile(path: string): Promise<string | null> {
  try {
    const read = await readTextFile(path);
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
