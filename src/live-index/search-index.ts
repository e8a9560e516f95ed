// The search index of one workspace (docs/api.md §GET /search), kept in step with its snapshots: after every build the
// skills that came, went or changed are updated in place (MiniSearch `add`/`discard`), so a query never reads a file
// and a reload costs the changed skills only. Bodies are not kept: each is read once when its skill is (re)indexed,
// tokenised, and dropped (what a full rebuild and an update cost at 10,000 skills: docs/performance.md "Current figures").
//
// Updates run one at a time and coalesce (the latest snapshot wins, the reported paths add up). A query waits for the
// update in flight, so an answer given after an `index` event already reflects that event. A body-only edit changes
// no `/skills` answer and so no generation; `revision` moves with every update that changed the search index, and
// the answer's tag carries both.

import { createHash } from 'node:crypto';
import { type Stats, stat } from 'node:fs';
import { SkillsdError } from '../discovery/errors.js';
import { mapWithLimit } from '../discovery/scan/map-with-limit.js';
import { MAX_SKILL_FILE_BYTES, readSkillFileHead } from '../discovery/scan/read-skill-file.js';
import {
  createSkillSearch,
  type SearchField,
  type SkillSearch,
  searchSkills,
  skillBody,
} from '../discovery/skill-search.js';
import type { Skill, SkillSource } from '../discovery/types.js';
import { RunOnceQueueOne } from './run-once-queue-one.js';
import type { WorkspaceSnapshot } from './snapshot.js';

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 100;

/** Bodies read at once while indexing: enough to keep the disk busy, few enough to leave descriptors for requests. */
const READ_CONCURRENCY = 16;
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

export interface SearchAnswerWithTag {
  answer: SearchAnswer;
  /** A strong ETag, quotes included: generation, content, search revision and the query. */
  etag: string;
}

/** What a build changed, as the live index saw it: everything (`full`), or the paths the watcher reported. */
export interface BuildChange {
  full: boolean;
  paths: ReadonlySet<string>;
}

interface IndexedSkill {
  /** The record it was indexed from; refreshed to the newest equal record so old snapshots are not kept alive. */
  skill: Skill;
  /** The SKILL.md's identity when its body was read: a full rebuild re-reads only the files whose identity moved. */
  stamp: string;
}

export class SkillSearchIndex {
  /** Created on the first search (or build after it), with MiniSearch loaded then. */
  private searchIndex: SkillSearch | undefined;
  private readonly indexed = new Map<string, IndexedSkill>();
  private applied: WorkspaceSnapshot | undefined;
  private latest: WorkspaceSnapshot | undefined;
  private revisionCount = 0;
  private started = false;
  private closed = false;
  private pendingFull = false;
  private pendingPaths = new Set<string>();
  /** One update at a time, one waiting: the waiting one takes every snapshot and path told meanwhile. */
  private readonly updates = new RunOnceQueueOne(() => this.drain());

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

  /** Told after every build; until `start()` only the latest snapshot is remembered. */
  follow(snapshot: WorkspaceSnapshot, change: BuildChange): void {
    this.latest = snapshot;
    if (!this.started || this.closed) return;
    if (change.full) this.pendingFull = true;
    for (const path of change.paths) this.pendingPaths.add(path);
    this.kick();
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
    this.start();
    await this.updates.idle();
  }

  /** The ranked answer for `query` over the latest applied snapshot, with its tag. */
  async answer(query: string, limit: number): Promise<SearchAnswerWithTag> {
    await this.settled();
    const snapshot = this.applied;
    // Only a workspace closed before its first build gets here.
    if (snapshot === undefined) throw new SkillsdError('NotReady', 'The search index of this workspace is not built');
    const results: SearchResultEntry[] = [];
    for (const hit of searchSkills(this.search, query, limit)) {
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
    }
    const queryHash = createHash('sha256').update(`${limit}\n${query}`).digest('hex').slice(0, 12);
    return {
      answer: { query, generation: snapshot.generation, results },
      etag: `"${snapshot.generation}-${snapshot.contentHash.slice(0, 20)}-s${this.revisionCount}-${queryHash}"`,
    };
  }

  close(): void {
    this.closed = true;
  }

  private kick(): void {
    void this.updates.run();
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.latest !== undefined && (this.pendingFull || this.pendingPaths.size > 0)) {
      const snapshot = this.latest;
      const full = this.pendingFull;
      const paths = this.pendingPaths;
      this.pendingFull = false;
      this.pendingPaths = new Set();
      await this.apply(snapshot, full, paths);
    }
  }

  private async apply(snapshot: WorkspaceSnapshot, full: boolean, paths: ReadonlySet<string>): Promise<void> {
    let changed = false;
    const loaded = new Map<string, Skill>();
    for (const skill of snapshot.skills) loaded.set(skill.filePath, skill);
    for (const filePath of this.indexed.keys()) {
      if (loaded.has(filePath)) continue;
      this.search.discard(filePath);
      this.indexed.delete(filePath);
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
    await mapWithLimit(toRead, READ_CONCURRENCY, async (skill) => {
      const { body, stamp } = await readBody(skill, snapshot);
      if (this.closed) return;
      if (this.indexed.has(skill.filePath)) this.search.discard(skill.filePath);
      this.search.add({ id: skill.filePath, name: skill.name, description: skill.description, body });
      this.indexed.set(skill.filePath, { skill, stamp });
      changed = true;
    });
    if (this.search.dirtCount >= VACUUM_MIN_DIRT && this.search.dirtFactor >= VACUUM_MIN_FACTOR) {
      await this.search.vacuum({ batchSize: 2000, batchWait: 0 });
    }
    this.applied = snapshot;
    if (changed) this.revisionCount++;
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
    return { body: skillBody(head.text), stamp };
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
