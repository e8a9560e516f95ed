// Building the page at /ui (docs/api.md "GET /ui — the page"). Everything a skill author wrote is put into the page
// as text (textContent); the one exception is the SKILL.md body, which the daemon renders and sanitises
// (GET /ui/render/{name}) and the page's policy confines further (skill-page.js).

import { features, pageHref } from './http.js';

const REASONS = {
  precedence: 'a source of higher priority won',
  'custom-override': 'a custom directory replaced it',
  'duplicate-file': 'the same file, found a second time',
  'custom-collision': 'two custom directories claim this name',
  disabled: 'its own source or a filter removed it',
};

/** The page's main region: each view draws into it. */
export const main = document.getElementById('main');
const errorBox = document.getElementById('error');

/** An element with attributes and children; strings become text nodes, never markup. */
export function h(tag, attributes = {}, ...children) {
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

/** A table that stacks its cells on narrow screens, in its scrolling box: a header row of `titles`, then `rows`. */
export function stackTable(titles, rows) {
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

export function facts(pairs) {
  return h(
    'dl',
    { class: 'facts' },
    pairs
      .filter(([, value]) => value !== undefined)
      .flatMap(([term, value]) => [h('dt', { text: term }), h('dd', { text: value })]),
  );
}

/**
 * The views of `/ui`, one at a time: the skills and their collisions, the doctor, the skill × agent matrix (when the
 * daemon answers `GET /agents`). Each reads only what it shows (app.js).
 */
export function sectionsNav(current) {
  const tabs = [
    ['skills', 'Skills'],
    ['collisions', 'Collisions'],
    ['doctor', 'Doctor'],
    ...(features.has('agents') ? [['agents', 'Agents']] : []),
  ];
  return h(
    'nav',
    { class: 'sections', 'aria-label': 'Sections' },
    tabs.map(([id, text]) => h('a', { href: `#${id}`, text, 'aria-current': id === current ? 'page' : undefined })),
  );
}

export function skillLink(name) {
  return h('a', { href: pageHref(`/ui/skill/${encodeURIComponent(name)}`), text: name });
}

export function reasonText(reason) {
  return REASONS[reason] ?? reason;
}

export function showError(error) {
  errorBox.textContent = error instanceof Error ? error.message : String(error);
  errorBox.hidden = false;
}

export function hideError() {
  errorBox.hidden = true;
}

/**
 * Where each file is, short enough for a table's first column: the last folders of its directory, without the
 * `SKILL.md` and without the skill's own folder when it bears the skill's name (the name shows beside it), as many as
 * it takes to tell apart the files of the same name (`…/home/.claude/skills/` and `…/work/.claude/skills/`), at
 * least three. `rows` are `{ name, filePath }`; the answer maps each file to its text.
 */
export function shortLocations(rows) {
  const folders = new Map(rows.map((row) => [row.filePath, foldersOf(row)]));
  const byName = new Map();
  for (const row of rows) {
    const group = byName.get(row.name);
    if (group === undefined) byName.set(row.name, [row]);
    else group.push(row);
  }
  const shown = new Map();
  for (const group of byName.values()) {
    let length = 3;
    const text = (row) => {
      const all = folders.get(row.filePath);
      const tail = all.slice(-length).join('/');
      return `${all.length > length ? '…/' : '/'}${tail}${tail === '' ? '' : '/'}`;
    };
    const longest = Math.max(...group.map((row) => folders.get(row.filePath).length));
    while (length < longest && new Set(group.map(text)).size < group.length) length += 1;
    for (const row of group) shown.set(row.filePath, text(row));
  }
  return shown;
}

function foldersOf(row) {
  const segments = row.filePath.split('/').filter((segment) => segment !== '');
  if (segments.at(-1) === 'SKILL.md') segments.pop();
  if (segments.at(-1) === row.name) segments.pop();
  return segments;
}
