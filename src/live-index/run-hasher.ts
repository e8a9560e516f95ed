// A list of JSON items serialised and hashed by runs of consecutive items, the runs cut by the items' own content and
// kept from one version of the list to the next: the content hash of the `/skills` answer (snapshot-json.ts, whose
// top says why runs are cut by content and not by position) and that of each agent view (view-comparison.ts) are
// made this way, so that an edit hashes again the run it falls in, not the whole list (docs/index-and-events.md
// §Event ids).

import { createHash, type Hash } from 'node:crypto';
import type { SkillDiagnostic } from '../discovery/types.js';
import { COMMA, serialiseAll } from './comma-lists.js';

/** Skills per hashed run on average: one edit re-hashes ≈ 64 × 770 bytes at the fixture's record size. */
export const CHUNK_SKILLS = 64;
/** The longest run: names that rarely end one cannot make a run of thousands. */
export const MAX_CHUNK_SKILLS = 4 * CHUNK_SKILLS;

/** SHA-256 of the items `fragments[start, end)` joined with ','. */
export function chunkDigest(fragments: readonly Buffer[], start: number, end: number): Buffer {
  const hash = createHash('sha256');
  for (let i = start; i < end; i++) {
    if (i > start) hash.update(COMMA);
    hash.update(fragments[i]!);
  }
  return hash.digest();
}

/** Whether a run of skills ends after the skill named `name` (FNV-1a of its UTF-16 code units, see the top). */
export function endsChunk(name: string): boolean {
  return (fnv1a(FNV_OFFSET, name) & (CHUNK_SKILLS - 1)) === 0;
}

/** Whether a run of diagnostics ends after `diagnostic` (FNV-1a of its path, a NUL and its message). */
export function endsDiagnosticChunk(diagnostic: SkillDiagnostic): boolean {
  return endsPathChunk(diagnostic.skillPath, diagnostic.message);
}

