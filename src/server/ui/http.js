// What every view of the page at /ui uses to talk to the daemon (docs/api.md "GET /ui — the page"): the token, the
// addresses (every one keeps `?cwd=`), and requests for data. A token goes as an `Authorization` header, never into
// an address. Answers that carry an `ETag` (`GET /skills`, `GET /agents`, docs/api.md "Agent views") are kept with
// their tag and asked for again with `If-None-Match`: an unchanged answer costs a 304 and no parsing.

const TOKEN_KEY = 'skillsd.token';
/** How long the page waits for agent views still being computed (503 `NotReady`) before it gives up. */
const VIEWS_WAIT_MS = 10 * 60 * 1000;
/** How many answers are kept for conditional requests: those of the views, and of a skill's files. */
const KEPT_ANSWERS = 16;

export const features = new Set(
  (document.documentElement.dataset.features ?? '').split(' ').filter((word) => word !== ''),
);
export const cwd = new URLSearchParams(location.search).get('cwd') ?? undefined;

/**
 * A token handed over as `#token=…` is kept for this tab only (session storage) and taken out of the address, so that
 * it is neither in the history nor in a bookmark; it is sent as a bearer token, never in a page's query string.
 */
export function keepTokenFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('token');
  if (given === null) return;
  sessionStorage.setItem(TOKEN_KEY, given);
  fragment.delete('token');
  const rest = fragment.toString();
  history.replaceState(null, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function apiUrl(path, query = {}) {
  const target = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) target.searchParams.set(key, value);
  if (cwd !== undefined) target.searchParams.set('cwd', cwd);
  return target;
}

/** A link to another view of the page, in the same workspace. */
export function pageHref(path, query = {}, hash = '') {
  const target = apiUrl(path, query);
  return `${target.pathname}${target.search}${hash}`;
}

/** Each segment encoded once (the paths come from listings and from the daemon's links: none climbs out). */
export function encodePath(path) {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/');
}

/** Answers with an ETag, by address: the body to show again when the daemon answers 304. */
const kept = new Map();

/**
 * One request for data: `{ status, ok, body, retryAfter }`. When the daemon answers 304 to the tag of an answer kept
 * earlier, `body` is that same object: a view that drew it need not draw it again. The browser's own cache is left
 * out (`no-store`): it would turn the 304 into a 200 the page cannot tell apart. `keep: false` keeps no answer (a
 * search: the next one asks for other words, or follows a change that moved its tag).
 */
export async function request(path, query, { accept = 'application/json', signal, keep = true } = {}) {
  const url = apiUrl(path, query).href;
  const headers = { accept };
  const bearer = token();
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  const before = kept.get(url);
  if (before !== undefined) headers['if-none-match'] = before.etag;
  const response = await fetch(url, { headers, signal, cache: 'no-store' });
  const retryAfter = Number(response.headers.get('retry-after'));
  kept.delete(url);
  if (response.status === 304 && before !== undefined) {
    kept.set(url, before);
    return { status: 200, ok: true, body: before.body, retryAfter };
  }
  const type = response.headers.get('content-type') ?? '';
  const body = type.startsWith('application/json') ? await response.json() : await response.text();
  const etag = response.headers.get('etag');
  if (keep && response.ok && etag !== null) {
    kept.set(url, { etag, body });
    if (kept.size > KEPT_ANSWERS) kept.delete(kept.keys().next().value);
  }
  return { status: response.status, ok: response.ok, body, retryAfter };
}

export async function json(path, query, options) {
  return bodyOf(await request(path, query, options));
}

export function bodyOf(answer) {
  if (!answer.ok) throw new Error(messageOf(answer));
  return answer.body;
}

export function messageOf(answer) {
  const body = answer.body;
  if (typeof body === 'object' && body !== null && typeof body.message === 'string') {
    return `${body.code ?? answer.status}: ${body.message}`;
  }
  return `HTTP ${answer.status}`;
}

/** True for the rejection of a request or wait that the page called off itself (`AbortController`). */
export function aborted(error) {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * A request that reads agent views (docs/api.md "Agent views"): they are computed on first use, and a first
 * computation longer than the daemon's request wait answers 503 `NotReady`. That is no error: `place` is given a
 * line saying how long the page has waited, and the request is made again after the daemon's `Retry-After`, for up to
 * VIEWS_WAIT_MS. Resolves to the first other answer; `signal` calls the wait off.
 */
export async function viewsRequest(path, query, place, signal) {
  const started = Date.now();
  let answer = await request(path, query, { signal });
  if (!notReady(answer)) return answer;
  const line = document.createElement('p');
  line.className = 'muted progress';
  line.setAttribute('role', 'status');
  const tick = () => {
    line.textContent = `Computing the agent views… ${Math.floor((Date.now() - started) / 1000)} s`;
  };
  tick();
  place(line);
  const ticking = setInterval(tick, 1000);
  try {
    while (notReady(answer)) {
      if (Date.now() - started > VIEWS_WAIT_MS) {
        throw new Error('The agent views were still being computed after 10 minutes; reload the page to wait again.');
      }
      await pause((answer.retryAfter > 0 ? answer.retryAfter : 1) * 1000, signal);
      answer = await request(path, query, { signal });
    }
  } finally {
    clearInterval(ticking);
    line.remove();
  }
  return answer;
}

function notReady(answer) {
  return answer.status === 503 && answer.body?.code === 'NotReady';
}

function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * A file of the daemon read with the token as a header, as an object URL of its bytes. An `<img src>` or a download
 * link cannot send a header, and the token must not go into an address: addresses reach request logs, the browser's
 * history and Referer headers, and a token in one would outlive the tab (docs/api.md "GET /ui"). So with a token the
 * page reads relative images and raw files itself. An object URL (`blob:`) belongs to this page alone and only this
 * script makes one; the page's policy lets images load from such URLs besides the daemon's own (`img-src 'self' blob:`).
 */
export async function readWithToken(url) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token()}` } });
  if (!response.ok) {
    const type = response.headers.get('content-type') ?? '';
    const body = type.startsWith('application/json') ? await response.json() : undefined;
    throw new Error(messageOf({ status: response.status, body }));
  }
  return URL.createObjectURL(await response.blob());
}
