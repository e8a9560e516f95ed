// A client that honours load shedding: a 503 `Overloaded` (the daemon refusing work while its event loop lags, as on a
// loaded CI box) is retried once the daemon's `/health` no longer reports `overloaded`, as a well-behaved client would
// after `Retry-After`. Anything else, 503 `NotReady` included, is returned as it came. For tests whose subject is not
// load shedding; `test/server/pressure.test.ts` tests the shedding itself.

const DEADLINE_MS = 30_000;
const HEALTH_POLL_MS = 100;

async function isOverloaded(response: Response): Promise<boolean> {
  if (response.status !== 503) return false;
  try {
    return (JSON.parse(await response.clone().text()) as { code?: unknown }).code === 'Overloaded';
  } catch {
    return false;
  }
}

/** `fetch`, retrying a 503 `Overloaded` once `/health` says the load is gone (bounded at 30 s). */
export async function settledFetch(url: string, init?: RequestInit): Promise<Response> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const response = await fetch(url, init);
    if (!(await isOverloaded(response)) || Date.now() > deadline) return response;
    const health = new URL('/health', url);
    while (Date.now() < deadline) {
      const state = (await fetch(health).then(
        (answer) => answer.json(),
        () => ({}),
      )) as { overloaded?: unknown };
      if (state.overloaded === false) break;
      await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
    }
  }
}
