// A full garbage collection on request (SECURITY.md "Overload recovers"): the load sampler asks for one before it
// refuses requests for the resident set. V8 collects its old generation only once it has grown to a multiple of
// what was live after the last collection, so a daemon whose live heap is half the RSS bound (about 750 MB with every
// agent view of 10,000 skills) crosses that bound with garbage alone, and kept crossing it edit after edit. Node
// offers no collection without `--expose-gc`; the flag set at run time exposes `gc` to contexts made afterwards.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collects every generation now, synchronously (a pause of some hundreds of ms at a heap of 1 GB). */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
