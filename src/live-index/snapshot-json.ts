// The serialised `/skills` content of a discovery, kept so that a reload pays for what it changed, not for N.
//
// The answer is `{"generation":…,"profile":…,"cwd":…,"skills":[…],"warnings":…,"collisions":…,"diagnostics":…}`.
// Each skill's JSON is kept as UTF-8 bytes, found again by its record (a reload keeps the record object of every skill
// it did not touch, scan-memo.ts); the body is assembled from those bytes when first asked for, never re-encoded.
// Once the unfiltered body is assembled, every kept part is re-pointed to its own bytes inside it (`assembleBody`):
// the body is then the only copy, and the next content starts from views of it (docs/memory.md "One copy of the
// answer's bytes").
//
// The content hash must change exactly when the answer changes and stay equal for equal content, also across daemon
// restarts (docs/api.md §GET /skills: the ETag). It is a SHA-256 over the head (profile, cwd), the tail's start (warnings,
// collisions), and, for the skills and then the diagnostics, their number, their number of runs and one SHA-256 per
// run of consecutive items (their JSON joined with ','). A run of skills ends after a skill whose name hashes to a
// multiple of CHUNK_SKILLS (FNV-1a, so about one skill in 64) or once it holds MAX_CHUNK_SKILLS; a run of diagnostics
// likewise after a diagnostic whose path and message hash so. The runs are cut by the content itself, so an item added
// or removed changes the one run it falls in and leaves every other run, and its digest, as it was (runs cut every 64
// positions would all shift by one after it: 10,000 skills re-hashed ≈ 7.7 MB on every skill added). An edit
// re-hashes one run of ≈ 50 KB; the diagnostic it adds or drops (the `real` benchmark tree holds ≈ 5,000, 1.3 MB of
// JSON) one run of a few KB, where the whole list was serialised and hashed again before.
// Equal answers give equal parts (an array's JSON splits into its elements' JSON one way only, and the cuts follow the
// content), and parts that differ give a different hash; nothing in it depends on the process.

import { createHash } from 'node:crypto';
import type { Collision, DiscoveryResult, Profile, Skill, SkillDiagnostic, SkillWarning } from '../discovery/types.js';
import { COMMA, copy, copyList, joined, listLength, serialiseAll, view, viewList } from './comma-lists.js';

/** Skills per hashed run on average: one edit re-hashes ≈ 64 × 770 bytes at the fixture's record size. */
export const CHUNK_SKILLS = 64;
/** The longest run: names that rarely end one cannot make a run of thousands. */
export const MAX_CHUNK_SKILLS = 4 * CHUNK_SKILLS;

const DOMAIN = Buffer.from('skillsd-content/2\n', 'utf8');
const OPEN_BRACE = Buffer.from('{', 'utf8');
/** What closes the answer after the diagnostics. */
const CLOSE = Buffer.from(']}', 'utf8');

/**
 * The serialised content of a discovery: everything of the `/skills` answer, `generation` aside. The bytes of a part
 * never change; which Buffer holds them does: `assembleBody` re-points every part to a view of the body it built.
 */
export interface SnapshotContent {
  /** Hex SHA-256 of the parts (see above); equal exactly when the content is equal. */
  readonly hash: string;
  /** `"profile":…,"cwd":…,"skills":[` */
  head: Buffer;
  /** Each skill's JSON, in answer order. */
  readonly fragments: Buffer[];
  /** `],"warnings":…,"collisions":…,"diagnostics":[` */
  tail: Buffer;
  /** Each diagnostic's JSON, in answer order (then `]}` closes the answer). */
  readonly diagnostics: Buffer[];
}

/**
 * The `/skills` body of `content` at `generation`: `generation` first, then the content as hashed; with `positions`,
 * only the skills at those positions (a filtered answer).
 */
export function contentBody(content: SnapshotContent, generation: number, positions?: readonly number[]): Buffer {
  const fragments = positions === undefined ? content.fragments : positions.map((i) => content.fragments[i]!);
  return writeBody(content, generation, fragments, Buffer.allocUnsafe);
}

/**
 * The unfiltered `/skills` body of `content` at `generation`, after which every part of `content` (head, skills,
 * tail, diagnostics) is a view of the body's bytes: the Buffers the parts were held in before (the previous body, or
 * the small Buffers of newly serialised items) are no longer referenced from here and can be collected. The body owns
 * its memory (not a slab of Node's shared pool, which a small body would otherwise pin along with its neighbours).
 */
export function assembleBody(content: SnapshotContent, generation: number): Buffer {
  const body = writeBody(content, generation, content.fragments, Buffer.allocUnsafeSlow);
  let offset = Buffer.byteLength(`{"generation":${generation},`, 'utf8');
  content.head = view(body, offset, content.head);
  offset = viewList(body, content.fragments, offset + content.head.length);
  content.tail = view(body, offset, content.tail);
  viewList(body, content.diagnostics, offset + content.tail.length);
  return body;
}

