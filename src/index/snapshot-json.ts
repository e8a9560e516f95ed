// The serialised `/skills` content of a discovery, kept so that a reload pays for what it changed, not for N.
//
// The answer is `{"generation":…,"profile":…,"cwd":…,"skills":[…],"warnings":…,"collisions":…,"diagnostics":…}`.
// Each skill's JSON is kept as UTF-8 bytes, keyed by its record (a reload keeps the record object of every skill it
// did not touch, scan-memo.ts); the body is assembled from those bytes when first asked for, never re-encoded.
//
// The content hash must change exactly when the answer changes and stay equal for equal content, also across daemon
// restarts (API.md §GET /skills: the ETag). It is a SHA-256 over the head (profile, cwd), the tail (warnings,
// collisions, diagnostics), the number of skills and one SHA-256 per run of consecutive skills (their JSON joined with
// ','). A run ends after a skill whose name hashes to a multiple of CHUNK_SKILLS (FNV-1a, so about one skill in 64) or
// once it holds MAX_CHUNK_SKILLS: the runs are cut by the content itself, so a skill added or removed changes the one
// run it falls in and leaves every other run, and its digest, as it was (runs cut every 64 positions would all shift
// by one after it: 10,000 skills re-hashed ≈ 7.7 MB on every skill added). An edit re-hashes one run of ≈ 50 KB.
// Equal answers give equal parts (the skills array's JSON splits into its elements' JSON one way only, and the cuts
// follow the names), and parts that differ give a different hash; nothing in it depends on the process.

import { createHash } from 'node:crypto';
import type { Collision, DiscoveryResult, Profile, Skill, SkillDiagnostic, SkillWarning } from '../discovery/types.js';

/** Skills per hashed run on average: one edit re-hashes ≈ 64 × 770 bytes at the fixture's record size. */
export const CHUNK_SKILLS = 64;
/** The longest run: names that rarely end one cannot make a run of thousands. */
export const MAX_CHUNK_SKILLS = 4 * CHUNK_SKILLS;

const DOMAIN = Buffer.from('skillsd-content/1\n', 'utf8');
const COMMA = Buffer.from(',', 'utf8');
const OPEN_BRACE = Buffer.from('{', 'utf8');

/** The serialised content of a discovery: everything of the `/skills` answer, `generation` aside. */
export interface SnapshotContent {
  /** Hex SHA-256 of the parts (see above); equal exactly when the content is equal. */
  readonly hash: string;
  /** `"profile":…,"cwd":…,"skills":[` */
  readonly head: Buffer;
  /** Each skill's JSON, in answer order. */
  readonly fragments: readonly Buffer[];
  /** `],"warnings":…,"collisions":…,"diagnostics":…}` */
  readonly tail: Buffer;
}

/**
 * The `/skills` body of `content` at `generation`: `generation` first, then the content as hashed; with `positions`,
 * only the skills at those positions (a filtered answer).
 */
export function contentBody(content: SnapshotContent, generation: number, positions?: readonly number[]): Buffer {
  const prefix = Buffer.from(`{"generation":${generation},`, 'utf8');
  const fragments = positions === undefined ? content.fragments : positions.map((i) => content.fragments[i]!);
  let length = prefix.length + content.head.length + content.tail.length + Math.max(0, fragments.length - 1);
  for (const fragment of fragments) length += fragment.length;
  const body = Buffer.allocUnsafe(length);
  let offset = copy(body, prefix, 0);
  offset = copy(body, content.head, offset);
  for (let i = 0; i < fragments.length; i++) {
    if (i > 0) body[offset++] = 0x2c; // ','
    offset = copy(body, fragments[i]!, offset);
  }
  copy(body, content.tail, offset);
  return body;
}

/** `{"profile":…,…}`: the content as one JSON text (without `generation`). */
export function contentText(content: SnapshotContent): string {
  return Buffer.concat([OPEN_BRACE, ...joined(content.fragments, content.head, content.tail)]).toString('utf8');
}

export function headText(profile: Profile, cwd: string): string {
  return `"profile":${JSON.stringify(profile)},"cwd":${JSON.stringify(cwd)},"skills":[`;
}

export function tailText(
  warnings: readonly SkillWarning[],
  collisions: readonly Collision[],
  diagnostics: readonly SkillDiagnostic[],
): string {
  return (
    `],"warnings":${JSON.stringify(warnings)},"collisions":${JSON.stringify(collisions)},` +
    `"diagnostics":${JSON.stringify(diagnostics)}}`
  );
}

/** SHA-256 of the skills `fragments[start, end)` joined with ','. */
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
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash & (CHUNK_SKILLS - 1)) === 0;
}

/** The end (exclusive) of each run of `names`' skills, in order (see the top of this file). */
export function chunkEnds(names: readonly string[]): number[] {
  const ends: number[] = [];
  let start = 0;
  for (let i = 0; i < names.length; i++) {
    if (endsChunk(names[i]!) || i + 1 - start === MAX_CHUNK_SKILLS) {
      ends.push(i + 1);
      start = i + 1;
    }
  }
  if (start < names.length) ends.push(names.length);
  return ends;
}

/** SHA-256 of `bytes`, remembered for the last few buffers: the head and tail rarely change between reloads, and
 * the tail holds every diagnostic (1.3 MB at N = 10,000 in the benchmark tree, ≈ 3 ms to hash). */
