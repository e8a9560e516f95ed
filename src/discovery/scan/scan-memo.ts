// The scans of the previous discovery, kept so a reload re-reads only what a change touched: a directory is listed
// again and only its touched entries (`<dir>/<entry>/…`) are read again; a change to the directory itself
// (`<dir>`) reads all of its entries again.
// What comes after the scans (docs/discovery.md §5: precedence, filters, realpath dedup, custom directories, managed skills,
// collisions) is in memory: it either runs again over all of them or, when the directories scanned again give the
// same candidates as before, updates the previous answer (pipeline-memo.ts, kept here as `pipeline`). Either way the
// answer is the one a full discovery would give as long as every remembered scan still matches its directory. That is
// the caller's promise: it reports every changed path, and anything it cannot pin to a scanned directory (a `.git`
// marker, a path outside every directory) makes `invalidate` answer false, after which the caller clears the memo and
// the next discovery scans everything.
// A directory whose entries a change touched is updated rather than scanned again (scan-update.ts): its listing is read
// again when its stamp (`stampOf`) moved or a touched entry is not what the listing had, and otherwise taken as it was.
// So an entry added or removed that nobody reported is found by the next re-scan of that directory only if the
// directory's stamp moved meanwhile (it does on Linux file systems, but for two changes within one tick of the coarse
// clock that stamps directories, neither of which moved its link count or size): the caller's promise to report
// every changed path covers entries, not only their files.
// A directory reached through a link (git-sync's `current`) is remembered with its real path: when a re-scan finds the
// link pointing elsewhere, every entry is read again, whichever of them were reported (the watcher may report the
// entries that came and went before the link itself, and an entry of the same name in the new target is another file).

import { realpath, stat } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import type { PipelineMemo } from '../pipeline/pipeline-memo.js';
import { sameJson } from '../same-json.js';
import type { Skill, SkillDiagnostic } from '../types.js';
import type { ScanOptions, ScanResult } from './scan-options.js';
import type { RememberedScan, ScanRound } from './scan-round.js';
import { scanSkillsDir } from './scan-skills-dir.js';
import type { ScannedEntry } from './scanned-entry.js';

interface MemoEntry {
  dir: string;
  result: ScanResult;
  diagnostics: readonly SkillDiagnostic[];
  realpaths: ReadonlyMap<string, string>;
  scanned: ReadonlyMap<string, ScannedEntry>;
  /** The directory's real path when scanned (undefined: it could not be resolved; UNSETTLED: it kept moving). */
  realDir: string | undefined;
  /** The directory's stamp taken before the scan read its listing (undefined: none could be taken). */
  stamp: string | undefined;
  /** `entries`: list again, read the `touched` entries again; `all`: read every entry again. */
  stale: 'no' | 'entries' | 'all';
  touched: Set<string>;
}

export interface ScanMemo {
  /**
   * Marks what `paths` touch: `<dir>` itself → the whole scan of that directory; `<dir>/<entry>/…` → that entry (and
   * the listing). False when a path is a `.git` marker (REPO, hence the directory list, may move) or lies in no
   * remembered directory: the caller must then `clear()`, since nothing tells which scans it changed.
   */
  invalidate(paths: Iterable<string>): boolean;
  clear(): void;
  /**
   * Scans `dir` unless an unchanged scan with the same options is remembered; replays its diagnostics, and its
   * realpaths when `options.realpaths` is given (`prune` also hands them over without copying).
   */
  scan(dir: string, options: ScanOptions): Promise<ScanResult>;
  /** Drops the scans not used since the last call (directories no longer scanned); tells what the scans did. */
  prune(): ScanRound;
  /** Remembered scans that are still valid. */
  readonly size: number;
  /** The previous discovery's loaded skills by position: a hint that makes sorting the next ones near-linear. */
  skillOrder: Map<Skill, number>;
  /** What the previous discovery's §5 pipeline decided (pipeline-memo.ts); forgotten with the scans. */
  pipeline: PipelineMemo | undefined;
}

/** How many times one scan is run again while the link it goes through keeps moving. */
const MAX_SCAN_ATTEMPTS = 3;
/** A real path no directory has: the scan remembered with it is never reused entry by entry. */
const UNSETTLED = '\0unsettled';

