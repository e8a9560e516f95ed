// Once a daemon's first index is built and its watcher armed, the memory that burst grew is given back at once
// (docs/memory.md "After the start"), not 10-30 s later when V8's memory reducer notices the process is idle.
//
// The start allocates more than anything a running daemon does: module loading, every SKILL.md read and parsed, the
// first `/skills` body, a watch and a fingerprint per entry. V8 grows its young generation to the maximum (32 MiB on
// Node 22, 64 MiB on Node 24) under such a burst, and keeps the old space's garbage until its next full collection.
// A "last resort" collection, the one V8 runs on a low-memory notification, frees that garbage and shrinks the young
// generation back to its starting size. Node offers no call for it but the `gc` function of `--expose-gc`, so the flag
// is set at run time and the function taken from a fresh context, leaving the daemon's own global scope as it was.
// Node 20's V8 has no such flavour and runs a plain full collection instead, which keeps its young generation grown.

import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

interface Logger {
  debug(fields: object, message: string): void;
}

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Runs one last-resort collection on the main thread (about 100 ms at 10,000 skills) and logs what it gave back. */
export function returnStartMemory(logger: Logger): void {
  const started = performance.now();
  const rssBefore = residentBytes();
  const youngBefore = youngGenerationBytes();
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as Gc;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  logger.debug(
    {
      ms: Math.round(performance.now() - started),
      rssBefore,
      rssAfter: residentBytes(),
      youngBefore,
      youngAfter: youngGenerationBytes(),
    },
    'gave back the memory of the start',
  );
}

/** The size of V8's new space, the young generation's semi-space. */
function youngGenerationBytes(): number | undefined {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size;
}

/** Node reads the RSS through a file it opens each time: with every descriptor in use it throws, and the log goes without. */
function residentBytes(): number | undefined {
  try {
    return process.memoryUsage.rss();
  } catch {
    return undefined;
  }
}
