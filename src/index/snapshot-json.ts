// The serialised `/skills` content of a discovery, kept so that a reload pays for what it changed, not for N.
//
// The answer is `{"generation":…,"profile":…,"cwd":…,"skills":[…],"warnings":…,"collisions":…,"diagnostics":…}`.
// Each skill's JSON is kept as UTF-8 bytes, keyed by its record (a reload keeps the record object of every skill it
// did not touch, scan-memo.ts); the body is assembled from those bytes when first asked for, never re-encoded.
//
// The content hash must change exactly when the answer changes and stay equal for equal content, also across daemon
// restarts (API.md §GET /skills: the ETag). It is a SHA-256 over the head (profile, cwd), the tail (warnings,
// collisions, diagnostics), the number of skills and one SHA-256 per run of CHUNK_SKILLS consecutive skills (their JSON
// joined with ','), so an edit re-hashes one chunk of ≈ 50 KB instead of the whole 7.7 MB answer of 10,000 skills.
// Equal answers give equal parts (the skills array's JSON splits into its elements' JSON one way only), and parts
// that differ give a different hash; nothing in it depends on the process.

import { createHash } from 'node:crypto';
import type { Collision, DiscoveryResult, Profile, Skill, SkillDiagnostic, SkillWarning } from '../discovery/types.js';

/** Skills per hashed chunk: one edit re-hashes ≈ 64 × 770 bytes at the fixture's record size. */
export const CHUNK_SKILLS = 64;

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

/** The content hash over the parts' digests (see the top of this file). */
export function contentHash(head: Buffer, tail: Buffer, count: number, chunks: readonly Buffer[]): string {
  const hash = createHash('sha256');
  hash.update(DOMAIN);
  hash.update(createHash('sha256').update(head).digest());
  hash.update(createHash('sha256').update(tail).digest());
  const size = Buffer.alloc(4);
  size.writeUInt32BE(count);
  hash.update(size);
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/** What the previous `content` call produced, to reuse by position. */
interface Previous {
  skills: readonly Skill[];
  fragments: readonly Buffer[];
  chunks: readonly Buffer[];
}

/** Builds the content of successive discoveries of one workspace, reusing what did not change. */
export class SnapshotSerializer {
  /** Keyed by the record object: a record no longer referenced by any result lets its bytes go. */
  private readonly bytes = new WeakMap<Skill, Buffer>();
  private previous: Previous = { skills: [], fragments: [], chunks: [] };
  private head: { key: string; bytes: Buffer } | undefined;
  private tail:
    | { warnings: readonly SkillWarning[]; collisions: readonly Collision[]; diagnostics: readonly SkillDiagnostic[] }
    | undefined;
  private tailBytes = Buffer.alloc(0);

  content(cwd: string, profile: Profile, result: DiscoveryResult): SnapshotContent {
    const head = this.headBytes(profile, cwd);
    const tail = this.tailOf(result);
    const { skills } = result;
    const previous = this.previous;
    const fragments = new Array<Buffer>(skills.length);
    const chunks = new Array<Buffer>(Math.ceil(skills.length / CHUNK_SKILLS));
    for (let chunk = 0; chunk < chunks.length; chunk++) {
      const start = chunk * CHUNK_SKILLS;
      const end = Math.min(skills.length, start + CHUNK_SKILLS);
      // A chunk is reused only when it holds the very records it held before, at the same positions.
      let same = Math.min(previous.skills.length, start + CHUNK_SKILLS) === end;
      for (let i = start; i < end; i++) {
        const skill = skills[i]!;
        if (previous.skills[i] === skill) {
          fragments[i] = previous.fragments[i]!;
        } else {
          fragments[i] = this.fragment(skill);
          same = false;
        }
      }
      const kept = previous.chunks[chunk];
      chunks[chunk] = same && kept !== undefined ? kept : chunkDigest(fragments, start, end);
    }
    this.previous = { skills, fragments, chunks };
    return { hash: contentHash(head, tail, skills.length, chunks), head, fragments, tail };
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