export function createScanMemo(scan: typeof scanSkillsDir = scanSkillsDir): ScanMemo {
  const entries = new Map<string, MemoEntry>();
  const used = new Set<string>();
  let round: ScanRound = emptyRound();

  return {
    skillOrder: new Map(),
    pipeline: undefined,
    invalidate(paths) {
      const dirs = new Set([...entries.values()].map((entry) => entry.dir));
      const whole = new Set<string>();
      const touched = new Map<string, Set<string>>();
      for (const raw of paths) {
        const path = resolve(raw);
        if (basename(path) === '.git') return false;
        let found = false;
        for (const dir of dirs) {
          const prefix = dir === sep ? dir : `${dir}${sep}`;
          if (path === dir) whole.add(dir);
          else if (path.startsWith(prefix)) {
            const name = path.slice(prefix.length).split(sep)[0] ?? '';
            const names = touched.get(dir) ?? new Set<string>();
            names.add(name);
            touched.set(dir, names);
          } else continue;
          found = true;
        }
        if (!found) return false;
      }
      for (const entry of entries.values()) {
        if (whole.has(entry.dir)) entry.stale = 'all';
        const names = touched.get(entry.dir);
        if (names === undefined) continue;
        if (entry.stale === 'no') entry.stale = 'entries';
        for (const name of names) entry.touched.add(name);
      }
      return true;
    },
    clear() {
      entries.clear();
      used.clear();
      round = emptyRound();
      this.skillOrder = new Map();
      this.pipeline = undefined;
    },
    async scan(dir, options) {
      const key = keyOf(dir, options);
      used.add(key);
      let entry = entries.get(key);
      if (entry === undefined || entry.stale !== 'no') {
        const previous = entry;
        const { cache } = options;
        let [realDir, stamp] = await Promise.all([realpath(dir).catch(() => undefined), stampOf(dir)]);
        // The link moved to another target: nothing of the old one can be reused.
        let reuse = previous?.stale === 'entries' && previous.realDir === realDir ? previous : undefined;
        let diagnostics: SkillDiagnostic[];
        let realpaths: Map<string, string>;
        let scanned: Map<string, ScannedEntry>;
        let result: ScanResult;
        let listing: NonNullable<ScanOptions['listing']>;
        for (let attempt = 1; ; attempt++) {
          diagnostics = [];
          realpaths = new Map();
          scanned = new Map();
          listing = { read: false };
          result = await scan(dir, {
            requireDescription: options.requireDescription,
            ...(options.shownDir === undefined ? {} : { shownDir: options.shownDir }),
            profile: options.profile,
            provider: options.provider,
            providerName: options.providerName,
            level: options.level,
            ...(options.plugin === undefined ? {} : { plugin: options.plugin }),
            ...(options.namePrefix === undefined ? {} : { namePrefix: options.namePrefix }),
            ...(cache === undefined ? {} : { cache }),
            ...(options.links === undefined ? {} : { links: options.links }),
            ...(options.blocking === true ? { blocking: true } : {}),
            ...(options.sliced === true ? { sliced: true } : {}),
            ...(realDir === undefined || realDir === UNSETTLED ? {} : { realDir }),
            diagnostics,
            realpaths,
            entries: scanned,
            listing,
            ...(reuse === undefined ? {} : { reuse: reuseOf(reuse, stamp) }),
          }).catch((error: unknown) => {
            round.failed = true;
            throw error;
          });
          // A link swapped while the scan ran (a reload already under way when git-sync publishes): the listing and
          // the entries kept may be of either target. Scan again, all of it, until the link holds still.
          const after = await realpath(dir).catch(() => undefined);
          if (after === realDir) break;
          reuse = undefined;
          realDir = after;
          stamp = await stampOf(dir);
          // Still moving after a few tries: answer the last scan, and let the next one reuse nothing of it.
          if (attempt === MAX_SCAN_ATTEMPTS) {
            realDir = UNSETTLED;
            break;
          }
        }
        // An updated scan hands its maps over instead of filling the fresh ones.
        const entriesOut: ReadonlyMap<string, ScannedEntry> = listing.entries ?? scanned;
        const realpathsOut: ReadonlyMap<string, string> = listing.realpaths ?? realpaths;
        // An updated scan kept the objects of what did not change itself, and knows which records changed: no walk of
        // every record and diagnostic of the directory (7,612 siblings at N = 50,000).
        const changed = listing.entries === undefined ? undefined : listing.changed;
        if (previous !== undefined && changed === undefined) {
          result.skills = keepUnchanged(previous.result.skills, result.skills);
          diagnostics = keepDiagnostics(previous.diagnostics, diagnostics);
        }
        entry = {
          dir: resolve(dir),
          result,
          diagnostics,
          realpaths: realpathsOut,
          scanned: entriesOut,
          realDir,
          // A directory that could not be listed is listed again next time, whatever its stamp.
          stamp: listing.read ? stamp : undefined,
          stale: 'no',
          touched: new Set(),
        };
        entries.set(key, entry);
        round.rescanned.push({
          provider: options.provider,
          before: previous === undefined ? undefined : remembered(previous),
          after: remembered(entry),
          ...(changed === undefined ? {} : { changed }),
        });
      }
      round.realpaths.push(entry.realpaths);
      options.diagnostics?.push(...entry.diagnostics);
      if (options.realpaths !== undefined)
        for (const [path, real] of entry.realpaths) options.realpaths.set(path, real);
      return { skills: [...entry.result.skills], warnings: [...entry.result.warnings] };
    },
    prune() {
      const done = round;
      for (const key of entries.keys()) {
        if (used.has(key)) continue;
        entries.delete(key);
        done.dropped = true;
      }
      used.clear();
      round = emptyRound();
      return done;
    },
    get size() {
      let fresh = 0;
      for (const entry of entries.values()) if (entry.stale === 'no') fresh++;
      return fresh;
    },
  };
}

