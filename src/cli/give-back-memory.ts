// The memory a burst of work grew is given back once the burst is over (docs/memory.md "After the start" and "After
// a burst"), not whenever V8's memory reducer notices the process is idle, which in our measurements never shrank
// the young generation.
//
// The start allocates more than anything a running daemon does: module loading, every SKILL.md read and parsed, the
// first `/skills` body, a watch and a fingerprint per entry. Later bursts (hundreds of reloads, a first search, the
// agents' views) do the same on a smaller scale. V8 grows its young generation up to its maximum (32 MiB on Node 22,
// 64-128 MiB seen on Node 24) under such a burst and keeps it grown; the old space keeps the garbage the burst
// promoted until its next full collection. A "last resort" collection (`collectLastResort`,
// src/live-index/collect-garbage.ts) frees that garbage and shrinks the young generation back to its starting size.
// Node 20's V8 has no such flavour and runs a plain full collection instead, which keeps its young generation grown
// (so after the start, nothing there counts as grown again).

import { getHeapSpaceStatistics } from 'node:v8';
import { collectLastResort } from '../live-index/collect-garbage.js';

interface Logger {
  debug(fields: object, message: string): void;
}

/** How often a quiet daemon looks at its young generation. */
const QUIET_CHECK_MS = 5000;
/** The share of a check's interval the event loop may have been busy for the interval to count as quiet. */
const QUIET_UTILIZATION = 0.02;
/**
 * Growth of the young generation worth a collection: V8 doubles it from 1 MiB, so 8 MiB more is a semi-space of 16
 * (two of them resident), where one or two doublings after a few requests are not worth the pause.
 */
const MIN_GROWTH = 8 * 1024 * 1024;

/**
 * Once the start is over: runs one last-resort collection on the main thread (about 100 ms at 10,000 skills), then,
 * every QUIET_CHECK_MS, another when the event loop was quiet for the whole interval and the young generation grew by
 * MIN_GROWTH since the last one. A burst still going (the loop busy) waits for its end; a quiet daemon whose young
 * generation did not grow is left alone. Each collection is logged at `debug` with what it gave back. Returns the
 * function that stops the checks.
 */
export function giveBackMemory(logger: Logger, checkMs = QUIET_CHECK_MS): () => void {
  let young = collect(logger, 'gave back the memory of the start');
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const quiet = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILIZATION;
    last = now;
    const current = youngGenerationBytes();
    if (!quiet || current === undefined || young === undefined || current - young < MIN_GROWTH) return;
    young = collect(logger, 'gave back the memory of a burst');
    // The collection's own pause is not activity: the next interval starts after it.
    last = performance.eventLoopUtilization();
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** One last-resort collection, logged at `debug`; returns the young generation's size after it. */
function collect(logger: Logger, message: string): number | undefined {
  const started = performance.now();
  const rssBefore = residentBytes();
  const youngBefore = youngGenerationBytes();
  collectLastResort();
  const youngAfter = youngGenerationBytes();
  logger.debug(
    { ms: Math.round(performance.now() - started), rssBefore, rssAfter: residentBytes(), youngBefore, youngAfter },
    message,
  );
  return youngAfter;
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
