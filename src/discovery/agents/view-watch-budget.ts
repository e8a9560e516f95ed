// The watches the agent views add below their roots, within one budget for all the views of a workspace
// (`server.viewWalkLimits.maxWatchedDirectories`, docs/api.md "Limits on walks"). The roots themselves are watched as
// the default view's skills directories are. Each directory a recursive walk went through below a root costs the
// watches the watcher takes for it: one, and one per folder or link in it (walk-root.ts). They are taken level by level
// across every view, so that one huge root cannot crowd out the top levels of the others; past the budget the rest
// are not watched, and each view that has some of them unwatched says so in a `[skillsd]` warning.

import type { SkillWarning } from '../types.js';
import type { AgentView, WalkedDir } from './types.js';

export interface BudgetedWatches {
  /** The directories watched below the roots, in the order they were taken. */
  dirs: string[];
  /** The watches they cost. */
  watches: number;
  /** Per view, its directories not watched. */
  unwatched: Map<AgentView, Set<string>>;
}

/** Takes the views' walked directories, shallowest first, until the next one would pass `maxWatches`. */
export function budgetViewWatches(views: readonly AgentView[], maxWatches: number): BudgetedWatches {
  // The roots and the other directories the views name are watched anyway: a walked directory among them is free.
  const watched = new Set<string>();
  for (const view of views) for (const dir of view.watch.dirs) watched.add(dir);
  const walked: Array<{ view: AgentView; dir: WalkedDir }> = [];
  for (const view of views) for (const dir of view.watch.walked ?? []) walked.push({ view, dir });
  // Stable: within a level, the views' order and each walk's own order.
  walked.sort((a, b) => a.dir.depth - b.dir.depth);
  const out: BudgetedWatches = { dirs: [], watches: 0, unwatched: new Map() };
  let full = false;
  for (const { view, dir } of walked) {
    if (watched.has(dir.path)) continue;
    if (!full && out.watches + dir.watches <= maxWatches) {
      watched.add(dir.path);
      out.dirs.push(dir.path);
      out.watches += dir.watches;
      continue;
    }
    full = true;
    const unwatched = out.unwatched.get(view) ?? new Set<string>();
    unwatched.add(dir.path);
    out.unwatched.set(view, unwatched);
  }
  return out;
}

/** The warning of a view with `count` directories not watched (docs/agents.md "Live"). */
export function unwatchedWarning(view: AgentView, count: number, maxWatches: number): SkillWarning {
  return {
    skillPath: '',
    message:
      `[skillsd] ${view.agent.name}: ${count} ${count === 1 ? 'directory' : 'directories'} walked below its roots ` +
      `not watched: the views of a workspace take at most ${maxWatches} watches below their roots ` +
      '(server.viewWalkLimits.maxWatchedDirectories); a change there is seen with the next change seen in the same root',
  };
}
