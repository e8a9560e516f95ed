// Long search work in slices (docs/api.md §GET /search): building a search index and scoring a query run a few
// milliseconds at a time, and between slices the event loop turns (I/O, timers, `/health`). The slice is shared by
// every caller in the process: however many builds and queries run at once, one turn of the loop does at most one
// slice of their work (plus the one step that was running when it ran out).

/** How long a slice runs before the event loop may turn. */
export const SLICE_MS = 8;

let sliceStarted = performance.now();
/** The turn every caller waiting for a new slice waits for; it starts the slice when it runs. */
let nextTurn: Promise<void> | undefined;

/**
 * Resolves at once while the current slice lasts; once it is spent, after the event loop has turned, in a new slice.
 * Callers woken by the same turn share its slice: the first runs, the others find it spent again and wait for the next.
 */
export async function nextSlice(): Promise<void> {
  while (performance.now() - sliceStarted >= SLICE_MS) {
    nextTurn ??= new Promise<void>((resolve) => {
      setImmediate(() => {
        nextTurn = undefined;
        sliceStarted = performance.now();
        resolve();
      });
    });
    await nextTurn;
  }
}