const digests = new WeakMap<Buffer, Buffer>();
function digestOf(bytes: Buffer): Buffer {
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = createHash('sha256').update(bytes).digest();
    digests.set(bytes, digest);
  }
  return digest;
}

/** The content hash over the parts' digests (see the top of this file). */
export function contentHash(head: Buffer, tail: Buffer, count: number, chunks: readonly Buffer[]): string {
  const hash = createHash('sha256');
  hash.update(DOMAIN);
  hash.update(digestOf(head));
  hash.update(digestOf(tail));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(count);
  hash.update(size);
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/** What the previous `content` call produced, to reuse what did not change. */
interface Previous {
  skills: readonly Skill[];
  fragments: readonly Buffer[];
  /** Whether a run ends after each skill (`endsChunk` of its name). */
  ends: readonly boolean[];
  /** Each run's digest by its first record, with its start and length in `skills`. */
  chunks: ReadonlyMap<Skill, { start: number; length: number; digest: Buffer }>;
}

/** How far ahead of a record that is not where it was the previous list is searched for it (removed records). */
const REALIGN_WINDOW = 4;

/** Builds the content of successive discoveries of one workspace, reusing what did not change. */
export class SnapshotSerializer {
  /** Keyed by the record object: a record no longer referenced by any result lets its bytes go. */
  private readonly bytes = new WeakMap<Skill, Buffer>();
  private previous: Previous = { skills: [], fragments: [], ends: [], chunks: new Map() };
  private head: { key: string; bytes: Buffer } | undefined;
  private tail:
    | { warnings: readonly SkillWarning[]; collisions: readonly Collision[]; diagnostics: readonly SkillDiagnostic[] }
    | undefined;
  private tailBytes = Buffer.alloc(0);
  /** Skills whose run was hashed again by the last `content` call (tests). */
  rehashed = 0;

  content(cwd: string, profile: Profile, result: DiscoveryResult): SnapshotContent {
    const head = this.headBytes(profile, cwd);
    const tail = this.tailOf(result);
    const { skills } = result;
    const previous = this.previous;
    const fragments = new Array<Buffer>(skills.length);
    const ends = new Array<boolean>(skills.length);
    const digests: Buffer[] = [];
    const chunks = new Map<Skill, { start: number; length: number; digest: Buffer }>();
    // `at` follows the same record in the previous list: a skill added, removed or edited puts it out of step by one
    // record, which the look-ahead finds again; records it cannot place are serialised (or found by record) anew.
    let at = 0;
    let start = 0;
    this.rehashed = 0;
    for (let i = 0; i < skills.length; i++) {
      const skill = skills[i]!;
      let found = -1;
      for (let k = at; k < Math.min(previous.skills.length, at + REALIGN_WINDOW + 1); k++) {
        if (previous.skills[k] === skill) {
          found = k;
          break;
        }
      }
      if (found >= 0) {
        fragments[i] = previous.fragments[found]!;
        ends[i] = previous.ends[found]!;
        at = found + 1;
      } else {
        fragments[i] = this.fragment(skill);
        ends[i] = endsChunk(skill.name);
      }
      if (!ends[i] && i + 1 - start !== MAX_CHUNK_SKILLS && i + 1 !== skills.length) continue;
      const first = skills[start]!;
      const kept = previous.chunks.get(first);
      const length = i + 1 - start;
      let same = kept !== undefined && kept.length === length;
      for (let k = 0; same && k < length; k++) same = previous.skills[kept!.start + k] === skills[start + k];
      if (!same) this.rehashed += length;
      const digest = same ? kept!.digest : chunkDigest(fragments, start, i + 1);
      digests.push(digest);
      chunks.set(first, { start, length, digest });
      start = i + 1;
    }
    this.previous = { skills, fragments, ends, chunks };
    return { hash: contentHash(head, tail, skills.length, digests), head, fragments, tail };
  }

  private fragment(skill: Skill): Buffer {
    let bytes = this.bytes.get(skill);
    if (bytes === undefined) {
      // Records are never changed after discovery; one that is frozen later still serialises the same.
      bytes = Buffer.from(JSON.stringify(skill), 'utf8');
      this.bytes.set(skill, bytes);
    }
    return bytes;
  }

  private headBytes(profile: Profile, cwd: string): Buffer {
    const key = `${profile}\0${cwd}`;
    if (this.head?.key !== key) this.head = { key, bytes: Buffer.from(headText(profile, cwd), 'utf8') };
    return this.head.bytes;
  }

  /** The tail, serialised again only when one of its lists is another object than last time (results are never
   * changed after discovery: the pipeline returns the previous lists themselves when they did not change). */
  private tailOf(result: DiscoveryResult): Buffer {
    const { warnings, collisions, diagnostics } = result;
    const kept = this.tail;
    if (
      kept === undefined ||
      kept.warnings !== warnings ||
      kept.collisions !== collisions ||
      kept.diagnostics !== diagnostics
    ) {
      this.tail = { warnings, collisions, diagnostics };
      this.tailBytes = Buffer.from(tailText(warnings, collisions, diagnostics), 'utf8');
    }
    return this.tailBytes;
  }
}

function copy(target: Buffer, source: Buffer, offset: number): number {
  target.set(source, offset);
  return offset + source.length;
}

function joined(fragments: readonly Buffer[], head: Buffer, tail: Buffer): Buffer[] {
  const parts: Buffer[] = [head];
  for (let i = 0; i < fragments.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(fragments[i]!);
  }
  parts.push(tail);
  return parts;
}
