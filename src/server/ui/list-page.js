// The skills of the workspace and their collisions, `GET /ui` (docs/api.md "GET /ui — the page"), read from
// `GET /skills` alone, with a filter box that searches with `GET /search` when the daemon answers it.

import { h, main, reasonText, sectionsNav, showError, skillLink, stackTable } from './dom.js';
import { aborted, bodyOf, features, messageOf, request } from './http.js';
import { namesSkills } from './live.js';

/** How long the filter box waits after the last keystroke before it searches: one search per word typed, not per key. */
const SEARCH_DELAY_MS = 150;

export function listPage() {
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
  main.replaceChildren(
    sectionsNav('skills'),
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
  );

  const leaving = new AbortController();
  let skills = [];
  let searchAnswers = searchable;
  /** The search under way, called off by the next one: only the last word typed is worth an answer. */
  let searching;
  let typing;

  async function showRows() {
    const query = filter.value.trim();
    let shown = skills;
    searching?.abort();
    searching = undefined;
    if (query !== '' && searchAnswers) {
      searching = new AbortController();
      const answer = await request('/search', { q: query, limit: '100' }, { signal: searching.signal, keep: false });
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

  const showRowsNow = () =>
    showRows().catch((error) => {
      if (!aborted(error)) showError(error);
    });
  filter.addEventListener('input', () => {
    clearTimeout(typing);
    // A search under way is for a word no longer in the box. Filtering the list in the page costs no request: only a
    // search waits for the typing to pause.
    searching?.abort();
    if (searchAnswers && filter.value.trim() !== '') typing = setTimeout(showRowsNow, SEARCH_DELAY_MS);
    else showRowsNow();
  });

  let drawn;
  async function refresh() {
    const list = bodyOf(await request('/skills', {}, { signal: leaving.signal }));
    // The answer drawn last (a 304 gives it back): what is shown is still right.
    if (list === drawn) return list.generation;
    skills = list.skills;
    document.getElementById('workspace').textContent = list.cwd;
    renderCollisions(collisionsBox, list.collisions);
    drawn = list;
    // A search typed meanwhile calls this one off: it shows the new list itself.
    await showRows().catch((error) => {
      if (!aborted(error)) throw error;
    });
    return list.generation;
  }

  /** `GET /skills` holds the skills and their collisions: a change of skills, a collision, a reset. */
  function concerns(type, data) {
    if (type === 'index') return namesSkills(data);
    return type !== 'diagnostic';
  }
  return {
    refresh,
    concerns,
    leave: () => {
      clearTimeout(typing);
      searching?.abort();
      leaving.abort();
    },
  };
}

function skillRow(skill) {
  return h(
    'tr',
    { 'data-skill': skill.name },
    h('td', {}, skillLink(skill.name)),
    h('td', { text: skill.description }),
    h('td', { title: skill.source.id, text: `${skill.source.providerName} · ${skill.source.level}` }),
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