/**
 * What a re-scan of `entry`'s directory is given of it: its entries, and its outputs to update when few entries moved
 * (scan-update.ts); its listing is taken as unchanged when the directory's stamp is the one taken before it was read.
 */
function reuseOf(entry: MemoEntry, stamp: string | undefined): NonNullable<ScanOptions['reuse']> {
  return {
    entries: entry.scanned,
    touched: entry.touched,
    previous: {
      skills: entry.result.skills,
      diagnostics: entry.diagnostics,
      realpaths: entry.realpaths,
      listingUnchanged: stamp !== undefined && stamp === entry.stamp,
    },
  };
}

/**
 * The directory as a listing depends on it: which one (device, inode), when its entries last changed (modification
 * and change times in nanoseconds: an entry added, removed or renamed moves both), and its link count and size (which
 * most file systems move with a subdirectory or an entry added or removed, also within one tick of a coarse clock).
 * Undefined when it cannot be stat'ed.
 */
async function stampOf(dir: string): Promise<string | undefined> {
  const stats = await stat(dir, { bigint: true }).catch(() => undefined);
  if (stats === undefined) return undefined;
  return `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.nlink}:${stats.size}`;
}

function emptyRound(): ScanRound {
  return { rescanned: [], failed: false, dropped: false, realpaths: [] };
}

function remembered(entry: MemoEntry): RememberedScan {
  return {
    skills: entry.result.skills,
    warnings: entry.result.warnings,
    realpaths: entry.realpaths,
    diagnostics: entry.diagnostics,
  };
}

/**
 * The new records, each replaced by the previous record of the same file when both serialise alike: the snapshot's
 * diff and serialisation then see the very same objects for every skill an edit did not touch.
 */
function keepUnchanged(previous: readonly Skill[], next: Skill[]): Skill[] {
  // Both lists are in the same sorted order: the same files at the same positions need no lookup.
  const byPath =
    previous.length === next.length && next.every((skill, i) => skill.filePath === previous[i]?.filePath)
      ? undefined
      : new Map(previous.map((skill) => [skill.filePath, skill]));
  return next.map((skill, i) => {
    const old = byPath === undefined ? previous[i] : byPath.get(skill.filePath);
    return old !== undefined && old !== skill && sameJson(old, skill) ? old : skill;
  });
}

/**
 * The new diagnostics, each replaced by the previous object of the same path and message: the serialiser then keeps
 * the bytes of every diagnostic an edit did not touch. Both lists are ordered by path (`scanSkillsDir`); a list that
 * is not only finds fewer of them.
 */
function keepDiagnostics(previous: readonly SkillDiagnostic[], next: SkillDiagnostic[]): SkillDiagnostic[] {
  let j = 0;
  return next.map((diagnostic) => {
    while (j < previous.length && previous[j]!.skillPath < diagnostic.skillPath) j++;
    for (let k = j; k < previous.length && previous[k]!.skillPath === diagnostic.skillPath; k++) {
      if (previous[k]!.message === diagnostic.message) return previous[k]!;
    }
    return diagnostic;
  });
}

/** Every option that changes what a scan returns (the cache does not). */
function keyOf(dir: string, options: ScanOptions): string {
  const { requireDescription, profile, provider, providerName, level, shownDir, plugin, namePrefix, links } = options;
  return JSON.stringify([
    resolve(dir),
    shownDir,
    requireDescription,
    profile,
    provider,
    providerName,
    level,
    plugin,
    namePrefix,
    links ?? null,
  ]);
}
