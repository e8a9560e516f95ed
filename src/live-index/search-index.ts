// The search index of one workspace (docs/api.md §GET /search), kept in step with its snapshots: after every build the
// skills that came, went or changed are updated in place (MiniSearch `add`/`discard`), so a query never reads a file
// and a reload costs the changed skills only. Bodies are not kept: each is read once when its skill is (re)indexed,
// tokenised, and dropped (what a full rebuild and an update cost at 10,000 skills: docs/performance.md "Current figures").
//
// Updates run one at a time and coalesce (the latest snapshot wins, the reported paths add up). A query waits for the
// update in flight, so an answer given after an `index` event already reflects that event; an update waits for the
// queries being scored, so none reads an index half updated. A body-only edit changes no `/skills` answer and so no
// generation; `revision` moves with every update that changed the search index, and the answer's tag carries both.
//
// When it is built: a live workspace (the daemon's, `skillsd mcp`'s) of BUILD_AHEAD_SKILLS skills or more builds it
// right after its first index (`buildAhead`), so that no first query waits for it; a smaller one, and a workspace
// indexed once (the in-process CLI), on its first search. Neither holds the event loop: bodies are added, and queries
// scored, in slices (src/discovery/time-slices.ts). Answers are remembered per canonical query (search-answer-cache.ts).

import { createHash } from 'node:crypto';
import { type Stats, stat } from 'node:fs';
import { SkillsdError } from '../discovery/errors.js';
import { indexOfName } from '../discovery/pipeline/pipeline-memo.js';
import { mapWithLimit } from '../discovery/scan/map-with-limit.js';
import { MAX_SKILL_FILE_BYTES, readSkillFileHead } from '../discovery/scan/read-skill-file.js';
import {
  type CanonicalQuery,
  canonicalQuery,
  createSkillSearch,
  indexedBody,
  type SearchField,
  type SkillSearch,
  scoreQuery,
} from '../discovery/skill-search.js';
import { backgroundTurn, nextSlice } from '../discovery/time-slices.js';
import type { Skill, SkillSource, WinnerChange } from '../discovery/types.js';
import { RunOnceQueueOne } from './run-once-queue-one.js';
import { type CachedValue, SearchAnswerCache, type SearchAnswerStats } from './search-answer-cache.js';
import { SearchTouchKeys } from './search-touch-keys.js';
import type { WorkspaceSnapshot } from './snapshot.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 100;
/** The longest query text answered, by `GET /search` and the MCP tool `search_skills` (docs/api.md §GET /search). */
export const MAX_SEARCH_QUERY_LENGTH = 1000;

/** Bodies read at once while indexing: enough to keep the disk busy, few enough to leave descriptors for requests. */
const READ_CONCURRENCY = 16;
/** Bodies read ahead of the ones being added: what an update holds of them at once is two such batches. */
const READ_BATCH = 64;
/**
 * A live workspace with this many skills or more builds its search index after its first index; a smaller one on
 * its first search, which then waits for about 1–3 ms a skill (docs/api.md §GET /search).
 */
export const BUILD_AHEAD_SKILLS = 50;
/** Vacuum (drop discarded documents' postings) past this many discards and this share of the index. */
const VACUUM_MIN_DIRT = 20;
const VACUUM_MIN_FACTOR = 0.1;

export interface SearchResultEntry {
  name: string;
  description: string;
  score: number;
  /** The fields a query term matched in: `name`, `description`, `body`. */
  matched: SearchField[];
  hide: boolean;
  source: SkillSource;
  filePath: string;
}

export interface SearchAnswer {
  query: string;
  generation: number;
  results: SearchResultEntry[];
}

/** One computed answer, shared by every limit: the best MAX_SEARCH_LIMIT, and what its tag is made of. */
interface RankedAnswer extends CachedValue {
  generation: number;
  contentHash: string;
  revision: number;
  results: SearchResultEntry[];
}

export interface SearchAnswerWithTag {
  answer: SearchAnswer;
  /** A strong ETag, quotes included: generation, content, search revision and the query. */
  etag: string;
}

/**
 * What a build changed, as the live index saw it: everything (`full`), or the paths the watcher reported; with the
 * names whose winners the discovery replaced, inserted or removed when it updated the previous answer (`winners`).
 */