function writeBody(
  content: SnapshotContent,
  generation: number,
  fragments: readonly Buffer[],
  allocate: (size: number) => Buffer,
): Buffer {
  const prefix = Buffer.from(`{"generation":${generation},`, 'utf8');
  const { diagnostics } = content;
  let length = prefix.length + content.head.length + content.tail.length + CLOSE.length;
  length += listLength(fragments) + listLength(diagnostics);
  const body = allocate(length);
  let offset = copy(body, prefix, 0);
  offset = copy(body, content.head, offset);
  offset = copyList(body, fragments, offset);
  offset = copy(body, content.tail, offset);
  offset = copyList(body, diagnostics, offset);
  copy(body, CLOSE, offset);
  return body;
}

/** `{"profile":…,…}`: the content as one JSON text (without `generation`). */
export function contentText(content: SnapshotContent): string {
  return Buffer.concat([
    OPEN_BRACE,
    content.head,
    ...joined(content.fragments),
    content.tail,
    ...joined(content.diagnostics),
    CLOSE,
  ]).toString('utf8');
}

export function headText(profile: Profile, cwd: string): string {
  return `"profile":${JSON.stringify(profile)},"cwd":${JSON.stringify(cwd)},"skills":[`;
}

/** The tail up to the diagnostics' elements: `],"warnings":…,"collisions":…,"diagnostics":[`. */
export function tailText(warnings: readonly SkillWarning[], collisions: readonly Collision[]): string {
  return `],"warnings":${JSON.stringify(warnings)},"collisions":${JSON.stringify(collisions)},"diagnostics":[`;
}

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
  const hash = fnv1a(Math.imul(fnv1a(FNV_OFFSET, diagnostic.skillPath), FNV_PRIME), diagnostic.message);
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

/** SHA-256 of `bytes`, remembered by Buffer: the head and tail rarely change between reloads. */
const digests = new WeakMap<Buffer, Buffer>();
function digestOf(bytes: Buffer): Buffer {
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = createHash('sha256').update(bytes).digest();
    digests.set(bytes, digest);
  }
  return digest;
}

/** A list's part of the content hash: how many items, and the digest of each run of them. */
export interface HashedList {
  count: number;
  runs: readonly Buffer[];
}

/** The content hash over the parts' digests (see the top of this file). */
export function contentHash(head: Buffer, tail: Buffer, skills: HashedList, diagnostics: HashedList): string {
  const hash = createHash('sha256');
  hash.update(DOMAIN);
  hash.update(digestOf(head));
  hash.update(digestOf(tail));
  for (const list of [skills, diagnostics]) {
    const sizes = Buffer.alloc(8);
    sizes.writeUInt32BE(list.count, 0);
    sizes.writeUInt32BE(list.runs.length, 4);
    hash.update(sizes);
    // One update over the digests joined: a call per run cost ≈ 1 µs each, 1,200 runs at 50,000 skills.
    hash.update(Buffer.concat(list.runs as Buffer[]));
  }
  return hash.digest('hex');
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
class RunHasher<T extends object> {
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

/** Builds the content of successive discoveries of one workspace, reusing what did not change. */
export class SnapshotSerializer {
  private readonly skills = new RunHasher<Skill>((skill) => endsChunk(skill.name));
  private readonly diagnostics = new RunHasher<SkillDiagnostic>(endsDiagnosticChunk);
  private headKey: string | undefined;
  private tail: { warnings: readonly SkillWarning[]; collisions: readonly Collision[] } | undefined;
  /** The last content returned: its head and tail are the ones to reuse (views of its body once that is assembled). */
  private last: SnapshotContent | undefined;

  /** Skills whose run was hashed again by the last `content` call (tests). */
  get rehashed(): number {
    return this.skills.rehashed;
  }

  /** Skills the last `content` call placed one by one (tests). */
  get placed(): number {
    return this.skills.placed;
  }

  /** Diagnostics whose run was hashed again by the last `content` call (tests). */
  get rehashedDiagnostics(): number {
    return this.diagnostics.rehashed;
  }

  /** Diagnostics the last `content` call placed one by one (tests). */
  get placedDiagnostics(): number {
    return this.diagnostics.placed;
  }

  /** The content of `result`, re-serialising and hashing again only what differs from the last call's. */
  content(cwd: string, profile: Profile, result: DiscoveryResult): SnapshotContent {
    const head = this.headBytes(profile, cwd);
    const tail = this.tailOf(result);
    const skills = this.skills.update(result.skills);
    const diagnostics = this.diagnostics.update(result.diagnostics);
    this.last = {
      hash: contentHash(head, tail, skills.list, diagnostics.list),
      head,
      fragments: skills.fragments,
      tail,
      diagnostics: diagnostics.fragments,
    };
    return this.last;
  }

  private headBytes(profile: Profile, cwd: string): Buffer {
    const key = `${profile}\0${cwd}`;
    if (this.last !== undefined && this.headKey === key) return this.last.head;
    this.headKey = key;
    return Buffer.from(headText(profile, cwd), 'utf8');
  }

  /** The tail's start, serialised again only when one of its lists is another object than last time (results are
   * never changed after discovery: the pipeline returns the previous lists themselves when they did not change). */
  private tailOf(result: DiscoveryResult): Buffer {
    const { warnings, collisions } = result;
    const kept = this.tail;
    if (this.last !== undefined && kept?.warnings === warnings && kept.collisions === collisions) return this.last.tail;
    this.tail = { warnings, collisions };
    return Buffer.from(tailText(warnings, collisions), 'utf8');
  }
}
