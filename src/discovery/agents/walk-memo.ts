// The walks of the agents' roots kept between builds (docs/agents.md "Live"): a rebuild walks again only the roots
// that a reported path can change — a path inside the root, the root itself or one of its parents, or a path inside
// a directory the walk reached through a link. Every other root's walk is the previous one.

import type { LinkPolicy } from '../link-trust.js';
import { isUnder } from './agent-context.js';
import type { AgentRoot } from './types.js';
import { type RootWalk, walkRoot } from './walk-root.js';

interface Entry {
  root: string;
  walk: Promise<RootWalk>;
}

export class RootWalkMemo {
  private readonly entries = new Map<string, Entry>();
  /** Grows with every invalidation: a walk begun before one is not kept (it may have missed the change). */
  private epoch = 0;
  /** The roots walked from disk (not from memory) since `begin`, in the order they were asked for. */
  walked: string[] = [];

  begin(): void {
    this.walked = [];
  }

  walk(root: AgentRoot, links?: LinkPolicy): Promise<RootWalk> {
    // Everything the walk depends on is data of the root (path, scope, layout, conditions) and the link rules;
    // functions are ignored.
    const key = JSON.stringify([root, links ?? null]);
    const known = this.entries.get(key);
    if (known !== undefined) return known.walk;
    this.walked.push(root.path);
    const epoch = this.epoch;
    const walk = walkRoot(root, links);
    const entry = { root: root.path, walk };
    this.entries.set(key, entry);
    walk.then(
      (done) => {
        if (this.epoch !== epoch && this.entries.get(key) === entry) this.entries.delete(key);
        return done;
      },
      () => this.entries.delete(key),
    );
    return walk;
  }

  /** Forgets the walks `paths` can change. */
  async invalidate(paths: Iterable<string>): Promise<void> {
    const list = [...paths];
    if (list.length === 0) return;
    this.epoch++;
    for (const [key, entry] of this.entries) {
      const walk = await entry.walk.catch(() => undefined);
      const touched =
        walk === undefined ||
        list.some(
          (path) =>
            isUnder(path, entry.root) || isUnder(entry.root, path) || walk.reals.some((real) => isUnder(path, real)),
        );
      if (touched && this.entries.get(key) === entry) this.entries.delete(key);
    }
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}