export interface BuildChange {
  full: boolean;
  paths: ReadonlySet<string>;
  winners?: WinnerChange;
  /**
   * Work this update gives way to: the per-agent views' events of the same build (workspace-agent-views.ts
   * `toldAhead`). A search waits for both.
   */
  after?: Promise<void>;
}

interface IndexedSkill {
  /** The record it was indexed from; refreshed to the newest equal record so old snapshots are not kept alive. */
  skill: Skill;
  /** The SKILL.md's identity when its body was read: a full rebuild re-reads only the files whose identity moved. */
  stamp: string;
}

export class SkillSearchIndex {
  /** Created when the first skill is indexed (ahead of any search, or on the first one), with MiniSearch loaded then. */
  private searchIndex: SkillSearch | undefined;
  private readonly indexed = new Map<string, IndexedSkill>();
  private applied: WorkspaceSnapshot | undefined;
  private latest: WorkspaceSnapshot | undefined;
  private revisionCount = 0;
  private started = false;
  private ahead = false;
  private closed = false;
  /** A search waited for the index: its first build no longer gives way to the first views (addBodies). */
  private awaited = false;
  private pendingFull = false;
  private pendingPaths = new Set<string>();
  /** What the next update gives way to first (`BuildChange.after`). */
  private after: Promise<void> | undefined;
  /**
   * The names whose winners the builds since the last update changed, when each of those builds updated the answer
   * of the one before (`BuildChange.winners`); undefined when one did not say, and every record is compared again.
   */
  private pendingNames: Set<string> | undefined = new Set();
  /** The skills of the last snapshot followed: the list the next build's `winners` must start from. */
  private followedSkills: readonly Skill[] | undefined;
  /** The reported paths that touch an indexed skill, by key (search-touch-keys.ts). */
  private readonly touchKeys = new SearchTouchKeys();
  /** Records the last update compared with the index (tests: an edit costs the records it changed). */
  lastUpdateVisited = 0;
  /** One update at a time, one waiting: the waiting one takes every snapshot and path told meanwhile. */
  private readonly updates = new RunOnceQueueOne(() => this.drain());
  /** Answers of the index as it is, by canonical query. */
  private readonly answers = new SearchAnswerCache<RankedAnswer>();

  private get search(): SkillSearch {
    this.searchIndex ??= createSkillSearch();
    return this.searchIndex;
  }

  /** How many updates changed the index (part of the answer tag). */
  get revision(): number {
    return this.revisionCount;
  }

  /** Skills in the index now. */
  get size(): number {
    return this.indexed.size;
  }

  /** True once the index holds a snapshot and no update is under way or waiting. */
  get built(): boolean {
    return this.applied !== undefined && !this.updating;
  }

  /** An update is under way, or a snapshot or path was told that no update has taken yet. */
  private get updating(): boolean {
    const pending = this.pendingFull || this.pendingPaths.size > 0;
    return this.updates.current !== null || (pending && this.latest !== undefined && !this.closed);
  }

  /** Answers computed, remembered, shared and abandoned (tests; the benchmark). */
  get answerStats(): SearchAnswerStats {
    return { ...this.answers.stats };
  }

  /** Told after every build; until `start()` only the latest snapshot is remembered. */
  follow(snapshot: WorkspaceSnapshot, change: BuildChange): void {
    this.latest = snapshot;
    const { winners } = change;
    // The names hold only while every build since the last update updated the list the one before it left.
    if (change.full || winners === undefined || winners.previous !== this.followedSkills) this.pendingNames = undefined;
    else if (winners.next !== snapshot.skills) this.pendingNames = undefined;
    else for (const name of winners.names) this.pendingNames?.add(name);
    this.followedSkills = snapshot.skills;
    if (this.closed) return;
    if (!this.started) {
      // `start` builds from the latest snapshot whole: this change is in it.
      if (this.ahead && snapshot.skills.length >= BUILD_AHEAD_SKILLS) this.start();
      return;
    }
    if (change.full) this.pendingFull = true;
    for (const path of change.paths) this.pendingPaths.add(path);
    if (change.after !== undefined) this.after = change.after;
    this.kick();
  }

