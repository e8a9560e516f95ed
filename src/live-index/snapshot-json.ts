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
import { copy, copyList, joined, listLength, view, viewList } from './comma-lists.js';
import { endsChunk, endsDiagnosticChunk, type HashedList, hashList, RunHasher } from './run-hasher.js';

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

/** The content hash over the parts' digests (see the top of this file). */
export function contentHash(head: Buffer, tail: Buffer, skills: HashedList, diagnostics: HashedList): string {
  const hash = createHash('sha256');
  hash.update(DOMAIN);
  hash.update(digestOf(head));
  hash.update(digestOf(tail));
  for (const list of [skills, diagnostics]) hashList(hash, list);
  return hash.digest('hex');
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
