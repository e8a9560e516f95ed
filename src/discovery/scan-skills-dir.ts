// Scanning one skills directory (SKILLS.md §3) into skill records (§1).

import type { Dirent, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFrontmatter } from './frontmatter.js';
import { readSkillFile } from './read-skill-file.js';
import { type SkillFileCache, stampOf } from './skill-file-cache.js';
import { compareSkills } from './sort-skills.js';
import type { Level, Profile, Skill } from './types.js';

export interface ScanOptions {
  requireDescription: boolean;
  profile: Profile;
  provider: string;
  providerName: string;
  level: Level;
  cache?: SkillFileCache;
}

export interface ScanResult {
  skills: Skill[];
  /** Bare text; the caller adds its prefix. */
  warnings: string[];
}

export const SKILL_FILE_NAME = 'SKILL.md';

/** Files read at once: enough to keep the disk busy, few enough not to exhaust descriptors with 10,000 skills. */
const READ_CONCURRENCY = 64;

export async function scanSkillsDir(dir: string, options: ScanOptions): Promise<ScanResult> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return { skills: [], warnings: [] };
    return { skills: [], warnings: [`Failed to read skills directory: ${dir} (${String(error)})`] };
  }
  // Exactly one level deep; hidden entries and plain files are not skills; a symlink is judged by its target below.
  const candidates = entries.filter(
    (entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()),
  );
  const loaded = await mapWithLimit(candidates, READ_CONCURRENCY, (entry) => loadSkill(dir, entry.name, options));
  const skills = loaded.filter((skill): skill is Skill => skill !== undefined);
  skills.sort(compareSkills);
  return { skills, warnings: [] };
}

/** One candidate `<dir>/<entryName>`; undefined when it is silently not a skill (§3 steps 2–3). */
async function loadSkill(dir: string, entryName: string, options: ScanOptions): Promise<Skill | undefined> {
  const baseDir = join(dir, entryName);
  const filePath = join(baseDir, SKILL_FILE_NAME);
  const frontmatter = await readFrontmatter(filePath, options);
  if (!frontmatter) return undefined;
  if (frontmatter.enabled === false) return undefined;
  if (options.requireDescription && !frontmatter.description) return undefined;
  const { name, description } = frontmatter;
  return {
    name: typeof name === 'string' && name.trim() !== '' ? name.trim() : entryName,
    description: typeof description === 'string' ? description : '',
    filePath,
    baseDir,
    hide: options.profile !== 'xcsh' && (frontmatter.hide === true || frontmatter.disableModelInvocation === true),
    source: {
      id: `${options.provider}:${options.level}`,
      provider: options.provider,
      providerName: options.providerName,
      level: options.level,
      path: filePath,
    },
    frontmatter,
  };
}

/** The file's normalised frontmatter; undefined when it is missing, not a file, empty or unreadable. */
async function readFrontmatter(filePath: string, options: ScanOptions): Promise<Record<string, unknown> | undefined> {
  let stats: Stats;
  try {
    // Follows symlinks: a dangling link, a link to a file (ENOTDIR) or a missing SKILL.md all end here.
    stats = await stat(filePath);
  } catch {
    return undefined;
  }
  if (!stats.isFile() || stats.size === 0) return undefined;
  const stamp = stampOf(stats);
  const cached = options.cache?.get(filePath, stamp, options.profile);
  if (cached) return cached;
  let text: string;
  try {
    text = await readSkillFile(filePath);
  } catch {
    return undefined;
  }
  if (text === '') return undefined;
  const { frontmatter } = parseFrontmatter(text, options.profile);
  options.cache?.set(filePath, stamp, options.profile, frontmatter, text.length);
  return frontmatter;
}

async function mapWithLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