/** Whether a run of items about a path ends after one with this path and message (as `endsDiagnosticChunk`). */
export function endsPathChunk(path: string, message: string): boolean {
  const hash = fnv1a(Math.imul(fnv1a(FNV_OFFSET, path), FNV_PRIME), message);
  return (hash & (CHUNK_SKILLS - 1)) === 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnv1a(start: number, text: string): number {
  let hash = start;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

/** The end (exclusive) of each run of `names`' skills, in order (see the top of this file). */
export function chunkEnds(names: readonly string[]): number[] {
  return runEnds(names.map(endsChunk));
}

/** The end (exclusive) of each run of `diagnostics`, in order (see the top of this file). */
export function diagnosticChunkEnds(diagnostics: readonly SkillDiagnostic[]): number[] {
  return runEnds(diagnostics.map(endsDiagnosticChunk));
}

/** Where runs end, given whether a run ends after each item (or once it holds MAX_CHUNK_SKILLS). */
function runEnds(cuts: readonly boolean[]): number[] {
  const ends: number[] = [];
  let start = 0;
  for (let i = 0; i < cuts.length; i++) {
    if (cuts[i] || i + 1 - start === MAX_CHUNK_SKILLS) {
      ends.push(i + 1);
      start = i + 1;
    }
  }
  if (start < cuts.length) ends.push(cuts.length);
  return ends;
}

/** A list's part of the content hash: how many items, and the digest of each run of them. */
export interface HashedList {
  count: number;
  runs: readonly Buffer[];
}

/** Feeds a list's part to a content hash: its number of items, its number of runs, then the runs' digests. */
export function hashList(hash: Hash, list: HashedList): void {
  const sizes = Buffer.alloc(8);
  sizes.writeUInt32BE(list.count, 0);
  sizes.writeUInt32BE(list.runs.length, 4);
  hash.update(sizes);
  // One update over the digests joined: a call per run cost ≈ 1 µs each, 1,200 runs at 50,000 skills.
  hash.update(Buffer.concat(list.runs as Buffer[]));
}

/** How far ahead of an item that is not where it was the previous list is searched for it (removed items). */
const REALIGN_WINDOW = 4;

/** One run of a list as last hashed: where it starts, how many items it holds, its digest. */
interface Run {
  start: number;
  length: number;
  digest: Buffer;
}

/**
 * One list of the answer (the skills, the diagnostics) serialised and hashed by runs, keeping from one call to the
 * next the bytes of each item of the last list and the digest of each run. A reload keeps the very object of every
 * item it did not touch (results are never changed after discovery), so the new list and the last one share a head
 * and a tail of identical objects: only the items between them are placed, and only the runs over those are cut and
 * hashed again. An edit, a skill added or one removed at 50,000 skills thus costs its own record and run plus a
 * pointer comparison per kept item, where placing every item cost milliseconds (docs/performance.md).
 * Only the last list's bytes are kept, in the very array the last content holds: once its body is assembled they are
 * views of it, and nothing else here holds the Buffers they were before.
 */
export class RunHasher<T extends object> {
  private items: readonly T[] = [];
  private fragments: Buffer[] = [];
  /** The runs in order: each starts where the one before it ends. */
  private runs: readonly Run[] = [];
  /** Each run by its first item: a run over the very same items keeps its digest. */
  private byFirst = new Map<T, Run>();
  /** Items whose run was hashed again by the last `update` (tests). */
  rehashed = 0;
  /** Items the last `update` placed one by one: those between the head and tail it kept (tests). */
  placed = 0;

  constructor(private readonly endsAfter: (item: T) => boolean) {}

  update(items: readonly T[]): { fragments: Buffer[]; list: HashedList } {
    this.rehashed = 0;
    if (items === this.items) {
      this.placed = 0;
      return { fragments: this.fragments, list: this.list() };
    }
    const previous = this.items;
    const shorter = Math.min(previous.length, items.length);
    let head = 0;
    while (head < shorter && previous[head] === items[head]) head++;
    let tail = 0;
    while (tail < shorter - head && previous[previous.length - 1 - tail] === items[items.length - 1 - tail]) tail++;
    const oldEnd = previous.length - tail;
    const newEnd = items.length - tail;
    this.placed = newEnd - head;
    const fragments = this.fragments
      .slice(0, head)
      .concat(this.placeBetween(items, head, newEnd, oldEnd), this.fragments.slice(oldEnd));
    this.runs = this.cutAgain(items, fragments, head, newEnd, items.length - previous.length);
    this.items = items;
    this.fragments = fragments;
    this.byFirst = new Map(this.runs.map((run) => [items[run.start]!, run]));
    return { fragments, list: this.list() };
  }

  /**
   * The bytes of `items[from, to)`, which take the place of the last list's `[from, oldEnd)`. Nearly
   * every item there is the very next one of the last list (a look-ahead steps over removed ones); one it cannot
   * place is looked up by object among those, and serialised anew when it was not there.
   */
  private placeBetween(items: readonly T[], from: number, to: number, oldEnd: number): Buffer[] {
    const previous = this.items;
    // The first list is serialised in one go: one Buffer for all of it instead of one per item (on a cold start, at
    // 10,000 skills, the per-item Buffers' pool slabs and their collection cost more than the JSON itself).
    if (previous.length === 0) return serialiseAll(items.slice(from, to));
    const fragments = new Array<Buffer>(to - from);
    let positions: Map<T, number> | undefined;
    let at = from;
    for (let i = from; i < to; i++) {
      const item = items[i]!;
      let found = previous[at] === item ? at : -1;
      for (let k = at + 1; found < 0 && k < Math.min(oldEnd, at + REALIGN_WINDOW + 1); k++) {
        if (previous[k] === item) found = k;
      }
      if (found < 0 && oldEnd > from) {
        positions ??= new Map(previous.slice(from, oldEnd).map((previousItem, k) => [previousItem, from + k]));
        found = positions.get(item) ?? -1;
      }
      if (found < 0) {
        // Items are never changed after discovery; one that is frozen later still serialises the same.
        const bytes = Buffer.from(JSON.stringify(item), 'utf8');
        // A record read again with the same content (a full rebuild gives every skill a new object) keeps the bytes
        // of the one it replaces, a view of the last body: the new Buffer goes at once and the body stays the one
        // copy. (Looked for as the identical objects are: from `at`, past an item that was edited or removed.)
        for (let k = at; found < 0 && k < Math.min(oldEnd, at + REALIGN_WINDOW + 1); k++) {
          if (this.fragments[k]!.equals(bytes)) found = k;
        }
        if (found < 0) {
          fragments[i - from] = bytes;
          continue;
        }
      }
      fragments[i - from] = this.fragments[found]!;
      at = found + 1;
    }
    return fragments;
  }

  /**
   * The runs of the new list: the last list's runs before `head` as they were; from the run holding `head` (whose
   * items it may now share with new ones), runs cut again by the rule of the top of this file until a cut past the
   * placed items falls where one of the last list's runs started, `shift` positions earlier; from there on, that
   * list's runs again, moved by `shift` (the same items from the same start give the same cuts and digests).
   */
  private cutAgain(
    items: readonly T[],
    fragments: readonly Buffer[],
    head: number,
    placedEnd: number,
    shift: number,
  ): Run[] {
    const old = this.runs;
    // A run that ended only because its list did (no cut after its last item) takes new items after it.
    let first = head < this.items.length ? runAt(old, head) : old.length - 1;
    if (first < 0) first = 0;
    const runs = old.slice(0, first);
    let next = first;
    let start = old[first]?.start ?? 0;
    while (start < items.length) {
      let end = start + 1;
      while (end < items.length && !this.endsAfter(items[end - 1]!) && end - start < MAX_CHUNK_SKILLS) end++;
      const length = end - start;
      const kept = this.byFirst.get(items[start]!);
      let same = kept !== undefined && kept.length === length;
      for (let k = 0; same && k < length; k++) same = this.items[kept!.start + k] === items[start + k];
      if (!same) this.rehashed += length;
      runs.push({ start, length, digest: same ? kept!.digest : chunkDigest(fragments, start, end) });
      start = end;
      if (end < placedEnd || end === items.length) continue;
      while (next < old.length && old[next]!.start < end - shift) next++;
      if (next < old.length && old[next]!.start === end - shift) {
        for (const run of old.slice(next)) runs.push({ ...run, start: run.start + shift });
        break;
      }
    }
    return runs;
  }

  /** The list as hashed by the last `update`. */
  private list(): HashedList {
    return { count: this.items.length, runs: this.runs.map((run) => run.digest) };
  }
}

/** The run holding position `at`: the last of `runs` (in order, the first at 0) that starts at or before it. */
function runAt(runs: readonly Run[], at: number): number {
  let low = 0;
  let high = runs.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (runs[mid]!.start <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
