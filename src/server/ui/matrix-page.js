// The skill × agent matrix, `GET /ui#agents` (docs/api.md "GET /ui — the page"), read from `GET /agents` while this
// view is shown: one row per SKILL.md some agent reads, one column per agent. The first column (the skill's name
// and where its file is, shortened) and the header row stay in place while the table scrolls inside its own box.

import { h, main, sectionsNav, shortLocations, skillLink } from './dom.js';
import { bodyOf, pageHref, viewsRequest } from './http.js';
import { namesSkills } from './live.js';

export function matrixPage() {
  document.title = 'skillsd: agents';
  // A box that scrolls is reached by keyboard too (its arrows scroll it), and named for who lands on it.
  const matrixBox = h('div', {
    id: 'agents-matrix',
    class: 'matrix-wrap',
    tabindex: '0',
    role: 'region',
    'aria-labelledby': 'agents-title',
  });
  main.replaceChildren(
    sectionsNav('agents'),
    h('section', { id: 'agents' }, h('h2', { id: 'agents-title', text: 'Skills × agents' }), matrixBox),
  );

  const leaving = new AbortController();
  let drawn;
  async function refresh() {
    const answer = await viewsRequest('/agents', {}, (line) => matrixBox.replaceChildren(line), leaving.signal);
    const matrix = bodyOf(answer);
    if (matrix !== drawn) renderMatrix(matrixBox, matrix);
    drawn = matrix;
    return matrix.generation;
  }

  /** The matrix changes with the skills of the default view and with the agent views an event names. */
  function concerns(type, data) {
    if (type === 'index') return namesSkills(data) || (data.views?.length ?? 0) > 0;
    return type === 'reset' || type === 'settings';
  }
  return { refresh, concerns, leave: () => leaving.abort() };
}

function renderMatrix(box, matrix) {
  const where = shortLocations(matrix.skills);
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
          h('th', { scope: 'col', text: 'Skill' }),
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
            h(
              'th',
              { scope: 'row' },
              skillLink(row.name),
              h('span', { class: 'path where', title: row.filePath, text: where.get(row.filePath) }),
            ),
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
