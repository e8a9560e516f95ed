// Parsed SKILL.md frontmatter kept between scans, so a reload re-reads only the files that changed.
// An entry is valid while the file's stat (mtime, ctime, size, inode) is unchanged. It holds one reading per
// frontmatter dialect (`frontmatterDialect`: xcsh parses differently, MusePi and OMP alike), or one reading for every
// dialect when the block parsed as YAML at once (`ParsedFrontmatter.anyDialect`, most files): the discoveries of every
// profile share one cache, and a file read by all three is read and parsed once (docs/agents.md "Live"). Bounded by
// entries and by the bytes of text they came from; the least recently used go first. Only frontmatter is kept, never
// the body: 10,000 skills must not pin 10,000 bodies.

import type { Stats } from 'node:fs';
import { type FrontmatterDialect, frontmatterDialect } from '../frontmatter/frontmatter.js';
import type { Profile } from '../types.js';

export interface SkillFileStamp {
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  ino: number;
}

export interface SkillFileCacheStats {
  hits: number;
  misses: number;
}

/** What reading and parsing one SKILL.md gave. */
export interface CachedSkillFile {
  frontmatter: Record<string, unknown>;
  /** The diagnostics of the read and the parse (see `SkillDiagnostic`), replayed on every hit. */
  notes: readonly string[];
}

export interface SkillFileCache {
  /**
   * The frontmatter parsed for `path` under `profile`'s dialect, if the file still has this stamp. Counts a hit or a
   * miss.
   */
  get(path: string, stamp: SkillFileStamp, profile: Profile): Record<string, unknown> | undefined;
  /** `get`, with the notes stored alongside. */
  lookup(path: string, stamp: SkillFileStamp, profile: Profile): CachedSkillFile | undefined;
  /** Whether `lookup` would find a reading, without counting a hit or a miss or making the entry recently used. */
  holds(path: string, stamp: SkillFileStamp, profile: Profile): boolean;
  /** Whether some reading of `path` is kept, whatever its stamp. */
  has(path: string): boolean;
  /**
   * Stores `frontmatter` (frozen) parsed from `textLength` characters of the file with this stamp, for `profile`'s
   * dialect, or for every dialect when `anyDialect`.
   */
  set(
    path: string,
    stamp: SkillFileStamp,
    profile: Profile,
    frontmatter: Record<string, unknown>,
    textLength: number,
    notes?: readonly string[],
    anyDialect?: boolean,
  ): void;
  delete(path: string): void;
  clear(): void;
  readonly size: number;
  readonly stats: Readonly<SkillFileCacheStats>;
}

export const DEFAULT_CACHE_ENTRIES = 50_000;
export const DEFAULT_CACHE_TEXT_BYTES = 64 * 1024 * 1024;

interface Entry {
  stamp: SkillFileStamp;
  /** The reading of every dialect, or of each dialect that read the file. */
  readings: Partial<Record<FrontmatterDialect | 'any', CachedSkillFile>>;
  weight: number;
}

const NO_NOTES: readonly string[] = Object.freeze([]);

export function stampOf(stats: Stats): SkillFileStamp {
  return { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino };
}

export function createSkillFileCache(
  maxEntries = DEFAULT_CACHE_ENTRIES,
  maxTextBytes = DEFAULT_CACHE_TEXT_BYTES,
): SkillFileCache {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  const entries = new Map<string, Entry>();
  const stats: SkillFileCacheStats = { hits: 0, misses: 0 };
  let totalWeight = 0;

  function remove(path: string): void {
    const entry = entries.get(path);
    if (!entry) return;
    entries.delete(path);
    totalWeight -= entry.weight;
  }

  function readingOf(path: string, stamp: SkillFileStamp, profile: Profile): CachedSkillFile | undefined {
    const entry = entries.get(path);
    return entry === undefined || !sameStamp(entry.stamp, stamp)
      ? undefined
      : (entry.readings.any ?? entry.readings[frontmatterDialect(profile)]);
  }

  function lookup(path: string, stamp: SkillFileStamp, profile: Profile): CachedSkillFile | undefined {
    const entry = entries.get(path);
    const reading = readingOf(path, stamp, profile);
    if (reading === undefined) {
      stats.misses++;
      return undefined;
    }
    stats.hits++;
    entries.delete(path);
    entries.set(path, entry as Entry);
    return reading;
  }

  return {
    get(path, stamp, profile) {
      return lookup(path, stamp, profile)?.frontmatter;
    },
    lookup,
    holds(path, stamp, profile) {
      return readingOf(path, stamp, profile) !== undefined;
    },
    has(path) {
      return entries.has(path);
    },
    set(path, stamp, profile, frontmatter, textLength, notes = NO_NOTES, anyDialect = false) {
      // Another dialect's reading of the same file stays beside this one.
      const before = entries.get(path);
      const readings = before !== undefined && sameStamp(before.stamp, stamp) && !anyDialect ? before.readings : {};
      remove(path);
      const weight = Math.max(1, textLength) + (readings === before?.readings ? before.weight : 0);
      if (maxEntries < 1 || weight > maxTextBytes) return;
      const kept = notes.length === 0 ? NO_NOTES : Object.freeze([...notes]);
      entries.set(path, {
        stamp: { ...stamp },
        readings: { ...readings, [anyDialect ? 'any' : frontmatterDialect(profile)]: { frontmatter, notes: kept } },
        weight,
      });
      totalWeight += weight;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && totalWeight <= maxTextBytes) break;
        remove(oldest);
      }
    },
    delete: remove,
    clear() {
      entries.clear();
      totalWeight = 0;
    },
    get size() {
      return entries.size;
    },
    get stats() {
      return { ...stats };
    },
  };
}

function sameStamp(a: SkillFileStamp, b: SkillFileStamp): boolean {
  return a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.ino === b.ino;
}
