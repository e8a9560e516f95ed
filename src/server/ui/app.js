// The page at /ui (docs/api.md "GET /ui"): the skills of one workspace, a page per skill, collisions and the doctor's
// findings, kept up to date from /events; with `?agent=<id>`, one agent's view, kept up to date from its own stream
// (/events?agent=<id>). Plain JavaScript with no dependency: the daemon serves this file as it is.
// Everything a skill author wrote is put into the page as text (textContent); the one exception is the SKILL.md body,
// which the daemon renders and sanitises (GET /ui/render/{name}) and the page's policy confines further.

const TOKEN_KEY = 'skillsd.token';
/** How long to wait before opening the event stream again when the daemon refused it (the browser gave up). */
const REOPEN_MS = 3000;
/** How long the page waits for agent views still being computed (503 `NotReady`) before it gives up. */
const VIEWS_WAIT_MS = 10 * 60 * 1000;
const REASONS = {
  precedence: 'a source of higher priority won',
  'custom-override': 'a custom directory replaced it',
  'duplicate-file': 'the same file, found a second time',
  'custom-collision': 'two custom directories claim this name',
  disabled: 'its own source or a filter removed it',
};

const features = new Set((document.documentElement.dataset.features ?? '').split(' ').filter((word) => word !== ''));
const cwd = new URLSearchParams(location.search).get('cwd') ?? undefined;
const agent = new URLSearchParams(location.search).get('agent') ?? undefined;
const main = document.getElementById('main');
const connection = document.getElementById('connection');
const errorBox = document.getElementById('error');

keepTokenFromFragment();
document.getElementById('home').href = pageHref('/ui');
document.getElementById('workspace').textContent = cwd ?? '';

const skillPath = /^\/ui\/skill\/([^/]+)\/?$/.exec(location.pathname);
const view =
  skillPath !== null
    ? skillView(decodeURIComponent(skillPath[1]))
    : agent !== undefined
      ? agentView(agent)
      : listView();
let shownGeneration;
let refreshing;
let refreshAgain = false;
let lost = false;
let following = false;
scheduleRefresh();
// An agent's stream waits for its view as `GET /skills?agent=` does (503 `NotReady` while the views are computed):
// it is opened once the first read has ended, so that the page's wait for the views never reads as a lost daemon.
if (view.agent === undefined) startFollowing();

/**
 * A token handed over as `#token=…` is kept for this tab only (session storage) and taken out of the address, so that
 * it is neither in the history nor in a bookmark; it is sent as a bearer token, never in a page's query string.
 */
function keepTokenFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('token');
  if (given === null) return;
  sessionStorage.setItem(TOKEN_KEY, given);
  fragment.delete('token');
  const rest = fragment.toString();
  history.replaceState(null, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

function apiUrl(path, query = {}) {
  const target = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) target.searchParams.set(key, value);
  if (cwd !== undefined) target.searchParams.set('cwd', cwd);
  return target;
}

/** A link to another view of the page, in the same workspace. */
function pageHref(path, query = {}) {
  const target = apiUrl(path, query);
  return `${target.pathname}${target.search}`;
}

/** Each segment encoded once (the paths come from listings and from the daemon's links: none climbs out). */
function encodePath(path) {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/');
}

async function request(path, query, accept = 'application/json') {
  const headers = { accept };
  const bearer = token();
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(apiUrl(path, query), { headers });
  const type = response.headers.get('content-type') ?? '';
  const body = type.startsWith('application/json') ? await response.json() : await response.text();
  return { status: response.status, ok: response.ok, body, retryAfter: Number(response.headers.get('retry-after')) };
}

async function json(path, query) {
  return bodyOf(await request(path, query));
}

function bodyOf(answer) {
  if (!answer.ok) throw new Error(messageOf(answer));
  return answer.body;
}

/**
 * A request that reads agent views (docs/api.md "Agent views"): they are computed on first use, and a first
 * computation longer than the daemon's request wait answers 503 `NotReady`. That is no error: `place` is given a
 * line saying how long the page has waited, and the request is made again after the daemon's `Retry-After`, for up to
 * VIEWS_WAIT_MS. Resolves to the first other answer.
 */
