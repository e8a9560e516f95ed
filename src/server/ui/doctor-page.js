// The doctor's findings, `GET /ui#doctor` (docs/api.md "GET /ui — the page"), read from `GET /doctor` while this view
// is shown, and narrowed in the page by severity and by text: the page filters the findings it holds, so that
// changing either asks the daemon nothing.

import { h, main, sectionsNav, stackTable } from './dom.js';
import { bodyOf, request } from './http.js';
import { namesSkills } from './live.js';

/** The severity choices, each with the severities it shows (`Finding.severity`, docs/api.md "GET /doctor"). */
const SEVERITIES = [
  ['all', 'All', ['error', 'warning', 'info']],
  ['warning', 'Warnings and errors', ['error', 'warning']],
  ['error', 'Errors', ['error']],
];

export function doctorPage() {
  document.title = 'skillsd: doctor';
  const severity = h(
    'select',
    { id: 'doctor-severity' },
    SEVERITIES.map(([value, text]) => h('option', { value, text })),
  );
  const filter = h('input', {
    id: 'doctor-filter',
    type: 'search',
    autocomplete: 'off',
    placeholder: 'rule, path, finding or fix',
    'aria-controls': 'doctor-rows',
  });
  const count = h('span', { class: 'count' });
  const rows = h('tbody', { id: 'doctor-rows' });
  const box = h('div', { id: 'doctor-findings' });
  const note = h('p', { id: 'doctor-note', class: 'muted', 'aria-live': 'polite' });
  main.replaceChildren(
    sectionsNav('doctor'),
    h(
      'section',
      { id: 'doctor' },
      h('h2', {}, 'Doctor ', count),
      h(
        'div',
        { class: 'controls' },
        h('div', {}, h('label', { for: 'doctor-severity', text: 'Severity' }), severity),
        h('div', { class: 'grow' }, h('label', { for: 'doctor-filter', text: 'Filter (/)' }), filter),
      ),
      note,
      box,
    ),
  );

  const leaving = new AbortController();
  let findings = [];

  function showRows() {
    if (findings.length === 0) {
      box.replaceChildren(h('p', { class: 'muted', text: 'No findings: every skills directory reads cleanly.' }));
      count.textContent = '(0)';
      note.textContent = '';
      return;
    }
    const wanted = SEVERITIES.find(([value]) => value === severity.value)[2];
    const needle = filter.value.trim().toLowerCase();
    const shown = findings.filter(
      (finding) => wanted.includes(finding.severity) && (needle === '' || textOf(finding).includes(needle)),
    );
    rows.replaceChildren(...shown.map(findingRow));
    if (!box.contains(rows)) box.replaceChildren(stackTable(['Severity', 'Rule', 'Where', 'Finding', 'Fix'], rows));
    const all = shown.length === findings.length;
    count.textContent = all ? `(${findings.length})` : `(${shown.length} of ${findings.length})`;
    note.textContent = shown.length === 0 ? 'No finding matches.' : '';
  }
  severity.addEventListener('change', showRows);
  filter.addEventListener('input', showRows);

  let drawn;
  async function refresh() {
    const doctor = bodyOf(await request('/doctor', {}, { signal: leaving.signal }));
    if (doctor === drawn) return doctor.generation;
    findings = doctor.findings;
    document.getElementById('workspace').textContent = doctor.cwd;
    showRows();
    drawn = doctor;
    return doctor.generation;
  }

  /** The report follows the index (skills, collisions) and the findings that appear or go away while running. */
  function concerns(type, data) {
    return type !== 'index' || namesSkills(data);
  }
  return { refresh, concerns, leave: () => leaving.abort() };
}

function textOf(finding) {
  return [finding.rule, finding.path, finding.message, finding.hint ?? ''].join('\n').toLowerCase();
}

function findingRow(finding) {
  return h(
    'tr',
    { 'data-rule': finding.rule, 'data-severity': finding.severity },
    h('td', { class: `severity-${finding.severity}`, text: finding.severity }),
    h('td', { class: 'rule', text: finding.rule }),
    h('td', { class: 'path', text: finding.line === undefined ? finding.path : `${finding.path}:${finding.line}` }),
    h('td', { text: finding.message }),
    h('td', { class: 'fix', text: finding.hint ?? '' }),
  );
}
