// Garbage collections on request: the daemon's memory given back after a burst (src/cli/give-back-memory.ts) and the
// load sampler's look at its resident set (SECURITY.md "Overload recovers"). Node offers no call for them but the
// `gc` function of `--expose-gc`, so the flag is set at run time and the function taken from a fresh context, leaving
// the daemon's own global scope as it was.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let gc: Gc | undefined;

function exposedGc(): Gc {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  }
  return gc;
}

/**
 * A full collection of every generation, synchronous, with the memory of freed Buffers given back as V8 sweeps: a few
 * hundred ms with every agent view of 10,000 skills. (Node 20's `gc` with options left 400 MB of dropped Buffers
 * resident; without options it frees them on every version.)
 */
export function collectGarbage(): void {
  exposedGc()();
}

/**
 * A "last resort" collection, the one V8 runs on a low-memory notification: it frees the old generation's garbage
 * and shrinks the young generation back to its starting size. Node 20's V8 has no such flavour (see collectGarbage).
 */
export function collectLastResort(): void {
  exposedGc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
