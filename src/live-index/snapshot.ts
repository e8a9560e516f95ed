// One immutable state of a workspace's index. A reload builds a new snapshot and swaps it in one assignment, so a
// request always reads one consistent answer.
//
// Polling `GET /skills` is the hot path: the unfiltered answer is a UTF-8 Buffer assembled once per snapshot from the
// kept per-skill bytes (a socket write of a ready Buffer skips the length count and encoding that a string costs on
// every answer: 2–3× the throughput for the 749 KB body of 1,000 skills, docs/performance.md), on the first request
// that needs it rather than on the reload path; from then on the kept parts are views of it, so the bytes are held once
// (docs/memory.md "One copy of the answer's bytes"). Its ETag is derived from the generation plus the content hash of
// snapshot-json.ts. The generation moves exactly when the content moves, so the tag changes exactly when the answer
// would change (docs/api.md §GET /skills).

import { createHash } from 'node:crypto';
import type {
  Collision,
  DiscoveryResult,
  Level,
  Profile,
  Settings,
  Skill,
  SkillDiagnostic,
  SkillWarning,
} from '../discovery/types.js';
import { chunkDigest, chunkEnds, diagnosticChunkEnds, type HashedList } from './run-hasher.js';
import {
  assembleBody,
  contentBody,
  contentHash,
  headText,
  type SnapshotContent,
  SnapshotSerializer,
  tailText,
} from './snapshot-json.js';

/** The query filters of `GET /skills`; they never change `generation`. */
export interface SkillsFilter {
  /** `false` leaves hidden skills out; `true` or absent keeps them. */
  hidden?: boolean;
  /** A provider id (`claude`), or a full source id (`claude:project`). */
  provider?: string;
  level?: Level;
  /** Case-insensitive substring of name or description. */
  q?: string;
}

export interface SkillsAnswer {
  /** The JSON body, UTF-8 encoded, ready to send. */
  body: Buffer;
  /** A strong ETag, quotes included. */
  etag: string;
}

// A poller that walks through many distinct `q=` values must not grow a snapshot without bound.
const MAX_CACHED_FILTERS = 64;

export interface SnapshotInput {
  generation: number;
  cwd: string;
  settings: Settings;
  result: DiscoveryResult;
  /** From a `SnapshotSerializer`, when the caller already computed it to compare with the previous snapshot. */
  content?: SnapshotContent;
}

/**
 * The content of a discovery computed from scratch: the whole answer as one `JSON.stringify` (without `generation`)
 * and the hash of snapshot-json.ts over its parts. What the kept, incremental content must equal.
 */
export function snapshotContent(
  cwd: string,
  profile: Profile,
  result: DiscoveryResult,
): { json: string; hash: string } {
  const json = JSON.stringify({
    profile,
    cwd,
    skills: result.skills,
    warnings: result.warnings,
    collisions: result.collisions,
    diagnostics: result.diagnostics,
  });
  const head = Buffer.from(headText(profile, cwd), 'utf8');
  const tail = Buffer.from(tailText(result.warnings, result.collisions), 'utf8');
  const skills = hashedList(result.skills, chunkEnds(result.skills.map((skill) => skill.name)));
  const diagnostics = hashedList(result.diagnostics, diagnosticChunkEnds(result.diagnostics));
  return { json, hash: contentHash(head, tail, skills, diagnostics) };
}

/** A list's part of the content hash, computed from scratch: each run's JSON, hashed. */
function hashedList(items: readonly object[], ends: readonly number[]): HashedList {
  const fragments = items.map((item) => Buffer.from(JSON.stringify(item), 'utf8'));
  const runs: Buffer[] = [];
  let start = 0;
  for (const end of ends) {
    runs.push(chunkDigest(fragments, start, end));
    start = end;
  }
  return { count: items.length, runs };
}

export class WorkspaceSnapshot {
  readonly generation: number;
  readonly profile: Profile;
  readonly cwd: string;
  /** The settings this snapshot was built with (profile, symlink mode, skill commands). */
  readonly settings: Settings;
  readonly skills: readonly Skill[];
  readonly warnings: readonly SkillWarning[];
  readonly collisions: readonly Collision[];
  /** Daemon-only diagnostics of the discovery (part of the answer, so of the content hash and the ETag). */
  readonly diagnostics: readonly SkillDiagnostic[];
  /** Every skills directory discovery read: what the watcher watches. */
  readonly scannedDirs: readonly string[];
  readonly repoRoot: string | null;
  /**
   * The realpath discovery read each loaded skill's SKILL.md through, by `filePath`. Not part of the body or the hash:
   * only the file routes use it, to refuse a SKILL.md swapped for a link out of its skill after discovery.
   */
  readonly skillRealPaths: ReadonlyMap<string, string>;
  /** Agent Plugins skills: the real plugin root their files must stay in, by `filePath` (docs/discovery.md §4a). */
  readonly skillRoots: ReadonlyMap<string, string>;
  readonly contentHash: string;
  readonly etag: string;
  readonly builtAt: number;
  private readonly content: SnapshotContent;
  private readonly input: SnapshotInput;
  private bodyBytes: Buffer | undefined;
  // Built on first use: a reload that nobody reads between (a burst of edits) does not pay for them.
  private byName: ReadonlyMap<string, Skill> | undefined;
  private collisionByName: ReadonlyMap<string, Collision> | undefined;
  private readonly filteredAnswers = new Map<string, SkillsAnswer>();
  private unfiltered: SkillsAnswer | undefined;

