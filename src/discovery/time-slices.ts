// Long work in slices (docs/agents.md "Live", docs/api.md §GET /search): the views' loops over thousands of files,
// the matrix's rows, building a search index and scoring a query run a few milliseconds at a time, and between
// slices the event loop turns (I/O, timers, other requests, `/health`, SIGTERM). A loop whose awaits all resolve at
// once (texts already read, readings memoised) would otherwise run to its end in microtasks. The slice is shared by
// every caller in the process: however many computations run at once, one turn of the loop does at most one slice of
// their work (plus the one step that was running when it ran out).

/** How long a slice runs before the event loop may turn. */
export const SLICE_MS = 8;

let sliceStarted = performance.now();
/** The turn every caller waiting for a new slice waits for; it starts the slice when it runs. */
let nextTurn: Promise<void> | undefined;

/** Whether the current slice is spent: a hot loop checks this before it awaits `nextSlice()`. */
export function sliceSpent(): boolean {
  return performance.now() - sliceStarted >= SLICE_MS;
}

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

/**
 * Starts a slice now: for work an event waits for, which begins after the event loop has turned (the views' update
 * after a build's event). A slice started before that turn would otherwise be found spent at the work's first check
 * and the loop would turn once more before any of it ran (docs/agents.md "Live").
 */
export function startSlice(): void {
  sliceStarted = performance.now();
}

/** First computations a request waits for, under way (`holdBackground`). */
let holds = 0;
let resumed: Promise<void> | undefined;
let resume: (() => void) | undefined;

/**
 * Holds background work back while work a request waits for runs (the first views of a workspace): the search index
 * built ahead, which nobody waits for yet, takes no slices until the returned function is called.
 */
export function holdBackground(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
    if (holds === 0) {
      resume?.();
      resumed = undefined;
      resume = undefined;
    }
  };
}

/** Resolves once no work holds background work back (undefined when none does: nothing to wait for). */
export function backgroundTurn(): Promise<void> | undefined {
  if (holds === 0) return undefined;
  resumed ??= new Promise<void>((resolve) => {
    resume = resolve;
  });
  return resumed;
}

/**
 * Resolves once no work holds background work back, plus a turn: a request that holds again right after a release
 * (the matrix of the `GET /agents` the first views were computed for) takes its hold first.
 */
export async function afterBackground(): Promise<void> {
  for (let turn = backgroundTurn(); turn !== undefined; turn = backgroundTurn()) {
    await turn;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
