// What one walk of a skill's files may examine (docs/api.md "Limits on walks"): every directory entry read counts,
// the ones the listing then refuses (a link out of the skill, a dangling link, a FIFO) included, so a tree of
// nothing but refused or empty entries is bounded like any other. A walk also stops as soon as its signal aborts:
// the client that asked for it has gone away.

import { SkillsdError } from '../errors.js';

export interface WalkLimits {
  /** Most directory entries examined in one walk, refused ones included. */
  maxEntries: number;
  /** Most directories listed in one walk. */
  maxDirectories: number;
  /** Deepest directory level walked below the skill's directory. */
  maxDepth: number;
}

export const DEFAULT_WALK_LIMITS: Readonly<WalkLimits> = Object.freeze({
  maxEntries: 20_000,
  maxDirectories: 2_000,
  maxDepth: 16,
});

/** A walk went past one of its bounds; `message` names the bound (and the setting that changes it). */
export class WalkBoundPassed extends SkillsdError {
  constructor(reason: string) {
    super('TooLarge', reason);
    this.name = 'WalkBoundPassed';
  }
}

export function isWalkBoundPassed(value: unknown): value is WalkBoundPassed {
  return value instanceof WalkBoundPassed;
}

/** Called for every directory entry a listing reads, before anything else is done with it. */
export interface EntryBudget {
  entry(): void;
}

/** The counter of one walk: entries examined, directories listed, and the signal that ends it. */
export class WalkBudget implements EntryBudget {
  examined = 0;
  directories = 0;
  private readonly limits: WalkLimits;
  private readonly signal: AbortSignal | undefined;
  private readonly onEntry: (() => void) | undefined;
  private readonly onDirectory: (() => void) | undefined;

  constructor(limits: WalkLimits, signal?: AbortSignal, onEntry?: () => void, onDirectory?: () => void) {
    this.limits = limits;
    this.signal = signal;
    this.onEntry = onEntry;
    this.onDirectory = onDirectory;
  }

  entry(): void {
    this.signal?.throwIfAborted();
    this.examined++;
    this.onEntry?.();
    if (this.examined > this.limits.maxEntries) {
      throw new WalkBoundPassed(`more than ${this.limits.maxEntries} entries (server.walkLimits.maxEntries)`);
    }
  }

  directory(): void {
    this.signal?.throwIfAborted();
    this.directories++;
    this.onDirectory?.();
    if (this.directories > this.limits.maxDirectories) {
      throw new WalkBoundPassed(
        `more than ${this.limits.maxDirectories} directories (server.walkLimits.maxDirectories)`,
      );
    }
  }

  depth(level: number): void {
    if (level > this.limits.maxDepth) {
      throw new WalkBoundPassed(
        `directories nested deeper than ${this.limits.maxDepth} levels (server.walkLimits.maxDepth)`,
      );
    }
  }
}

/**
 * The bounds of the agent views' walks of their roots (docs/api.md "Limits on walks"): each root's walk, and the
 * directory watches all the views of a workspace add below their roots. A root holds many skills where a skill's own
 * walk holds one, so the defaults are a real 10,000-skill root's several times over, not `DEFAULT_WALK_LIMITS`.
 */
export interface ViewWalkLimits extends WalkLimits {
  /** Most directory watches the walks below the views' roots add, for all the views of one workspace. */
  maxWatchedDirectories: number;
}

export const DEFAULT_VIEW_WALK_LIMITS: Readonly<ViewWalkLimits> = Object.freeze({
  maxEntries: 200_000,
  maxDirectories: 50_000,
  maxDepth: 32,
  maxWatchedDirectories: 4_096,
});