async function viewsRequest(path, query, place) {
  const started = Date.now();
  let answer = await request(path, query);
  if (!notReady(answer)) return answer;
  const line = h('p', { class: 'muted progress', role: 'status' });
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
      const seconds = answer.retryAfter > 0 ? answer.retryAfter : 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      answer = await request(path, query);
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

function messageOf(answer) {
  const body = answer.body;
  if (typeof body === 'object' && body !== null && typeof body.message === 'string') {
    return `${body.code ?? answer.status}: ${body.message}`;
  }
  return `HTTP ${answer.status}`;
}

/** A table that stacks its cells on narrow screens, in its scrolling box: a header row of `titles`, then `rows`. */
function stackTable(titles, rows) {
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      titles.map((title) => h('th', { scope: 'col', text: title })),
    ),
  );
  return h('div', { class: 'table-wrap' }, h('table', { class: 'stack' }, head, rows));
}

/** An element with attributes and children; strings become text nodes, never markup. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue;
    if (key === 'class') element.className = value;
    else if (key === 'text') element.textContent = value;
    else if (typeof value === 'function') element.addEventListener(key, value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

function facts(pairs) {
  return h(
    'dl',
    { class: 'facts' },
    pairs
      .filter(([, value]) => value !== undefined)
      .flatMap(([term, value]) => [h('dt', { text: term }), h('dd', { text: value })]),
  );
}

function skillLink(name) {
  return h('a', { href: pageHref(`/ui/skill/${encodeURIComponent(name)}`), text: name });
}

function sourceText(source) {
  return `${source.providerName} · ${source.level}`;
}

function reasonText(reason) {
  return REASONS[reason] ?? reason;
}

function showError(error) {
  errorBox.textContent = error instanceof Error ? error.message : String(error);
  errorBox.hidden = false;
}

function setConnection(state, text) {
  connection.dataset.state = state;
  connection.textContent = text;
}

/**
 * One refresh at a time; events arriving meanwhile ask for one more, not one each. `aria-busy` on the main region
 * says a refresh is under way (assistive technology waits for it to end), until the last one asked for is in.
 */
function scheduleRefresh() {
  if (refreshing !== undefined) {
    refreshAgain = true;
    return;
  }
  main.setAttribute('aria-busy', 'true');
  refreshing = view
    .refresh()
    .then((generation) => {
      shownGeneration = generation;
      errorBox.hidden = true;
    })
    .catch(showError)
    .finally(() => {
      startFollowing();
      refreshing = undefined;
      if (refreshAgain) {
        refreshAgain = false;
        scheduleRefresh();
      } else main.removeAttribute('aria-busy');
    });
}

function startFollowing() {
  if (following) return;
  following = true;
  follow();
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
    (refreshing ?? Promise.resolve()).then(() => {
      if (reconnected || hello.generation !== shownGeneration) scheduleRefresh();
    });
  });
  source.addEventListener('error', () => {
    lost = true;
    setConnection('lost', 'Lost the daemon: reconnecting…');
    // A refused stream (an answer that is not an event stream) is not retried by the browser: open it again later.
    if (source.readyState === EventSource.CLOSED) setTimeout(follow, REOPEN_MS);
  });
  for (const type of ['index', 'collision', 'diagnostic', 'reset', 'settings']) {
    source.addEventListener(type, (event) => {
      if (view.concerns(type, JSON.parse(event.data))) scheduleRefresh();
    });
  }
}

