// The per-agent views of one workspace as the index keeps them (docs/agents.md "Live"): computed on the first
// request, then again with every build; each answer serialised once per state, with its ETag.

import { createHash } from 'node:crypto';
import type { AgentViews } from '../discovery/agents/compute-views.js';

export interface AgentAnswer {
  body: Buffer;
  etag: string;
}

export class AgentViewsState {
  readonly views: AgentViews;
  readonly generation: number;
  /** What the answers of this state depend on: equal fingerprints, equal answers. */
  readonly fingerprint: string;
  private readonly answers = new Map<string, AgentAnswer>();
  /** Catalogs by agent and context window, least recently used first: see `boundedAnswer`. */
  private readonly catalogs = new Map<string, AgentAnswer>();

  constructor(views: AgentViews, generation: number, fingerprint: string) {
    this.views = views;
    this.generation = generation;
    this.fingerprint = fingerprint;
  }

  /** A state with the same views under a new generation. */
  withGeneration(generation: number): AgentViewsState {
    return new AgentViewsState(this.views, generation, this.fingerprint);
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

/** The fingerprint of views: everything any answer is built from. */
export function viewsFingerprint(views: AgentViews): string {
  const hash = createHash('sha256');
  for (const [id, view] of views.views) {
    hash.update(id);
    hash.update(JSON.stringify(view.skills));
    hash.update(JSON.stringify(view.warnings));
    hash.update(JSON.stringify(view.collisions));
    hash.update(JSON.stringify(view.diagnostics));
    hash.update(JSON.stringify(view.rootOrder));
  }
  hash.update(JSON.stringify(views.rows));
  return hash.digest('hex');
}
