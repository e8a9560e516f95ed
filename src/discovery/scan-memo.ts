// The scans of the previous discovery, kept so a reload re-scans only the skills directories a change touched.
// Everything after the scans (SKILLS.md §5: precedence, filters, realpath dedup, custom directories, managed skills,
// collisions) is in memory and runs again over all of them, so the answer is the one a full discovery would give as
// long as every remembered scan still matches its directory. That is the caller's promise: it reports every changed
// path, and anything it cannot pin to a scanned directory (a `.git` marker, a path outside every directory) makes
// `invalidate` answer false, after which the caller clears the memo and the next discovery scans everything.

import { basename, resolve, sep } from 'node:path';
import { sameJson } from './same-json.js';
import { type ScanOptions, type ScanResult, scanSkillsDir } from './scan-skills-dir.js';
import type { Skill, SkillDiagnostic } from './types.js';

interface MemoEntry {
  dir: string;
  result: ScanResult;
  diagnostics: readonly SkillDiagnostic[];
  realpaths: ReadonlyMap<string, string>;
  /** Invalidated: scanned again on next use, keeping the records that did not change. */
  stale: boolean;
}

export interface ScanMemo {
  /**
   * Forgets every scan whose directory holds one of `paths` (the directory itself or anything below it). False when
   * a path is a `.git` marker (REPO, hence the directory list, may move) or lies in no remembered directory: the
   * caller must then `clear()`, since nothing tells which scans it changed.
   */
  invalidate(paths: Iterable<string>): boolean;
  clear(): void;
  /** Scans `dir` unless an unchanged scan with the same options is remembered; replays its diagnostics. */
  scan(dir: string, options: ScanOptions): Promise<ScanResult>;
  /** Drops the scans not used since the last call (directories no longer scanned). */
  prune(): void;
  readonly size: number;
}

export function createScanMemo(scan: typeof scanSkillsDir = scanSkillsDir): ScanMemo {
  const entries = new Map<string, MemoEntry>();
  const used = new Set<string>();

  return {
    invalidate(paths) {
      const dirs = new Set([...entries.values()].map((entry) => entry.dir));
      const stale = new Set<string>();
      for (const raw of paths) {
        const path = resolve(raw);
        if (basename(path) === '.git') return false;
        let found = false;
        for (const dir of dirs) {
          if (path === dir || path.startsWith(dir === sep ? dir : `${dir}${sep}`)) {
            stale.add(dir);
            found = true;
          }
        }
        if (!found) return false;
      }
      for (const entry of entries.values()) if (stale.has(entry.dir)) entry.stale = true;
      return true;
    },
    clear() {
      entries.clear();
      used.clear();
    },
    async scan(dir, options) {
      const key = keyOf(dir, options);
      used.add(key);
      let entry = entries.get(key);
      if (entry === undefined || entry.stale) {
        const previous = entry;
        const diagnostics: SkillDiagnostic[] = [];
        const realpaths = new Map<string, string>();
        const { cache } = options;
        const result = await scan(dir, {
          requireDescription: options.requireDescription,
          profile: options.profile,
          provider: options.provider,
          providerName: options.providerName,
          level: options.level,
          ...(cache === undefined ? {} : { cache }),
          diagnostics,
          realpaths,
        });
        if (previous !== undefined) result.skills = keepUnchanged(previous.result.skills, result.skills);
        entry = { dir: resolve(dir), result, diagnostics, realpaths, stale: false };
        entries.set(key, entry);
      }
      options.diagnostics?.push(...entry.diagnostics);
      if (options.realpaths !== undefined)
        for (const [path, real] of entry.realpaths) options.realpaths.set(path, real);
      return { skills: [...entry.result.skills], warnings: [...entry.result.warnings] };
    },
    prune() {
      for (const key of entries.keys()) if (!used.has(key)) entries.delete(key);
      used.clear();
    },
    get size() {
      let fresh = 0;
      for (const entry of entries.values()) if (!entry.stale) fresh++;
      return fresh;
    },
  };
}

/**
 * The new records, each replaced by the previous record of the same file when both serialise alike: the snapshot's
 * diff and serialisation then see the very same objects for every skill an edit did not touch.
 */
function keepUnchanged(previous: readonly Skill[], next: Skill[]): Skill[] {
  const byPath = new Map(previous.map((skill) => [skill.filePath, skill]));
  return next.map((skill) => {
    const old = byPath.get(skill.filePath);
    return old !== undefined && sameJson(old, skill) ? old : skill;
  });
}

/** Every option that changes what a scan returns (the cache does not). */
function keyOf(dir: string, options: ScanOptions): string {
  const { requireDescription, profile, provider, providerName, level } = options;
  return JSON.stringify([resolve(dir), requireDescription, profile, provider, providerName, level]);
}
