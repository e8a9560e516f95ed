// The page at /ui (docs/api.md "GET /ui — the page"): the skills of one workspace and their collisions, the doctor's
// findings (`#doctor`), the skill × agent matrix (`#agents`), a page per skill (`/ui/skill/{name}`) and one agent's
// view (`?agent=<id>`), each kept up to date from the event stream (live.js). Plain JavaScript modules with no
// dependency: the daemon serves these files as they are. This one picks the view the address names.

import { agentPage } from './agent-page.js';
import { doctorPage } from './doctor-page.js';
import { main } from './dom.js';
import { cwd, features, keepTokenFromFragment, pageHref } from './http.js';
import { listPage } from './list-page.js';
import { show } from './live.js';
import { matrixPage } from './matrix-page.js';
import { skillPage } from './skill-page.js';

/** The views of `/ui` by fragment; a section of one (`#collisions`) shows that view, scrolled to it. */
const TABS = { skills: listPage, doctor: doctorPage, agents: matrixPage };
const SECTIONS = { collisions: listPage };

keepTokenFromFragment();
document.getElementById('home').href = pageHref('/ui');
document.getElementById('workspace').textContent = cwd ?? '';

const skillPath = /^\/ui\/skill\/([^/]+)\/?$/.exec(location.pathname);
const agent = new URLSearchParams(location.search).get('agent') ?? undefined;
if (skillPath !== null) show(skillPage(decodeURIComponent(skillPath[1])));
else if (agent !== undefined) show(agentPage(agent));
else {
  let shown;
  const showTab = () => {
    const wanted = location.hash.slice(1);
    let make = TABS[wanted] ?? SECTIONS[wanted] ?? listPage;
    if (make === matrixPage && !features.has('agents')) make = listPage;
    if (make === shown) return;
    shown = make;
    const drawn = show(make());
    // Scrolled to once what comes before it is in: drawn later, the list would push it out of view.
    if (Object.hasOwn(SECTIONS, wanted)) drawn.then(() => document.getElementById(wanted)?.scrollIntoView());
  };
  showTab();
  addEventListener('hashchange', showTab);
}

// Keyboard first: `/` focuses the view's filter box.
document.addEventListener('keydown', (event) => {
  const box = main.querySelector('input[type="search"]');
  if (event.key !== '/' || box === null || document.activeElement === box) return;
  event.preventDefault();
  box.focus();
});