  /**
   * Builds the index without waiting for a search, now or once a build brings BUILD_AHEAD_SKILLS skills (a live
   * workspace, after its first index).
   */
  buildAhead(): void {
    this.ahead = true;
    if (this.latest !== undefined && this.latest.skills.length >= BUILD_AHEAD_SKILLS) this.start();
  }

  /** Builds the index from the latest snapshot (once) and follows every later one. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.pendingFull = true;
    this.kick();
  }

  /** Resolves once every update asked for so far is applied (starting the index if nobody had). */
  async settled(): Promise<void> {
    // Someone waits for the index now: its first build no longer gives way to other work (addBodies).
    this.awaited = true;
    this.start();
    await this.updates.idle();
  }

  /**
   * The ranked answer for `query` over the latest applied snapshot, with its tag. `signal`: the request's own; when
   * every request waiting for a computation has gone, it stops.
   */
  async answer(query: string, limit: number, signal?: AbortSignal): Promise<SearchAnswerWithTag> {
    signal?.throwIfAborted();
    const canonical = canonicalQuery(query);
    // Quiet: no update under way or waiting. Checked in the same step as the computation starts, so an update kicked
    // meanwhile is waited for, and an update kicked later waits for the computation (`drain`).
    do await this.settled();
    while (this.updating);
    // Only a workspace closed before its first build gets here without one.
    if (this.applied === undefined) {
      throw new SkillsdError('NotReady', 'The search index of this workspace is not built');
    }
    const ranked = await this.answers.get(canonical.key, (computation) => this.rank(canonical, computation), signal);
    const queryHash = createHash('sha256').update(`${limit}\n${query}`).digest('hex').slice(0, 12);
    return {
      answer: { query, generation: ranked.generation, results: ranked.results.slice(0, limit) },
      etag: `"${ranked.generation}-${ranked.contentHash.slice(0, 20)}-s${ranked.revision}-${queryHash}"`,
    };
  }

  close(): void {
    this.closed = true;
  }

  /** Scores `query` a word at a time, letting the event loop turn between slices; stops when `signal` aborts. */
  private async rank(query: CanonicalQuery, signal: AbortSignal): Promise<RankedAnswer> {
    const snapshot = this.applied as WorkspaceSnapshot;
    const tag = { generation: snapshot.generation, contentHash: snapshot.contentHash, revision: this.revisionCount };
    const hits =
      query.terms.length === 0 || this.searchIndex === undefined
        ? []
        : await scoreQuery(this.searchIndex, query, MAX_SEARCH_LIMIT, async () => {
            await nextSlice();
            signal.throwIfAborted();
          });
    const results: SearchResultEntry[] = [];
    let bytes = 256;
    for (const hit of hits) {
      const skill = this.indexed.get(hit.id)?.skill;
      if (skill === undefined) continue;
      results.push({
        name: skill.name,
        description: skill.description,
        score: hit.score,
        matched: hit.fields,
        hide: skill.hide,
        source: skill.source,
        filePath: skill.filePath,
      });
      bytes += 2 * (skill.name.length + skill.description.length + skill.filePath.length) + 160;
    }
    return { ...tag, results, bytes };
  }

  private kick(): void {
    void this.updates.run();
  }

  private async drain(): Promise<void> {
    // Queries being scored read the index: they finish first (a query asked from now on waits for this update).
    await this.answers.idle();
    while (!this.closed && this.latest !== undefined && (this.pendingFull || this.pendingPaths.size > 0)) {
      const after = this.after;
      if (after !== undefined) {
        this.after = undefined;
        await after;
        continue;
      }
      const snapshot = this.latest;
      const full = this.pendingFull;
      const paths = this.pendingPaths;
      const names = this.pendingNames;
      this.pendingFull = false;
      this.pendingPaths = new Set();
      this.pendingNames = new Set();
      await this.apply(snapshot, full, paths, names);
    }
  }

