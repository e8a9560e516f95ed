// Real paths kept between updates of the views (docs/agents.md "Live"): the profiles' views and the doctor's findings
// key files by real path, and resolving thousands of them again on every update of a quiet tree costs more than the
// update itself. A path is resolved again once a change is reported at or above it (a link anywhere on its way moved).

import { realpath } from '../files/sliced-fs.js';
import { forgetAtOrUnder } from '../forget-under.js';

export class RealPathMemo {
  private readonly known = new Map<string, string | Promise<string>>();

  /** The real path of `path` (itself when it cannot be resolved): a string when known, else a promise of one. */
  of(path: string): string | Promise<string> {
    const known = this.known.get(path);
    if (known !== undefined) return known;
    const resolving: Promise<string> = realpath(path)
      .catch(() => path)
      .then((real) => {
        // Kept unless a change was reported meanwhile (the entry was forgotten or replaced).
        if (this.known.get(path) === resolving) this.known.set(path, real);
        return real;
      });
    this.known.set(path, resolving);
    return resolving;
  }

  /** Forgets the paths at or under `paths` (all of them when `full`). */
  invalidate(full: boolean, paths: Iterable<string>): void {
    if (full) this.known.clear();
    // Keys are files: a reported path that is one has nothing below it.
    else forgetAtOrUnder(this.known, paths, true);
  }
}
