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
      const body = Buffer.from(JSON.stringify(make()), 'utf8');
      const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
      known = { body, etag: `"a${this.generation}-${digest}"` };
      // A few query shapes per state at most; a client cycling through context windows is bounded here.
      if (this.answers.size > 256) this.answers.clear();
      this.answers.set(key, known);
    }
    return known;
  }
}

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