function listView() {
  document.title = 'skillsd: skills';
  const searchable = features.has('search');
  const filter = h('input', {
    id: 'filter',
    type: 'search',
    autocomplete: 'off',
    placeholder: searchable ? 'name, description or words of the body' : 'name or description',
    'aria-controls': 'skill-rows',
  });
  const count = h('span', { class: 'count' });
  const rows = h('tbody', { id: 'skill-rows' });
  const note = h('p', { id: 'filter-note', class: 'muted', 'aria-live': 'polite' });
  const collisionsBox = h('div', { id: 'collision-list' });
  const doctorBox = h('div', { id: 'doctor-findings' });
  const matrixBox = h('div', { id: 'agents-matrix', class: 'table-wrap' });
  const agentsSection = h('section', { id: 'agents', hidden: true }, h('h2', { text: 'Skills × agents' }), matrixBox);
  main.replaceChildren(
    h(
      'nav',
      { class: 'sections', 'aria-label': 'Sections' },
      h('a', { href: '#skills', text: 'Skills' }),
      h('a', { href: '#collisions', text: 'Collisions' }),
      h('a', { href: '#doctor', text: 'Doctor' }),
      features.has('agents') ? h('a', { href: '#agents', text: 'Agents' }) : undefined,
    ),
    h(
      'section',
      { id: 'skills' },
      h('h2', {}, 'Skills ', count),
      h('label', { for: 'filter', text: searchable ? 'Filter or search (/)' : 'Filter (/)' }),
      filter,
      note,
      stackTable(['Name', 'Description', 'Source', 'Hidden'], rows),
    ),
    h('section', { id: 'collisions' }, h('h2', { text: 'Collisions' }), collisionsBox),
    h('section', { id: 'doctor' }, h('h2', { text: 'Doctor' }), doctorBox),
    agentsSection,
  );
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== filter) {
      event.preventDefault();
      filter.focus();
    }
  });

  let skills = [];
  let searchSequence = 0;
  let searchAnswers = searchable;

  async function showRows() {
    const query = filter.value.trim();
    let shown = skills;
    if (query !== '' && searchAnswers) {
      const sequence = ++searchSequence;
      const answer = await request('/search', { q: query, limit: '100' });
      if (sequence !== searchSequence) return;
      if (answer.status === 404 && answer.body?.code === 'NotFound') searchAnswers = false;
      else if (!answer.ok) throw new Error(messageOf(answer));
      else {
        const byName = new Map(skills.map((skill) => [skill.name, skill]));
        shown = answer.body.results.map((result) => byName.get(result.name) ?? result);
      }
    }
    if (query !== '' && !searchAnswers) {
      const needle = query.toLowerCase();
      shown = skills.filter(
        (skill) => skill.name.toLowerCase().includes(needle) || skill.description.toLowerCase().includes(needle),
      );
    }
    rows.replaceChildren(...shown.map(skillRow));
    count.textContent = query === '' ? `(${skills.length})` : `(${shown.length} of ${skills.length})`;
    note.textContent = query !== '' && shown.length === 0 ? 'No skill matches.' : '';
  }
  filter.addEventListener('input', () => showRows().catch(showError));

  async function refresh() {
    const [list, doctor] = await Promise.all([json('/skills'), json('/doctor')]);
    skills = list.skills;
    document.getElementById('workspace').textContent = list.cwd;
    renderCollisions(collisionsBox, list.collisions);
    renderFindings(doctorBox, doctor.findings);
    await showRows();
    if (features.has('agents')) {
      const agents = await viewsRequest('/agents', {}, (line) => {
        agentsSection.hidden = false;
        matrixBox.replaceChildren(line);
      });
      agentsSection.hidden = !agents.ok;
      if (agents.ok) renderMatrix(matrixBox, agents.body);
    }
    return list.generation;
  }
  return { refresh, concerns: () => true };
}

function skillRow(skill) {
  return h(
    'tr',
    { 'data-skill': skill.name },
    h('td', {}, skillLink(skill.name)),
    h('td', { text: skill.description }),
    h('td', { title: skill.source.id, text: sourceText(skill.source) }),
    h('td', { text: skill.hide ? 'hidden' : 'no' }),
  );
}

