// One agent's view, `GET /ui?agent=<id>` (docs/api.md "GET /ui — the page"): what `GET /skills?agent=` says the
// agent loads and the collisions it settles, as it would, kept up to date from that view's own stream.

import { h, main, reasonText, stackTable } from './dom.js';
import { bodyOf, pageHref, viewsRequest } from './http.js';

export function agentPage(id) {
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

  let drawn;
  async function refresh() {
    const answer = bodyOf(await viewsRequest('/skills', { agent: id }, (line) => about.after(line)));
    // The answer drawn last (a 304 gives it back): what is shown is still right.
    if (answer === drawn) return answer.generation;
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
    collisionsBox.replaceChildren(collisionList(answer.collisions));
    drawn = answer;
    return answer.generation;
  }
  // The view's stream carries only that view's changes: each is worth reading again.
  return { refresh, concerns: () => true, agent: id };
}

function collisionList(collisions) {
  if (collisions.length === 0) return h('p', { class: 'muted', text: 'No name is claimed by more than one skill.' });
  const source = (candidate) => `${candidate.source.agent}:${candidate.source.scope}`;
  return h(
    'ul',
    {},
    collisions.map((collision) =>
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
  );
}
