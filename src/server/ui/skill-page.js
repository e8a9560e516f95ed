// One skill, `GET /ui/skill/{name}` (docs/api.md "GET /ui — the page"): its source, its frontmatter, its SKILL.md body
// as the daemon renders it, its files, and every other candidate of that name with what happened to it and why.

import { facts, h, main } from './dom.js';
import { bodyOf, messageOf, pageHref, request, viewsRequest } from './http.js';
import { fileBrowser, showRendered } from './skill-files.js';

export function skillPage(name) {
  document.title = `skillsd: ${name}`;
  const encoded = encodeURIComponent(name);

  async function refresh() {
    // The doctor's account of the name answers whether or not a skill of that name is loaded (no 404 to log), with
    // every candidate and why it lost, in words. It reads the agent views too: the wait for them shows above the page.
    const doctor = bodyOf(await viewsRequest(`/doctor/${encoded}`, {}, (line) => main.prepend(line)));
    const skill = doctor.winner;
    if (skill === null) return showMissing(doctor.candidates);
    // The index answered before the body is read: a skill removed in between has no body any more (404), and the
    // event of its removal, on its way, has the page read again. Until then the page says so instead of failing.
    const answer = await request(`/ui/render/${encoded}`);
    const gone = answer.status === 404;
    if (!answer.ok && !gone) throw new Error(messageOf(answer));
    const rendered = gone ? { html: '', truncated: false, generation: undefined } : answer.body;
    const others = doctor.candidates.filter((candidate) => candidate.filePath !== skill.filePath);
    const files = fileBrowser(encoded);
    const body = h('div', { id: 'skill-body', class: 'markdown' });
    if (gone) body.append(h('p', { id: 'skill-gone', class: 'error', text: `${messageOf(answer)} (read again soon)` }));
    else showRendered(body, rendered.html);
    body.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[data-skill-file]') : null;
      if (link === null) return;
      event.preventDefault();
      files.open(link.dataset.skillFile);
    });
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
      h('section', { id: 'files' }, h('h3', { text: 'Files' }), files.tree, files.viewer),
      h('section', { id: 'shadowed' }, h('h3', { text: 'Other candidates of this name' }), candidateList(others)),
    );
    // A skill whose SKILL.md is gone has no folder left to list.
    if (!gone) await files.list();
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

  /**
   * Only what touches this skill re-renders its page (and closes an open file): its own change or collision, a
   * finding in a folder of its name (docs/api.md "GET /doctor": the near misses whose folder has that name), a reset.
   */
  function concerns(type, data) {
    if (type === 'index') return [...data.added, ...data.removed, ...data.changed].includes(name);
    if (type === 'collision') return data.name === name;
    if (type === 'diagnostic') return data.finding.path.split('/').includes(name);
    return true;
  }
  return { refresh, concerns };
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