  private async apply(
    snapshot: WorkspaceSnapshot,
    full: boolean,
    paths: ReadonlySet<string>,
    names: ReadonlySet<string> | undefined,
  ): Promise<void> {
    const known = full || names === undefined ? undefined : this.changesByName(snapshot, paths, names);
    const changed =
      known === undefined ? await this.compareAll(snapshot, full, paths) : await this.applyKnown(snapshot, known);
    if (this.closed) return;
    const search = this.searchIndex;
    if (search !== undefined && search.dirtCount >= VACUUM_MIN_DIRT && search.dirtFactor >= VACUUM_MIN_FACTOR) {
      await search.vacuum({ batchSize: 1000, batchWait: 0 });
    }
    const previous = this.applied;
    this.applied = snapshot;
    if (changed) this.revisionCount++;
    // Answers carry skill records and the tag: a new generation (a `hide` moved) is a new answer too.
    if (changed || previous?.generation !== snapshot.generation) this.answers.clear();
  }

  /**
   * What to discard and read again when the builds since the last update said which names they changed: the records
   * of those names, and those of the skills the reported paths touch; every other record is the very one indexed.
   * Undefined when the index holds no answer yet or a touched record is not where the names say (compared whole).
   */
  private changesByName(
    snapshot: WorkspaceSnapshot,
    paths: ReadonlySet<string>,
    names: ReadonlySet<string>,
  ): { discard: string[]; read: Skill[] } | undefined {
    if (this.applied === undefined) return undefined;
    const skills = snapshot.skills;
    const now = new Map<string, { skill: Skill; at: number }>();
    const was = new Set<string>();
    for (const name of names) {
      const at = indexOfName(skills, name);
      if (at >= 0) now.set(skills[at]!.filePath, { skill: skills[at]!, at });
      // Looked up in the sorted list: the snapshot's own map by name would be built for one look (O(N) per update).
      const wasAt = indexOfName(this.applied.skills, name);
      if (wasAt >= 0) was.add(this.applied.skills[wasAt]!.filePath);
    }
    const discard = [...was].filter((filePath) => !now.has(filePath) && this.indexed.has(filePath));
    const read: Array<{ skill: Skill; at: number }> = [];
    for (const [filePath, item] of now) {
      const entry = this.indexed.get(filePath);
      if (entry === undefined || !sameSearchFields(entry.skill, item.skill) || touched(item.skill, snapshot, paths)) {
        read.push(item);
      } else {
        entry.skill = item.skill;
        this.touchKeys.set(filePath, item.skill.baseDir, snapshot.knownRealPath(filePath));
      }
    }
    for (const filePath of this.touchKeys.touchedBy(paths)) {
      if (now.has(filePath)) continue;
      const entry = this.indexed.get(filePath);
      if (entry === undefined) continue;
      const at = indexOfName(skills, entry.skill.name);
      if (at < 0 || skills[at] !== entry.skill) return undefined;
      read.push({ skill: entry.skill, at });
    }
    this.lastUpdateVisited = now.size + was.size + read.length;
    // In loaded order, as a pass over every record would read them.
    return { discard, read: read.sort((a, b) => a.at - b.at).map((item) => item.skill) };
  }

  private async applyKnown(snapshot: WorkspaceSnapshot, known: { discard: string[]; read: Skill[] }): Promise<boolean> {
    for (const filePath of known.discard) this.forget(filePath);
    const added = await this.addBodies(known.read, snapshot);
    return added || known.discard.length > 0;
  }

  /** Every record of `snapshot` compared with the index: a full build, or builds that did not say what they changed. */
  private async compareAll(snapshot: WorkspaceSnapshot, full: boolean, paths: ReadonlySet<string>): Promise<boolean> {
    let changed = false;
    this.lastUpdateVisited = snapshot.skills.length;
    const loaded = new Map<string, Skill>();
    for (const skill of snapshot.skills) loaded.set(skill.filePath, skill);
    for (const filePath of this.indexed.keys()) {
      if (loaded.has(filePath)) continue;
      this.forget(filePath);
      changed = true;
    }
    const toRead: Skill[] = [];
    const toCheck: Skill[] = [];
    for (const skill of snapshot.skills) {
      const entry = this.indexed.get(skill.filePath);
      if (entry === undefined || !sameSearchFields(entry.skill, skill) || touched(skill, snapshot, paths)) {
        toRead.push(skill);
      } else {
        entry.skill = skill;
        this.touchKeys.set(skill.filePath, skill.baseDir, snapshot.knownRealPath(skill.filePath));
        // A full rebuild has no list of paths (a settings change, the re-check after the watcher armed): a body
        // edited meanwhile shows only in the file's identity.
        if (full) toCheck.push(skill);
      }
    }
    await mapWithLimit(toCheck, READ_CONCURRENCY, async (skill) => {
      const entry = this.indexed.get(skill.filePath);
      const stamp = await fileStamp(readPathOf(skill, snapshot));
      if (entry !== undefined && stamp !== entry.stamp) toRead.push(skill);
    });
    if (await this.addBodies(toRead, snapshot)) changed = true;
    return changed;
  }

