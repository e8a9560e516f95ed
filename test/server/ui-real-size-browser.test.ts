// The page at /ui at the sizes people use it (docs/api.md "GET /ui — the page"), in a real browser (Debian's chromium,
// driven by puppeteer-core) against a real daemon with skills named and placed as they are in the wild: names up to
// 47 characters, long paths, an address in a description. What fits at 1,400 and 390 px wide, the doctor's filters,
// what one index event costs on each view, and how many searches a typed word sends. Every wait is on a condition or
// an event of the page, bounded by WAIT_MS. Without chromium the file is skipped, saying so.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { defaultSettings } from '../../src/discovery/settings.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { addSkillFolder, SK } from '../helpers/temp-tree.js';
import { BROWSER_SKIP, launchBrowser, openPage, type Watched } from './ui-browser-harness.js';

// The callbacks given to page.evaluate run in the page: its globals, typed loosely (no DOM library here).
// biome-ignore-start lint/suspicious/noExplicitAny: see above
declare const document: any;
declare const window: any;
declare const performance: any;
// biome-ignore-end lint/suspicious/noExplicitAny: see above

const TOKEN = 'cmVhbC1zaXplLWJyb3dzZXItdGVzdC10b2tlbi0zMmJ5dGVz';
const WORDS = ['generate', 'quarterly', 'financial', 'report', 'review', 'deploy', 'kubernetes', 'manifests'];
/** 47 characters and no hyphen: nothing to break a line at. */
const UNBROKEN = 'transcribeandsummarisemeetingrecordingsintonote';
const ADDRESS = 'https://docs.example.com/guides/skills/reference/configuration-and-environment-variables.html';
/** Where people keep skills, each read by some agents and not others (docs/agents.md). */
const PLACES = [
  'home/.claude/skills',
  'work/.claude/skills',
  'work/.agents/skills',
  'work/.musepi/skills',
  'home/.agents/skills',
  'home/.musepi/agent/skills',
];

/** Skill `i`'s name: words joined by hyphens, 30 to 47 characters. */
function nameOf(i: number): string {
  const words = [...WORDS.slice(i % WORDS.length), ...WORDS.slice(0, i % WORDS.length)];
  let name = `${words[0]}-${String(i).padStart(2, '0')}`;
  for (const word of words.slice(1)) {
    if (name.length + word.length + 1 > 47) break;
    name = `${name}-${word}`;
  }
  return name;
}

/** 24 skills in one to three places each, a skill no line can break, and near misses the doctor reports. */
function realTree(): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 24; i++) {
    const name = nameOf(i);
    const text = SK({
      name,
      description: `Use when asked to ${name.replaceAll('-', ' ')}: reads the project and writes what it found`,
    });
    for (let j = 0; j <= i % 3; j++) tree[`${PLACES[(i + j) % PLACES.length]}/${name}/SKILL.md`] = text;
  }
  const unbroken = SK({ name: UNBROKEN, description: `See ${ADDRESS}` });
  tree[`work/.musepi/skills/${UNBROKEN}/SKILL.md`] = unbroken;
  tree[`home/.musepi/agent/skills/${UNBROKEN}/SKILL.md`] = unbroken;
  // A folder without SKILL.md (a warning) and a SKILL.md in the wrong case (an error).
  tree[`work/.musepi/skills/${UNBROKEN}-notes/README.txt`] = `Notes, see ${ADDRESS}\n`;
  tree[`work/.musepi/skills/${nameOf(3)}-draft/skill.md`] = SK({ name: `${nameOf(3)}-draft`, description: 'Draft' });
  return tree;
}

/** What of the matrix a person sees without scrolling the page: its first column, and the agent columns in view. */
function matrixInView(page: Page) {
  return page.evaluate(() => {
    const wrap = document.getElementById('agents-matrix');
    const box = wrap.getBoundingClientRect();
    const right = Math.min(box.right, window.innerWidth);
    const [first, ...agents] = [...wrap.querySelectorAll('thead th')].map((cell) => cell.getBoundingClientRect());
    return {
      pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
      firstColumnInView: first.left >= 0 && first.right <= right,
      agents: agents.length,
      agentsInView: agents.filter((cell) => cell.left >= first.right - 0.5 && cell.right <= right + 0.5).length,
    };
  });
}

