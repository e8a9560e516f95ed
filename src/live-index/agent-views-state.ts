// The per-agent views of one workspace as the index keeps them (docs/agents.md "Live"): one computation of the views
// under one generation, each answer serialised once per state, with its ETag.

import { createHash } from 'node:crypto';
import type { AgentViews } from '../discovery/agents/compute-views.js';

export interface AgentAnswer {
  body: Buffer;
  etag: string;
}

export class AgentViewsState {
  readonly views: AgentViews;
  readonly generation: number;
  private readonly answers: Map<string, AgentAnswer>;
  /** Catalogs by agent and context window, least recently used first: see `catalogAnswer`. */
  private readonly catalogs: Map<string, AgentAnswer>;

  constructor(
    views: AgentViews,
    generation: number,
    kept?: { answers: Map<string, AgentAnswer>; catalogs: Map<string, AgentAnswer> },
  ) {
    this.views = views;
    this.generation = generation;
    this.answers = kept?.answers ?? new Map();
    this.catalogs = kept?.catalogs ?? new Map();
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

  /** The answer for `key` (route and query), built by `make` once per state. */
  answer(key: string, make: () => unknown): AgentAnswer {
    let known = this.answers.get(key);
    if (known === undefined) {
      known = this.serialise(make());
      // A few query shapes per state at most.
      if (this.answers.size > 256) this.answers.clear();
      this.answers.set(key, known);
    }
    return known;
  }

  /**
   * A catalog (one agent, one context window), built once per state and kept among the last
   * {@link MAX_CATALOG_ANSWERS} asked for: a client cycling through context windows costs one computation each, and
   * at most that many catalogs (several MiB each for thousands of skills) are held.
   */
  catalogAnswer(key: string, make: () => unknown): AgentAnswer {
    let known = this.catalogs.get(key);
    if (known !== undefined) this.catalogs.delete(key);
    else {
      known = this.serialise(make());
      if (this.catalogs.size >= MAX_CATALOG_ANSWERS) this.catalogs.delete(this.catalogs.keys().next().value as string);
    }
    this.catalogs.set(key, known);
    return known;
  }

  /** How many catalogs this state holds. */
  get catalogCount(): number {
    return this.catalogs.size;
  }

  private serialise(value: unknown): AgentAnswer {
    const body = Buffer.from(JSON.stringify(value), 'utf8');
    const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    return { body, etag: `"a${this.generation}-${digest}"` };
  }
}

/** Catalogs one state of the views keeps (per agent and context window). */
export const MAX_CATALOG_ANSWERS = 16;