function renderCollisions(box, collisions) {
  if (collisions.length === 0) {
    box.replaceChildren(h('p', { class: 'muted', text: 'No name is claimed by more than one skill.' }));
    return;
  }
  box.replaceChildren(
    h(
      'ul',
      {},
      collisions.map((collision) =>
        h(
          'li',
          { 'data-collision': collision.name },
          skillLink(collision.name),
          ' won by ',
          h('span', { class: 'path', text: collision.winner.filePath }),
          ` (${collision.winner.source.id})`,
          h(
            'ul',
            {},
            collision.shadowed.map((loser) =>
              h(
                'li',
                { 'data-reason': loser.reason },
                h('span', { class: 'path', text: loser.filePath }),
                ` (${loser.source.id}): ${reasonText(loser.reason)}`,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function renderFindings(box, findings) {
  if (findings.length === 0) {
    box.replaceChildren(h('p', { class: 'muted', text: 'No findings: every skills directory reads cleanly.' }));
    return;
  }
  box.replaceChildren(
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'stack' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Severity', 'Rule', 'Where', 'Finding', 'Fix'].map((title) => h('th', { scope: 'col', text: title })),
          ),
        ),
        h(
          'tbody',
          {},
          findings.map((finding) =>
            h(
              'tr',
              { 'data-rule': finding.rule },
              h('td', { class: `severity-${finding.severity}`, text: finding.severity }),
              h('td', { text: finding.rule }),
              h('td', {
                class: 'path',
                text: finding.line === undefined ? finding.path : `${finding.path}:${finding.line}`,
              }),
              h('td', { text: finding.message }),
              h('td', { class: 'fix', text: finding.hint ?? '' }),
            ),
          ),
        ),
      ),
    ),
  );
}

function renderMatrix(box, matrix) {
  box.replaceChildren(
    h(
      'table',
      { class: 'matrix' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', text: 'Name' }),
          h('th', { scope: 'col', text: 'Location' }),
          matrix.agents.map((agent) =>
            h(
              'th',
              { scope: 'col', title: agent.describes },
              h('a', { href: pageHref('/ui', { agent: agent.id }), text: agent.name }),
            ),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        matrix.skills.map((row) =>
          h(
            'tr',
            { 'data-matrix-skill': row.name },
            h('td', {}, skillLink(row.name)),
            h('td', { class: 'path', text: row.filePath }),
            matrix.agents.map((agent) => {
              const cell = row.views[agent.id] ?? { status: 'unseen' };
              return h('td', {
                class: `status-${cell.status}`,
                title: cell.reason,
                text: cell.status === 'unseen' ? '—' : cell.status,
              });
            }),
          ),
        ),
      ),
    ),
  );
}

/** One agent's view (`GET /skills?agent=`): what it loads and the collisions it settles, as it would. */
function agentView(id) {
  document.title = `skillsd: ${id}`;
  const heading = h('h2', { id: 'agent-name', text: id });
  const about = h('p', { id: 'agent-describes', class: 'muted' });
  const rows = h('tbody', { id: 'agent-skill-rows' });
  const collisionsBox = h('div', { id: 'agent-collisions' });
  main.replaceChildren(
    h('p', {}, h('a', { href: pageHref('/ui'), text: '← All skills' })),
    heading,
    about,
    h(
      'section',
      { id: 'skills' },
      h('h3', { text: 'Skills' }),
      stackTable(['Name', 'Description', 'Scope', 'File'], rows),
    ),
    h('section', { id: 'collisions' }, h('h3', { text: 'Collisions' }), collisionsBox),
  );

  async function refresh() {
    const answer = bodyOf(await viewsRequest('/skills', { agent: id }, (line) => about.after(line)));
    heading.textContent = answer.agent.name;
    about.textContent = answer.agent.describes;
    rows.replaceChildren(
      ...answer.skills.map((skill) =>
        h(
          'tr',
          { 'data-skill': skill.name },
          h('td', { text: skill.name }),
          h('td', { text: skill.description }),
          h('td', { title: skill.source.root, text: skill.source.scope }),
          h('td', { class: 'path', text: skill.filePath }),
        ),
      ),
    );
    const source = (candidate) => `${candidate.source.agent}:${candidate.source.scope}`;
    collisionsBox.replaceChildren(
      answer.collisions.length === 0
        ? h('p', { class: 'muted', text: 'No name is claimed by more than one skill.' })
        : h(
            'ul',
            {},
            answer.collisions.map((collision) =>
              h(
                'li',
                { 'data-collision': collision.name },
                `${collision.name} won by `,
                h('span', { class: 'path', text: collision.winner.filePath }),
                ` (${source(collision.winner)})`,
                h(
                  'ul',
                  {},
                  collision.shadowed.map((loser) =>
                    h(
                      'li',
                      { 'data-reason': loser.reason },
                      h('span', { class: 'path', text: loser.filePath }),
                      ` (${source(loser)}): ${reasonText(loser.reason)}`,
                    ),
                  ),
                ),
              ),
            ),
          ),
    );
    return answer.generation;
  }
  // The view's stream carries only that view's changes: each is worth reading again.
  return { refresh, concerns: () => true, agent: id };
}

function skillView(name) {
  document.title = `skillsd: ${name}`;
  const encoded = encodeURIComponent(name);

  async function refresh() {
    // The doctor's account of the name answers whether or not a skill of that name is loaded (no 404 to log), with
    // every candidate and why it lost, in words. It reads the agent views too: the wait for them shows above the page.
    const doctor = bodyOf(await viewsRequest(`/doctor/${encoded}`, {}, (line) => main.prepend(line)));
    const skill = doctor.winner;
    if (skill === null) return showMissing(doctor.candidates);
    const rendered = await json(`/ui/render/${encoded}`);
    const others = doctor.candidates.filter((candidate) => candidate.filePath !== skill.filePath);
    const body = h('div', { id: 'skill-body', class: 'markdown' });
    showRendered(body, rendered.html);
    body.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[data-skill-file]') : null;
      if (link === null) return;
      event.preventDefault();
      openFile(link.dataset.skillFile);
    });
    const viewer = h('div', { id: 'file-viewer', 'aria-live': 'polite' });
    const tree = h('div', { id: 'file-tree' });
    const source = skill.source;
    main.replaceChildren(
      h('p', {}, h('a', { href: pageHref('/ui'), text: '← All skills' })),
      h('h2', { id: 'skill-name', text: skill.name }),
      h('p', { id: 'skill-description', text: skill.description }),
      h(
        'section',
        { id: 'source' },
        h('h3', { text: 'Source' }),
        facts([
          ['Provider', `${source.providerName} (${source.provider})`],
          ['Level', source.level],
          ['Source', source.id],
          ['Plugin', source.plugin],
          ['File', skill.filePath],
          ['Directory', skill.baseDir],
          ['Hidden', skill.hide ? 'yes: left out of the prompt, still invocable' : 'no'],
        ]),
      ),
      h(
        'section',
        { id: 'frontmatter' },
        h('h3', { text: 'Frontmatter' }),
        facts(
          Object.entries(skill.frontmatter).map(([key, value]) => [
            key,
            typeof value === 'string' ? value : JSON.stringify(value),
          ]),
        ),
      ),
      h(
        'section',
        { id: 'body' },
        h('h3', { text: 'SKILL.md' }),
        rendered.truncated ? h('p', { class: 'muted', text: 'Only the first MiB is shown.' }) : undefined,
        body,
      ),
      h('section', { id: 'files' }, h('h3', { text: 'Files' }), tree, viewer),
      h('section', { id: 'shadowed' }, h('h3', { text: 'Other candidates of this name' }), candidateList(others)),
    );
    tree.append(await listing(''));

    async function listing(directory) {
      const path = directory === '' ? '' : encodePath(directory);
      const answer = await request(`/skill/${encoded}/${path}`, directory === '' ? { list: '' } : {});
      if (!answer.ok) return h('p', { class: 'error', text: messageOf(answer) });
      return h(
        'ul',
        { class: 'files' },
        answer.body.entries.map((entry) => {
          const entryPath = directory === '' ? entry.name : `${directory}/${entry.name}`;
          if (entry.type === 'directory') {
            const item = h('li', { 'data-dir': entryPath });
            let open;
            const toggle = async () => {
              if (open !== undefined) {
                open.remove();
                open = undefined;
                button.setAttribute('aria-expanded', 'false');
                return;
              }
              open = await listing(entryPath);
              item.append(open);
              button.setAttribute('aria-expanded', 'true');
            };
            const button = h('button', { type: 'button', 'aria-expanded': 'false', click: toggle }, `${entry.name}/`);
            item.append(button);
            return item;
          }
          return h(
            'li',
            { 'data-file': entryPath },
            h('button', { type: 'button', click: () => openFile(entryPath) }, entry.name),
            h('span', { class: 'muted', text: ` ${entry.size} B` }),
          );
        }),
      );
    }

    async function openFile(path) {
      const answer = await request(`/skill/${encoded}/${encodePath(path)}`, {}, 'text/markdown, text/plain, */*');
      const href = `/skill/${encoded}/${encodePath(path)}${apiUrl('/').search}`;
      const fileName = path.split('/').pop();
      // Without a token the browser downloads it itself; with one it cannot send it, so the page does (readWithToken).
      const download = (event) => {
        event.preventDefault();
        downloadWithToken(href, fileName).catch(showError);
      };
      const raw = h('a', {
        href,
        download: fileName,
        text: 'raw',
        click: token() === undefined ? undefined : download,
      });
      viewer.replaceChildren(
        h('h4', {}, h('span', { class: 'path', text: path }), ' ', raw),
        answer.ok
          ? h('pre', { class: 'file', id: 'file-content', tabindex: '0', text: String(answer.body) })
          : h('p', { class: 'error', id: 'file-content', text: messageOf(answer) }),
      );
    }
    return rendered.generation;
  }

  function showMissing(candidates) {
    main.replaceChildren(
      h('p', {}, h('a', { href: pageHref('/ui'), text: '← All skills' })),
      h('h2', { text: name }),
      h('p', { id: 'skill-missing', text: `No skill "${name}" is loaded in this workspace.` }),
      h('section', { id: 'shadowed' }, h('h3', { text: 'Candidates of this name' }), candidateList(candidates)),
    );
    return undefined;
  }

  /** Only what touches this skill re-renders its page (and closes an open file): its own change or collision. */
  function concerns(type, data) {
    if (type === 'index') return [...data.added, ...data.removed, ...data.changed].includes(name);
    if (type === 'collision') return data.name === name;
    return true;
  }
  return { refresh, concerns };
}

/**
 * The SKILL.md body the daemon rendered and sanitised (docs/api.md "GET /ui"; the page's policy forbids inline script
 * besides), parsed in a template first: nothing in a template loads, so that with a token its images are read by
 * readWithToken before any of them is requested without it (which would only be refused, 401).
 */
function showRendered(box, html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  if (token() !== undefined) {
    for (const image of template.content.querySelectorAll('img[src]')) {
      const source = image.getAttribute('src');
      image.removeAttribute('src');
      // An image that cannot be read shows its alt text, as a broken image does.
      readWithToken(source)
        .then((objectUrl) => {
          const release = () => URL.revokeObjectURL(objectUrl);
          image.addEventListener('load', release, { once: true });
          image.addEventListener('error', release, { once: true });
          image.src = objectUrl;
        })
        .catch(() => undefined);
    }
  }
  box.replaceChildren(template.content);
}

/**
 * A file of the daemon read with the token as a header, as an object URL of its bytes. An `<img src>` or a download
 * link cannot send a header, and the token must not go into an address: addresses reach request logs, the browser's
 * history and Referer headers, and a token in one would outlive the tab (docs/api.md "GET /ui"). So with a token the
 * page reads relative images and raw files itself. An object URL (`blob:`) belongs to this page alone and only this
 * script makes one; the page's policy lets images load from such URLs besides the daemon's own (`img-src 'self' blob:`).
 */
async function readWithToken(url) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token()}` } });
  if (!response.ok) {
    const type = response.headers.get('content-type') ?? '';
    const body = type.startsWith('application/json') ? await response.json() : undefined;
    throw new Error(messageOf({ status: response.status, body }));
  }
  return URL.createObjectURL(await response.blob());
}

/** The last file downloaded with the token: released by the next download (releasing it at once could cut it). */
let downloadedUrl;

async function downloadWithToken(url, fileName) {
  const objectUrl = await readWithToken(url);
  if (downloadedUrl !== undefined) URL.revokeObjectURL(downloadedUrl);
  downloadedUrl = objectUrl;
  h('a', { href: objectUrl, download: fileName }).click();
}

/** Candidates that did not load, each with what happened to it and why (`shadowed`, `filtered`, `skipped`). */
function candidateList(candidates) {
  if (candidates.length === 0) return h('p', { class: 'muted', text: 'No other candidate of this name.' });
  return h(
    'ul',
    {},
    candidates.map((candidate) =>
      h(
        'li',
        { 'data-candidate': candidate.filePath, 'data-outcome': candidate.outcome },
        h('span', { class: 'path', text: candidate.filePath }),
        ` (${candidate.source.id}): ${candidate.outcome}: ${candidate.reason}`,
      ),
    ),
  );
}
