// The per-agent views of one workspace as the index keeps them (docs/agents.md "Live"): one computation of the views
// under one generation, each answer serialised once per state, with its ETag. What a state keeps is bounded
// (docs/api.md "Agent views", SECURITY.md "The views"): distinct queries each cost one answer, and the least recently
// used answers go first once a bound is reached.

import { createHash, type Hash } from 'node:crypto';
import type { AgentViews } from '../discovery/agents/compute-views.js';
import { ByteBoundedLru } from './byte-bounded-lru.js';
import { jsonParts } from './sliced-json.js';

export interface AgentAnswer {
  /**
   * The JSON text, kept as a string rather than as a Buffer of its own: a Buffer is memory outside V8's heap, and V8
   * starts a full collection once some tens of megabytes of it were allocated since the last one. The matrix of
   * `GET /agents` is 10 MB at 10,000 skills, made again for each state of the views; asked after every edit, it made
   * a full collection every few edits, whose pause of 100–160 ms fell on an edit's event one edit in eight
   * (docs/performance.md "Where the time and the memory still go"). A string is heap memory, budgeted with the heap.
   */
  body: string;
  /** The body's length in UTF-8 bytes. */
  bytes: number;
  etag: string;
}

interface KeptAnswers {
  answers: ByteBoundedLru<AgentAnswer>;
  catalogs: ByteBoundedLru<AgentAnswer>;
}

export class AgentViewsState {
  readonly views: AgentViews;
  readonly generation: number;
  /** Answers by route and canonical query (src/answers/agent-answers.ts), least recently used first. */
  private readonly answers: ByteBoundedLru<AgentAnswer>;
  /** Catalogs by agent, context window and model, least recently used first: see `catalogAnswer`. */
  private readonly catalogs: ByteBoundedLru<AgentAnswer>;
  /** Answers being written in slices, by key (`answerInSlices`). */
  private readonly writing = new Map<string, Promise<AgentAnswer>>();

  constructor(views: AgentViews, generation: number, kept?: KeptAnswers) {
    this.views = views;
    this.generation = generation;
    this.answers = kept?.answers ?? new ByteBoundedLru(ANSWER_LIMITS, answerBytes);
    this.catalogs = kept?.catalogs ?? new ByteBoundedLru(CATALOG_LIMITS, answerBytes);
  }

  /** A state with the same views under a new generation. */
  withGeneration(generation: number): AgentViewsState {
    return new AgentViewsState(this.views, generation);
  }

  /**
   * The same answers from a new computation (an update that changed nothing): the serialised answers are kept, the
   * new computation's walks and records are what the next update starts from.
   */
  withViews(views: AgentViews): AgentViewsState {
    return new AgentViewsState(views, this.generation, { answers: this.answers, catalogs: this.catalogs });
  }

  /**
   * The answer for `key` (route and canonical query), built by `make` once per state and kept among the
   * {@link MAX_ANSWERS} most recently used within {@link MAX_ANSWER_BYTES}: 101 spellings of `q=` used to hold 101
   * bodies of several MiB each.
   */
  answer(key: string, make: () => unknown): AgentAnswer {
    let known = this.answers.get(key);
    if (known === undefined) {
      known = this.serialise(make());
      this.answers.set(key, known);
    }
    return known;
  }

  /**
   * `answer` for a large one (the matrix of `GET /agents`): its JSON is written in slices (sliced-json.ts), and
   * requests that come while it is written share that one writing. `texts` keeps the text of long arrays' objects
   * from one state to the next (`jsonParts`).
   */
  async answerInSlices(key: string, make: () => unknown, texts?: WeakMap<object, string>): Promise<AgentAnswer> {
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    let writing = this.writing.get(key);
    if (writing === undefined) {
      writing = (async () => {
        const parts = await jsonParts(make(), [], texts);
        const hash = createHash('sha256');
        for (const part of parts) hash.update(part);
        const body = parts.join('');
        const answer = { body, bytes: Buffer.byteLength(body, 'utf8'), etag: this.etagOf(hash) };
        this.answers.set(key, answer);
        return answer;
      })().finally(() => this.writing.delete(key));
      this.writing.set(key, writing);
    }
    return writing;
  }

  /**
   * A catalog (one agent, one context window), built once per state and kept among the last
   * {@link MAX_CATALOG_ANSWERS} asked for within {@link MAX_ANSWER_BYTES}: a client cycling through context windows
   * costs one computation each, and at most that many catalogs (several MiB each for thousands of skills) are held.
   */
  catalogAnswer(key: string, make: () => unknown): AgentAnswer {
    let known = this.catalogs.get(key);
    if (known === undefined) {
      known = this.serialise(make());
      this.catalogs.set(key, known);
    }
    return known;
  }

  /** How many catalogs this state holds. */
  get catalogCount(): number {
    return this.catalogs.size;
  }

  /** How many answers (other than catalogs) this state holds. */
  get answerCount(): number {
    return this.answers.size;
  }

  /** The bytes of the answers this state holds (other than catalogs): at most MAX_ANSWER_BYTES, or one answer. */
  get heldBytes(): number {
    return this.answers.bytes;
  }

  /** The bytes of the catalogs this state holds: at most MAX_ANSWER_BYTES, or one catalog. */
  get catalogBytes(): number {
    return this.catalogs.bytes;
  }

  private serialise(value: unknown): AgentAnswer {
    const body = JSON.stringify(value);
    return {
      body,
      bytes: Buffer.byteLength(body, 'utf8'),
      etag: this.etagOf(createHash('sha256').update(body, 'utf8')),
    };
  }

  private etagOf(hash: Hash): string {
    return `"a${this.generation}-${hash.digest('base64url').slice(0, 22)}"`;
  }
}

/** Answers one state of the views keeps (per route and canonical query). */
export const MAX_ANSWERS = 256;
/** Catalogs one state of the views keeps (per agent and context window). */
export const MAX_CATALOG_ANSWERS = 16;
/**
 * Bytes of serialised answers one state keeps, and as many again of catalogs. An answer larger than this by itself
 * is kept alone.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const ANSWER_LIMITS = { maxEntries: MAX_ANSWERS, maxBytes: MAX_ANSWER_BYTES };
const CATALOG_LIMITS = { maxEntries: MAX_CATALOG_ANSWERS, maxBytes: MAX_ANSWER_BYTES };

function answerBytes(answer: AgentAnswer): number {
  return answer.bytes;
}
