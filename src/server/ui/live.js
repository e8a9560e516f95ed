// The page at /ui kept up to date (docs/api.md "GET /ui — the page"): the view shown reads what it shows, and reads it
// again when an event of `GET /events` concerns it. A view is `{ refresh(), concerns(type, data), agent?, leave? }`:
// `refresh` draws it and resolves to the generation it showed, `concerns` says whether an event changes what it shows
// (an `index` event names the skills and agent views that changed), `agent` makes it follow that agent's own stream,
// and `leave` calls off its requests when another view takes its place.

import { hideError, main, showError } from './dom.js';
import { aborted, apiUrl, token } from './http.js';

/** How long to wait before opening the event stream again when the daemon refused it (the browser gave up). */
const REOPEN_MS = 3000;
const EVENT_TYPES = ['index', 'collision', 'diagnostic', 'reset', 'settings'];
const connection = document.getElementById('connection');

let view;
let shownGeneration;
/** The refresh under way: `{ view, done, again }`, `again` when an event asked for one more meanwhile. */
let current;
let lost = false;
let following = false;

/** Shows `next` in place of the view shown and reads what it shows; resolves once it is drawn (or failed). */
export function show(next) {
  view?.leave?.();
  view = next;
  scheduleRefresh();
  // An agent's stream waits for its view as `GET /skills?agent=` does (503 `NotReady` while the views are
  // computed): it is opened once the first read has ended, so that the wait for the views never reads as a lost daemon.
  if (view.agent === undefined) startFollowing();
  return current.done;
}

/**
 * One refresh at a time; events arriving meanwhile ask for one more, not one each. `aria-busy` on the main region
 * says a refresh is under way (assistive technology waits for it to end), until the last one asked for is in. A view
 * shown in place of another does not wait for the other's refresh: that one was called off (`leave`).
 */
function scheduleRefresh() {
  if (current !== undefined && current.view === view) {
    current.again = true;
    return;
  }
  const run = { view, again: false };
  current = run;
  main.setAttribute('aria-busy', 'true');
  run.done = view
    .refresh()
    .then((generation) => {
      if (current !== run) return;
      shownGeneration = generation;
      hideError();
    })
    .catch((error) => {
      if (current === run && !aborted(error)) showError(error);
    })
    .finally(() => {
      if (current !== run) return;
      current = undefined;
      startFollowing();
      if (run.again) scheduleRefresh();
      else main.removeAttribute('aria-busy');
    });
}

function startFollowing() {
  if (following) return;
  following = true;
  follow();
}

function setConnection(state, text) {
  connection.dataset.state = state;
  connection.textContent = text;
}

/**
 * The event stream: the browser reconnects on its own and resumes with Last-Event-ID. EventSource cannot send a
 * header, so a token goes as `?token=` on this one request (the daemon logs request paths without their query).
 * An agent's view follows that view's own stream, whose events name its skills.
 */
function follow() {
  const source = new EventSource(apiUrl('/events', { token: token(), agent: view.agent }));
  source.addEventListener('hello', (event) => {
    const hello = JSON.parse(event.data);
    const reconnected = lost;
    lost = false;
    setConnection(reconnected ? 'back' : 'live', reconnected ? 'Connected again: up to date' : 'Live');
    // The first answers may have been read before the stream began: once they are in, the generation says whether
    // anything changed in between. After a lost connection everything is read again (it may be another daemon).
    read(hello.generation);
    (current?.done ?? Promise.resolve()).then(() => {
      if (reconnected || hello.generation !== shownGeneration) scheduleRefresh();
    });
  });
  source.addEventListener('error', () => {
    lost = true;
    setConnection('lost', 'Lost the daemon: reconnecting…');
    // A refused stream (an answer that is not an event stream) is not retried by the browser: open it again later.
    if (source.readyState === EventSource.CLOSED) setTimeout(follow, REOPEN_MS);
  });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event) => {
      const data = JSON.parse(event.data);
      read(data.generation);
      if (view.concerns(type, data)) scheduleRefresh();
    });
  }
}

/**
 * The generation of the last event read that carries one, on the header (`data-generation`). The refresh an event
 * asks for starts before the browser draws again, so once it is at a change's generation and `aria-busy` is off, the
 * view shows that change.
 */
function read(generation) {
  if (typeof generation === 'number') connection.dataset.generation = String(generation);
}

/** Whether an `index` event names skills that were added, removed or changed (not only agent views). */
export function namesSkills(data) {
  return data.added.length + data.removed.length + data.changed.length > 0;
}