/** Where the first header cell and the first row's name cell sit, against the inside of the matrix's box. */
function stuck(page: Page) {
  return page.evaluate(() => {
    const wrap = document.getElementById('agents-matrix');
    const box = wrap.getBoundingClientRect();
    const header = wrap.querySelector('thead th:nth-child(2)').getBoundingClientRect();
    const name = wrap.querySelector('tbody th').getBoundingClientRect();
    return {
      headerTop: Math.round(header.top - box.top - wrap.clientTop),
      nameLeft: Math.round(name.left - box.left - wrap.clientLeft),
    };
  });
}

const documentFits = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth) as Promise<boolean>;
const idle = (page: Page) => page.waitForFunction(() => !document.getElementById('main').hasAttribute('aria-busy'));
/** The paths of the data the page requested from the `from`-th request on (the event stream left out). */
const readSince = (watched: Watched, from: number) =>
  watched.requests
    .slice(from)
    .map((url) => new URL(url).pathname)
    .filter((path) => path !== '/events');

describe('the page at /ui at real sizes', { skip: BROWSER_SKIP }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  it('keeps the matrix’s names and header in view: six agents and more at 1,400 px, one on a phone', async (t) => {
    const s = await startServer(t, { tree: realTree() });
    const watched = await openPage(browser, t, `${s.base}/ui#agents`);
    const { page } = watched;
    await page.waitForSelector(`#agents-matrix tr[data-matrix-skill="${UNBROKEN}"]`);

    await page.setViewport({ width: 1400, height: 900 });
    const wide = await matrixInView(page);
    t.diagnostic(`1,400 px: ${JSON.stringify(wide)}`);
    assert.equal(wide.pageScrollsSideways, false);
    assert.equal(wide.firstColumnInView, true);
    assert.equal(wide.agents, 10);
    assert.ok(wide.agentsInView >= 6, `${wide.agentsInView} agent columns in view`);

    await page.setViewport({ width: 390, height: 844 });
    const phone = await matrixInView(page);
    t.diagnostic(`390 px: ${JSON.stringify(phone)}`);
    assert.equal(phone.pageScrollsSideways, false);
    assert.equal(phone.firstColumnInView, true);
    assert.ok(phone.agentsInView >= 1, `${phone.agentsInView} agent columns in view`);

    // Scrolled to its far corner inside its box, the table keeps the header row on top and the names on the left.
    await page.evaluate(() => {
      const wrap = document.getElementById('agents-matrix');
      wrap.scrollTo(wrap.scrollWidth, wrap.scrollHeight);
    });
    assert.deepEqual(await stuck(page), { headerTop: 0, nameLeft: 0 });

    // A file's place is its last folders, enough to tell the copies of a name apart; the whole path is its title.
    const rows = (await getJson(`${s.base}/agents`)).body.skills as { name: string; filePath: string }[];
    assert.deepEqual(
      await page.$$eval(`#agents-matrix tr[data-matrix-skill="${UNBROKEN}"] th .where`, (cells) =>
        cells.map((cell) => [cell.textContent, cell.title]),
      ),
      [
        ['…/.musepi/agent/skills/', `${s.home}/.musepi/agent/skills/${UNBROKEN}/SKILL.md`],
        ['…/work/.musepi/skills/', `${s.cwd}/.musepi/skills/${UNBROKEN}/SKILL.md`],
      ],
    );
    assert.deepEqual(
      await page.$$eval('#agents-matrix th .where', (cells) => cells.map((cell) => cell.title)),
      rows.map((row) => row.filePath),
    );
    assert.deepEqual(watched.errors, []);
  });

  it('fits the skills list and the doctor on a 390 px phone: the page never scrolls sideways', async (t) => {
    const s = await startServer(t, { tree: realTree() });
    const watched = await openPage(browser, t, `${s.base}/ui`);
    const { page } = watched;
    await page.setViewport({ width: 390, height: 844 });
    await page.waitForSelector(`#skill-rows tr[data-skill="${UNBROKEN}"]`);
    await page.waitForSelector(`#collision-list li[data-collision="${UNBROKEN}"]`);
    assert.equal(await documentFits(page), true);
    await page.click('nav.sections a[href="#doctor"]');
    await page.waitForSelector('#doctor-findings tr[data-rule="no-skill-md"]');
    assert.equal(await documentFits(page), true);
    // And at 1,400 px the same two views.
    await page.setViewport({ width: 1400, height: 900 });
    assert.equal(await documentFits(page), true);
    await page.click('nav.sections a[href="#skills"]');
    await page.waitForSelector(`#skill-rows tr[data-skill="${UNBROKEN}"]`);
    assert.equal(await documentFits(page), true);
    assert.deepEqual(watched.errors, []);
  });

  it('narrows the doctor’s findings by severity and by text, asking the daemon nothing more', async (t) => {
    const s = await startServer(t, { tree: realTree() });
    const findings = (await getJson(`${s.base}/doctor`)).body.findings as {
      severity: string;
      rule: string;
      path: string;
    }[];
    const severities = new Set(findings.map((finding) => finding.severity));
    assert.deepEqual([...severities].sort(), ['error', 'info', 'warning']);
    const watched = await openPage(browser, t, `${s.base}/ui#doctor`);
    const { page } = watched;
    await page.waitForSelector('#doctor-findings tr[data-rule]');
    const asked = watched.requests.length;
    const shown = () =>
      page.$$eval('#doctor-rows tr', (rows) => rows.map((row) => [row.dataset.severity, row.dataset.rule]));
    const expect = (keep: (finding: { severity: string; rule: string; path: string }) => boolean) =>
      findings.filter(keep).map((finding) => [finding.severity, finding.rule]);
    const count = () => page.$eval('#doctor .count', (element) => element.textContent);

    assert.deepEqual(
      await shown(),
      expect(() => true),
    );
    assert.equal(await count(), `(${findings.length})`);
    await page.select('#doctor-severity', 'warning');
    assert.deepEqual(
      await shown(),
      expect((finding) => finding.severity !== 'info'),
    );
    await page.select('#doctor-severity', 'error');
    const errors = expect((finding) => finding.severity === 'error');
    assert.deepEqual(await shown(), errors);
    assert.equal(await count(), `(${errors.length} of ${findings.length})`);
    // Text narrows within the severity chosen: a path, any case.
    await page.select('#doctor-severity', 'all');
    await page.type('#doctor-filter', `${UNBROKEN}-NOTES`);
    const notes = expect((finding) => finding.path.includes(`${UNBROKEN}-notes`));
    assert.equal(notes.length, 1);
    assert.deepEqual(await shown(), notes);
    await page.select('#doctor-severity', 'error');
    assert.deepEqual(await shown(), []);
    assert.equal(await page.$eval('#doctor-note', (element) => element.textContent), 'No finding matches.');
    assert.deepEqual(readSince(watched, asked), []);
    assert.deepEqual(watched.errors, []);
  });

  it('reads on an index event only what the view shown needs, and an unchanged answer as a 304', async (t) => {
    const s = await startServer(t, {
      tree: realTree(),
      watch: true,
      app: { security: { token: TOKEN, bindHost: '127.0.0.1', getServerSettings: () => defaultSettings().server } },
    });
    const watched = await openPage(browser, t, `${s.base}/ui#token=${TOKEN}`);
    const { page } = watched;
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');
    await page.waitForSelector(`#skill-rows tr[data-skill="${UNBROKEN}"]`);
    await idle(page);
    const added = (name: string) =>
      addSkillFolder(`${s.cwd}/.musepi/skills/${name}`, SK({ name, description: 'Just added' }), s.root);

    // The skills list: the event names a skill added; the page reads GET /skills, and neither the doctor nor the
    // agent views.
    let from = watched.requests.length;
    await added('fresh-one');
    await page.waitForSelector('#skill-rows tr[data-skill="fresh-one"]');
    await idle(page);
    const onList = readSince(watched, from);
    t.diagnostic(`skills list, one skill added: ${JSON.stringify(onList)}`);
    assert.ok(onList.length >= 1);
    assert.deepEqual(
      onList.filter((path) => path !== '/skills'),
      [],
    );

    // Away and back with nothing changed: the list is asked for with its tag and answered 304, and still shown.
    await page.click('nav.sections a[href="#doctor"]');
    await page.waitForSelector('#doctor-findings tr[data-rule]');
    await idle(page);
    from = watched.responses.length;
    const back = page.waitForResponse((response) => new URL(response.url()).pathname === '/skills');
    await page.click('nav.sections a[href="#skills"]');
    assert.equal((await back).status(), 304);
    await page.waitForSelector('#skill-rows tr[data-skill="fresh-one"]');
    await idle(page);
    assert.deepEqual(
      watched.responses.slice(from).filter(([url]) => new URL(url).pathname !== '/events'),
      [[`${s.base}/skills`, 304]],
    );

    // The doctor: the same kind of event reads GET /doctor alone.
    await page.click('nav.sections a[href="#doctor"]');
    await page.waitForSelector('#doctor-findings tr[data-rule]');
    await idle(page);
    from = watched.requests.length;
    const doctorRead = page.waitForResponse((response) => new URL(response.url()).pathname === '/doctor');
    await added('fresh-two');
    assert.equal((await doctorRead).status(), 200);
    await idle(page);
    const onDoctor = readSince(watched, from);
    t.diagnostic(`doctor, one skill added: ${JSON.stringify(onDoctor)}`);
    assert.deepEqual(
      onDoctor.filter((path) => path !== '/doctor'),
      [],
    );

    // The matrix: GET /agents alone, for the skill and for the agent views the events name.
    await page.click('nav.sections a[href="#agents"]');
    await page.waitForSelector('#agents-matrix tr[data-matrix-skill="fresh-two"]');
    await idle(page);
    from = watched.requests.length;
    await added('fresh-three');
    await page.waitForSelector('#agents-matrix tr[data-matrix-skill="fresh-three"]');
    await idle(page);
    const onMatrix = readSince(watched, from);
    t.diagnostic(`matrix, one skill added: ${JSON.stringify(onMatrix)}`);
    assert.ok(onMatrix.length >= 1);
    assert.deepEqual(
      onMatrix.filter((path) => path !== '/agents'),
      [],
    );
    // Every read carried the token as a header: no query holds it but the event stream's.
    assert.deepEqual(
      watched.requests.filter((url) => new URL(url).search.includes(TOKEN)),
      [`${s.base}/events?token=${TOKEN}`],
    );
    assert.deepEqual(watched.errors, []);
  });

  it('searches once per word typed, not once per key', async (t) => {
    const s = await startServer(t, {
      tree: {
        ...realTree(),
        'work/.musepi/skills/sheets/SKILL.md': SK({ name: 'sheets', description: 'Merge spreadsheets' }),
      },
    });
    const watched = await openPage(browser, t, `${s.base}/ui`);
    const { page } = watched;
    await page.waitForSelector('#skill-rows tr[data-skill="sheets"]');
    await idle(page);
    // When each keystroke reached the page: a pause longer than the wait before a search may rightly send one.
    await page.evaluate(() => {
      window.typedAt = [];
      document.getElementById('filter').addEventListener('input', () => window.typedAt.push(performance.now()));
    });
    const from = watched.requests.length;
    const word = 'spreadsheets';
    assert.equal(word.length, 12);
    const last = page.waitForResponse((response) => new URL(response.url()).searchParams.get('q') === word);
    await page.type('#filter', word);
    assert.equal((await last).status(), 200);
    await page.waitForSelector('#skill-rows tr[data-skill="sheets"]');
    const typedAt = (await page.evaluate(() => window.typedAt)) as number[];
    assert.equal(typedAt.length, 12);
    const pauses = typedAt.slice(1).filter((time, i) => time - typedAt[i]! >= 150).length;
    const searches = watched.requests.slice(from).filter((url) => new URL(url).pathname === '/search');
    t.diagnostic(`${searches.length} search(es) for ${word}, ${pauses} pause(s) of 150 ms or more between keys`);
    assert.ok(searches.length <= 1 + pauses, `${searches.length} searches`);
    assert.equal(new URL(searches.at(-1)!).searchParams.get('q'), word);
    assert.deepEqual(await page.$$eval('#skill-rows tr', (rows) => rows.map((row) => row.dataset.skill)), ['sheets']);
    assert.deepEqual(watched.errors, []);
  });
});