  /** Drops the skill at `filePath` from the index. */
  private forget(filePath: string): void {
    this.search.discard(filePath);
    this.indexed.delete(filePath);
    this.touchKeys.delete(filePath);
  }

  /**
   * Reads and adds the bodies of `skills`: a batch is read while the one before it is added, a document at a time in
   * slices (src/discovery/time-slices.ts). True when any was added.
   */
  private async addBodies(skills: readonly Skill[], snapshot: WorkspaceSnapshot): Promise<boolean> {
    const readBatch = (from: number) =>
      mapWithLimit(skills.slice(from, from + READ_BATCH), READ_CONCURRENCY, (skill) => readBody(skill, snapshot));
    let added = false;
    let next = skills.length > 0 ? readBatch(0) : undefined;
    for (let from = 0; next !== undefined; from += READ_BATCH) {
      const bodies = await next;
      next = from + READ_BATCH < skills.length ? readBatch(from + READ_BATCH) : undefined;
      for (const [i, { body, stamp }] of bodies.entries()) {
        // The first build, made ahead of any search, waits while a request waits for the first views.
        if (this.applied === undefined && !this.awaited) await backgroundTurn();
        await nextSlice();
        if (this.closed) return added;
        const skill = skills[from + i] as Skill;
        if (this.indexed.has(skill.filePath)) this.search.discard(skill.filePath);
        this.search.add({ id: skill.filePath, name: skill.name, description: skill.description, body });
        this.indexed.set(skill.filePath, { skill, stamp });
        this.touchKeys.set(skill.filePath, skill.baseDir, snapshot.knownRealPath(skill.filePath));
        added = true;
      }
    }
    return added;
  }
}

/** The fields the index holds besides the body. */
function sameSearchFields(a: Skill, b: Skill): boolean {
  return a === b || (a.name === b.name && a.description === b.description);
}

/** The watcher reported the skill's SKILL.md, its directory, or the file a link of it leads to. */
function touched(skill: Skill, snapshot: WorkspaceSnapshot, paths: ReadonlySet<string>): boolean {
  if (paths.size === 0) return false;
  if (paths.has(skill.filePath) || paths.has(skill.baseDir)) return true;
  const real = snapshot.knownRealPath(skill.filePath);
  return real !== undefined && paths.has(real);
}

/** The path discovery read the SKILL.md through (its realpath when it recorded one). */
function readPathOf(skill: Skill, snapshot: WorkspaceSnapshot): string {
  return snapshot.knownRealPath(skill.filePath) ?? skill.filePath;
}

async function readBody(skill: Skill, snapshot: WorkspaceSnapshot): Promise<{ body: string; stamp: string }> {
  const real = snapshot.knownRealPath(skill.filePath);
  const stamp = await fileStamp(real ?? skill.filePath);
  try {
    // The realpath discovery checked, without following a link swapped in since (as the file route reads it); the
    // same bounded, non-blocking read as discovery's (a FIFO swapped in never blocks the index).
    const head = await readSkillFileHead(real ?? skill.filePath, MAX_SKILL_FILE_BYTES, real !== undefined, 'all');
    return { body: indexedBody(head.text), stamp };
  } catch {
    // Gone or refused since discovery: the name and description are still found; the next build removes it if gone.
    return { body: '', stamp };
  }
}

function fileStamp(path: string): Promise<string> {
  return new Promise((resolve) => {
    stat(path, (error: NodeJS.ErrnoException | null, stats: Stats) => {
      resolve(error ? '' : `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`);
    });
  });
}
