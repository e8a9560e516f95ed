// Collision bookkeeping beyond the reference (docs/discovery.md §5 last paragraph, docs/api.md `Collision`): every candidate that
// lost is recorded under a name, and once discovery has settled, each name that has a winner and at least one loser
// becomes one `Collision`.

import type { Collision, CollisionReason, Skill } from '../types.js';
import { compareSkills } from './sort-skills.js';

/** A skill found by a scan, with its position in discovery order (providers by priority, then custom directories). */
export interface Candidate {
  skill: Skill;
  /** `realpath(filePath)`, or `filePath` when it cannot be resolved (the file vanished meanwhile). */
  realpath: string;
  order: number;
}

interface Loss {
  candidate: Candidate;
  reason: CollisionReason;
}

export class CollisionLedger {
  readonly #losses = new Map<string, Loss[]>();

  /**
   * Records that `candidate` lost. `name` is the name the loss is reported under: the candidate's own name, except for
   * a realpath duplicate of a differently-named skill, which is reported under the name of the skill holding that
   * file (the same file cannot win twice, so that is the skill it lost to).
   */
  lose(candidate: Candidate, reason: CollisionReason, name: string = candidate.skill.name): void {
    const list = this.#losses.get(name);
    if (list === undefined) this.#losses.set(name, [{ candidate, reason }]);
    else list.push({ candidate, reason });
  }

  /**
   * One `Collision` per name that has a winner among `winners` and at least one loser. Names whose every candidate was
   * removed have no winner and give no record. Shadowed candidates are listed in discovery order; the result is sorted
   * like skills (docs/discovery.md §1).
   */
  collisions(winners: ReadonlyMap<string, Skill>): Collision[] {
    const out: Collision[] = [];
    for (const [name, losses] of this.#losses) {
      const winner = winners.get(name);
      if (winner === undefined) continue;
      const shadowed = [...losses]
        .sort((a, b) => a.candidate.order - b.candidate.order)
        .map(({ candidate, reason }) => ({
          filePath: candidate.skill.filePath,
          source: candidate.skill.source,
          reason,
        }));
      out.push({ name, winner: { filePath: winner.filePath, source: winner.source }, shadowed });
    }
    return out.sort((a, b) =>
      compareSkills({ name: a.name, filePath: a.winner.filePath }, { name: b.name, filePath: b.winner.filePath }),
    );
  }
}