  constructor(input: SnapshotInput) {
    const { result } = input;
    const content = input.content ?? new SnapshotSerializer().content(input.cwd, input.settings.profile, result);
    this.generation = input.generation;
    this.profile = input.settings.profile;
    this.cwd = input.cwd;
    this.settings = input.settings;
    // The discovery's own lists, not copies: discovery never changes a result it returned, and a reload hands on the
    // very lists it left unchanged, so the diff tells them unchanged by identity. (Not frozen either: V8 walks a
    // frozen array of 10,000 records several times slower, and the reload path walks these.)
    this.skills = result.skills;
    this.warnings = result.warnings;
    this.collisions = result.collisions;
    this.diagnostics = result.diagnostics;
    this.scannedDirs = result.scannedDirs;
    this.repoRoot = result.repoRoot;
    this.skillRealPaths = result.skillRealPaths ?? new Map();
    this.skillRoots = result.skillRoots ?? new Map();
    this.contentHash = content.hash;
    this.content = content;
    this.input = input;
    this.etag = `"${input.generation}-${content.hash.slice(0, 20)}"`;
    this.builtAt = Date.now();
  }

  /** The same answer under another generation: another view changed (docs/api.md "Agent views"). */
  withGeneration(generation: number): WorkspaceSnapshot {
    return new WorkspaceSnapshot({ ...this.input, generation, content: this.content });
  }

  /** The unfiltered `GET /skills` body, UTF-8 encoded: `generation` first, then the content exactly as hashed. */
  get body(): Buffer {
    this.bodyBytes ??= assembleBody(this.content, this.generation);
    return this.bodyBytes;
  }

  /** The loaded skill of exactly that name (case-sensitive, docs/discovery.md §1). */
  skill(name: string): Skill | undefined {
    this.byName ??= new Map(this.skills.map((skill) => [skill.name, skill]));
    return this.byName.get(name);
  }

  /** The realpath discovery recorded for a loaded skill's SKILL.md. */
  knownRealPath(filePath: string): string | undefined {
    return this.skillRealPaths.get(filePath);
  }

  /** The real plugin root an Agent Plugins skill's files must resolve inside, whatever the `symlinks` mode. */
  pluginRoot(filePath: string): string | undefined {
    return this.skillRoots.get(filePath);
  }

  collision(name: string): Collision | undefined {
    this.collisionByName ??= new Map(this.collisions.map((collision) => [collision.name, collision]));
    return this.collisionByName.get(name);
  }

  /**
   * The `/skills` answer for `filter`. The filters keep the skills that pass them and the collisions whose name is
   * that of a kept skill (docs/api.md "GET /skills"): a filtered answer explains exactly the skills it lists.
   * Warnings and diagnostics stay whole.
   */
  answer(filter: SkillsFilter = {}): SkillsAnswer {
    const key = filterKey(filter);
    if (key === '') {
      // The body is read only for a 200: a 304 to the current tag does not make the snapshot assemble it.
      const snapshot = this;
      this.unfiltered ??= {
        etag: this.etag,
        get body() {
          return snapshot.body;
        },
      };
      return this.unfiltered;
    }
    const cached = this.filteredAnswers.get(key);
    if (cached !== undefined) return cached;
    const accepts = skillFilter(filter);
    const positions: number[] = [];
    const keptNames = new Set<string>();
    this.skills.forEach((skill, i) => {
      if (!accepts(skill)) return;
      positions.push(i);
      keptNames.add(skill.name);
    });
    const collisions = this.collisions.filter((collision) => keptNames.has(collision.name));
    // The kept tail when every collision stays; otherwise the same tail with the kept collisions only.
    const content =
      collisions.length === this.collisions.length
        ? this.content
        : { ...this.content, tail: Buffer.from(tailText(this.warnings, collisions), 'utf8') };
    // Same generation + content + filter ⇒ same body; the filter part keeps tags of different filters apart.
    const filterHash = createHash('sha256').update(key).digest('hex').slice(0, 12);
    const answer = {
      body: contentBody(content, this.generation, positions),
      etag: `"${this.generation}-${this.contentHash.slice(0, 20)}-${filterHash}"`,
    };
    if (this.filteredAnswers.size >= MAX_CACHED_FILTERS) this.filteredAnswers.clear();
    this.filteredAnswers.set(key, answer);
    return answer;
  }
}

/** '' for "no filter"; otherwise a canonical text of the filter. */
function filterKey(filter: SkillsFilter): string {
  const parts: string[] = [];
  if (filter.hidden === false) parts.push('hidden=false');
  if (filter.provider !== undefined) parts.push(`provider=${filter.provider}`);
  if (filter.level !== undefined) parts.push(`level=${filter.level}`);
  if (filter.q !== undefined && filter.q !== '') parts.push(`q=${filter.q.toLowerCase()}`);
  return parts.join('\n');
}

function skillFilter(filter: SkillsFilter): (skill: Skill) => boolean {
  const needle = filter.q?.toLowerCase() ?? '';
  return (skill) =>
    (filter.hidden !== false || !skill.hide) &&
    (filter.provider === undefined || providerMatches(skill, filter.provider)) &&
    (filter.level === undefined || skill.source.level === filter.level) &&
    (needle === '' || skill.name.toLowerCase().includes(needle) || skill.description.toLowerCase().includes(needle));
}

function providerMatches(skill: Skill, provider: string): boolean {
  return provider.includes(':') ? skill.source.id === provider : skill.source.provider === provider;
}
