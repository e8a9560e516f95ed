// One bound for every wait in the suite. Tests wait on events or conditions, which normally hold within
// milliseconds; this bound only stops a broken test from hanging. It is generous on purpose: CI runs the suite on a
// loaded two-core machine, where a condition that takes 5 ms alone can take seconds.
export const WAIT_MS = 30_000;

/** Polls `predicate` every 10 ms until it holds; fails naming `label` after `timeoutMs`. */
export async function waitUntil(
  label: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = WAIT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`${label}: not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
