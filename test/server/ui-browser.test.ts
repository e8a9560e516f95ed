// The page at /ui in a real browser (Debian's chromium, driven by puppeteer-core), against a real daemon on a real
// port with real files: the list and its filter, a skill's page, collisions and the doctor, live changes, a lost and
// recovered daemon, a token handed over in the fragment, and a hostile SKILL.md. One browser for the file; every
// wait is on a condition of the page, bounded by WAIT_MS. Without chromium the file is skipped, saying so.

import assert from 'node:assert/strict';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { defaultSettings } from '../../src/discovery/settings.js';
import { buildApp } from '../../src/server/listen.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { HOSTILE_BODY } from '../helpers/hostile-skill.js';
import { replaceFile, SK } from '../helpers/temp-tree.js';
import { BROWSER_SKIP, launchBrowser, openPage, shownUpTo, type Watched } from './ui-browser-harness.js';

// The callbacks given to page.evaluate run in the page (puppeteer sends their source): these are the page's globals,
// typed loosely because this program is compiled without the DOM's library.
// biome-ignore-start lint/suspicious/noExplicitAny: see above
declare const document: any;
declare const location: any;
declare const sessionStorage: any;
declare const performance: any;
declare const Event: any;
// biome-ignore-end lint/suspicious/noExplicitAny: see above

const TOKEN = 'YnJvd3Nlci10ZXN0LXRva2VuLXZhbHVlLTMyLWJ5dGVz';
/** How chromium logs a load answered 404, before the URL. */
const NOT_FOUND = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
/** `UPDATE_SCREENSHOT=1` writes the README's screenshot; otherwise it goes to a temp file. */
const SCREENSHOT = process.env.UPDATE_SCREENSHOT === '1' ? new URL('../../docs/ui.png', import.meta.url) : undefined;

const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': [
    '---',
    'name: pdf',
    'description: Fill and merge PDF forms',
    'license: MIT',
    '---',
    '# PDF tools',
    '',
    '## Usage',
    '',
    'Run `scripts/run.sh` first, then read [the reference](reference.md).',
    '',
    '```sh',
    'pdftk in.pdf cat output out.pdf',
    '```',
    '',
  ].join('\n'),
  'work/.musepi/skills/pdf/reference.md': '# Reference\n\nEvery flag, one a line.\n',
  'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho run\n',
  'work/.musepi/skills/docx/SKILL.md': SK({ name: 'docx', description: 'Edit Word documents' }),
  'work/.musepi/skills/quiet/SKILL.md': SK({ name: 'quiet', description: 'Only when asked', hide: true }),
  'work/.musepi/skills/dup/SKILL.md': SK({ name: 'dup', description: 'The project copy' }),
  'home/.musepi/agent/skills/dup/SKILL.md': SK({ name: 'dup', description: 'The user copy' }),
  // Near misses the doctor reports: a folder without SKILL.md, and a SKILL.md in the wrong case.
  'work/.musepi/skills/empty-folder/notes.txt': 'no SKILL.md here\n',
  'work/.musepi/skills/cased/skill.md': SK({ name: 'cased', description: 'Wrong case' }),
};

describe('the page at /ui in a browser', { skip: BROWSER_SKIP }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  function open(t: TestContext, url: string): Promise<Watched> {
    return openPage(browser, t, url);
  }

  const rowNames = (page: Page) => page.$$eval('#skill-rows tr', (rows) => rows.map((row) => row.dataset.skill));

  function onlyOwnOrigin(watched: Watched, base: string): void {
    assert.deepEqual(
      watched.requests.filter((url) => new URL(url).origin !== base),
      [],
    );
  }

  it('lists the skills with source and hidden state, and filters them as one types', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const watched = await open(t, `${s.base}/ui`);
    const { page } = watched;
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 4);
    assert.deepEqual(await rowNames(page), ['docx', 'dup', 'pdf', 'quiet']);
    assert.deepEqual(
      await page.$$eval('#skill-rows tr', (rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      ),
      [
        ['docx', 'Edit Word documents', 'MusePi · project', 'no'],
        ['dup', 'The project copy', 'MusePi · project', 'no'],
        ['pdf', 'Fill and merge PDF forms', 'MusePi · project', 'no'],
        ['quiet', 'Only when asked', 'MusePi · project', 'hidden'],
      ],
    );
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');

    // Keyboard first: `/` focuses the filter.
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'filter');
    await page.keyboard.type('WORD');
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 1);
    assert.deepEqual(await rowNames(page), ['docx']);
    assert.equal(await page.$eval('#skills .count', (element) => element.textContent), '(1 of 4)');
    await page.$eval('#filter', (input) => {
      input.value = '';
    });
    await page.type('#filter', 'nothing like it');
    await page.waitForFunction(() => document.getElementById('filter-note')?.textContent === 'No skill matches.');
    assert.deepEqual(await rowNames(page), []);

    // The README's picture, and what the page costs to load.
    await page.$eval('#filter', (input) => {
      input.value = '';
      input.dispatchEvent(new Event('input'));
    });
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 4);
    const path = SCREENSHOT ?? new URL(`file://${tmpdir()}/skillsd-ui-${process.pid}.png`);
    await page.screenshot({ path: path.pathname as `${string}.png` });
    assert.ok((await stat(path)).size > 0);
    if (SCREENSHOT === undefined) await rm(path);
    const bytes = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => [
        entry.name,
        entry.transferSize,
      ]),
    );
    t.diagnostic(`transferred: ${JSON.stringify(bytes)}`);
    // A phone's width: the page reflows (tables become stacked rows) instead of scrolling sideways.
    await page.setViewport({ width: 360, height: 640 });
    assert.deepEqual(
      await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]),
      [360, 360],
    );
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });

  it('searches the body through GET /search: a word only the body holds finds its skill', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const watched = await open(t, `${s.base}/ui`);
    const { page } = watched;
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 4);
    // `pdftk` stands only in the body of pdf (its code block): the list filter alone could not find it.
    await page.type('#filter', 'pdftk');
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 1);
    assert.deepEqual(await rowNames(page), ['pdf']);
    assert.ok(watched.requests.some((url) => new URL(url).pathname === '/search'));
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });

  it('shows the skill × agent matrix as GET /agents answers it', async (t) => {
    const s = await startServer(t, {
      tree: {
        ...TREE,
        'work/.claude/skills/review/SKILL.md': SK({ name: 'review', description: 'Review a change' }),
      },
    });
    const watched = await open(t, `${s.base}/ui#agents`);
    const { page } = watched;
    await page.waitForFunction(() => document.querySelectorAll('#agents-matrix tr[data-matrix-skill]').length > 0);
    const matrix = (await getJson(`${s.base}/agents`)).body as {
      agents: { id: string; name: string }[];
      skills: { name: string; filePath: string; views: Record<string, { status: string }> }[];
    };
    // Each row: the skill's name, its file (whole in the title), then what each agent does with it.
    const expected = matrix.skills.map((row) => [
      row.name,
      row.filePath,
      ...matrix.agents.map((agent) => {
        const status = row.views[agent.id]?.status ?? 'unseen';
        return status === 'unseen' ? '—' : status;
      }),
    ]);
    const shown = await page.$$eval('#agents-matrix tr[data-matrix-skill]', (rows) =>
      rows.map((row) => [
        row.querySelector('th a').textContent,
        row.querySelector('th .where').title,
        ...[...row.querySelectorAll('td')].map((cell) => cell.textContent),
      ]),
    );
    assert.deepEqual(shown, expected);
    assert.deepEqual(
      await page.$$eval('#agents-matrix thead th', (cells) => cells.slice(1).map((cell) => cell.textContent)),
      matrix.agents.map((agent) => agent.name),
    );
    // Where each file is, shortened to the last folders, as many as tell the two copies of dup apart.
    const where = (name: string) =>
      page.$$eval(`#agents-matrix tr[data-matrix-skill="${name}"] th .where`, (cells) =>
        cells.map((cell) => cell.textContent),
      );
    assert.deepEqual(await where('review'), ['…/work/.claude/skills/']);
    assert.deepEqual(await where('dup'), ['…/.musepi/agent/skills/', '…/work/.musepi/skills/']);
    // Claude Code reads the project's .claude/skills: the page says it loads review.
    const claude = matrix.agents.findIndex((agent) => agent.id === 'claude-code');
    const review = expected.find((row) => row[0] === 'review');
    assert.equal(review?.[2 + claude], 'loaded');
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });

  it('shows one agent’s view from the matrix, kept up to date from that view’s own stream', async (t) => {
    const s = await startServer(t, {
      tree: { ...TREE, 'work/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'Goose only' }) },
      watch: true,
    });
    const list = await open(t, `${s.base}/ui#agents`);
    await list.page.waitForFunction(() => document.querySelectorAll('#agents-matrix tr[data-matrix-skill]').length > 0);
    const href = await list.page.$$eval('#agents-matrix thead th a', (links) =>
      links.map((link) => link.getAttribute('href')).find((value) => value.includes('goose')),
    );
    assert.equal(href, '/ui?agent=goose');
    const watched = await open(t, `${s.base}${href}`);
    const { page } = watched;
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');
    await page.waitForSelector('#agent-skill-rows tr[data-skill="gz"]');
    const answer = (await getJson(`${s.base}/skills?agent=goose`)).body as {
      agent: { name: string };
      skills: { name: string; description: string; filePath: string; source: { scope: string } }[];
    };
    const rows = () =>
      page.$$eval('#agent-skill-rows tr', (items) =>
        items.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      );
    assert.deepEqual(
      await rows(),
      answer.skills.map((skill) => [skill.name, skill.description, skill.source.scope, skill.filePath]),
    );
    assert.equal(await page.$eval('#agent-name', (element) => element.textContent), answer.agent.name);
    // A skill only Goose sees: the default view does not change, the view's stream says so and the page reads it.
    await mkdir(`${s.root}/staging`);
    await mkdir(`${s.root}/staging/zip`);
    await writeFile(`${s.root}/staging/zip/SKILL.md`, SK({ name: 'zip', description: 'Archives' }));
    await rename(`${s.root}/staging/zip`, `${s.cwd}/.goose/skills/zip`);
    await page.waitForSelector('#agent-skill-rows tr[data-skill="zip"]');
    assert.ok(watched.requests.includes(`${s.base}/events?agent=goose`));
    assert.ok(!watched.requests.includes(`${s.base}/events`));
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });

  it('shows a skill: source, frontmatter, the body rendered, its files opening through the file route', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const watched = await open(t, `${s.base}/ui/skill/pdf`);
    const { page } = watched;
    await page.waitForSelector('#skill-body h1');
    assert.equal(await page.$eval('#skill-name', (element) => element.textContent), 'pdf');
    assert.equal(
      await page.$eval('#skill-body', (element) => element.innerHTML),
      '<h1>PDF tools</h1>\n<h2>Usage</h2>\n<p>Run <code>scripts/run.sh</code> first, then read ' +
        '<a href="/skill/pdf/reference.md" data-skill-file="reference.md">the reference</a>.</p>\n' +
        '<pre><code class="language-sh">pdftk in.pdf cat output out.pdf\n</code></pre>\n',
    );
    assert.deepEqual(
      await page.$$eval('#frontmatter dt, #frontmatter dd', (cells) => cells.map((cell) => cell.textContent)),
      ['name', 'pdf', 'description', 'Fill and merge PDF forms', 'license', 'MIT'],
    );
    assert.deepEqual(await page.$$eval('#source dt, #source dd', (cells) => cells.map((cell) => cell.textContent)), [
      'Provider',
      'MusePi (native)',
      'Level',
      'project',
      'Source',
      'native:project',
      'File',
      `${s.cwd}/.musepi/skills/pdf/SKILL.md`,
      'Directory',
      `${s.cwd}/.musepi/skills/pdf`,
      'Hidden',
      'no',
    ]);
    await page.waitForSelector('#file-tree li');
    assert.deepEqual(
      await page.$$eval('#file-tree > ul > li', (items) => items.map((item) => item.dataset.dir ?? item.dataset.file)),
      ['scripts', 'reference.md', 'SKILL.md'],
    );
    // A link in the body opens the file in the page, fetched through the file route.
    await page.click('#skill-body a[data-skill-file="reference.md"]');
    await page.waitForSelector('#file-content');
    assert.equal(
      await page.$eval('#file-content', (element) => element.textContent),
      '# Reference\n\nEvery flag, one a line.\n',
    );
    // A directory opens in place; its file by keyboard.
    await page.click('li[data-dir="scripts"] > button');
    await page.waitForSelector('li[data-file="scripts/run.sh"] button');
    await page.focus('li[data-file="scripts/run.sh"] button');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('file-content')?.textContent === '#!/bin/sh\necho run\n');
    assert.ok(watched.requests.includes(`${s.base}/skill/pdf/scripts/run.sh`));
    assert.equal(
      await page.$eval('#shadowed', (element) => element.textContent),
      'Other candidates of this nameNo other candidate of this name.',
    );
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });

  it('says a skill’s SKILL.md is gone when the index still lists it, without an error or a listing', async (t) => {
    // Not watched: the index keeps the skill whose file is removed below, as a watched one does until the watcher
    // reports the removal. The page reads the body after the index: it finds no file.
    const s = await startServer(t, { tree: TREE });
    await rm(`${s.cwd}/.musepi/skills/docx/SKILL.md`);
    const watched = await open(t, `${s.base}/ui/skill/docx`);
    const { page } = watched;
    await page.waitForSelector('#skill-gone');
    // A page without a body showed no generation: it reads again once the event stream says hello.
    await shownUpTo(page, (await getJson(`${s.base}/skills`)).body.generation);
    const render = (await getJson(`${s.base}/ui/render/docx`)).body;
    assert.equal(
      await page.$eval('#skill-gone', (element) => element.textContent),
      `${render.code}: ${render.message} (read again soon)`,
    );
    assert.equal(await page.$eval('#skill-name', (element) => element.textContent), 'docx');
    assert.equal(await page.$('#error:not([hidden])'), null);
    assert.equal(await page.$$eval('#file-tree li', (items) => items.length), 0);
    assert.deepEqual(
      watched.requests.map((url) => new URL(url).pathname).filter((path) => path.startsWith('/skill/')),
      [],
    );
    // The failed loads are the body's, one per read, each answered by the page with its line.
    assert.deepEqual(watched.errors, [
      `${NOT_FOUND}: ${s.base}/ui/render/docx`,
      `${NOT_FOUND}: ${s.base}/ui/render/docx`,
    ]);
  });

  it('shows collisions with the shadowed candidates and why, and the doctor’s findings with their fixes', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const watched = await open(t, `${s.base}/ui`);
    const { page } = watched;
    await page.waitForSelector('#collision-list li[data-collision="dup"]');
    assert.equal(
      await page.$eval('li[data-collision="dup"] li', (element) => element.textContent),
      `${s.home}/.musepi/agent/skills/dup/SKILL.md (native:user): a source of higher priority won`,
    );
    const doctor = (await getJson(`${s.base}/doctor`)).body;
    assert.ok(doctor.findings.length >= 2);
    // The doctor is a view of its own, read when it is shown.
    assert.ok(!watched.requests.some((url) => new URL(url).pathname === '/doctor'));
    await page.click('nav.sections a[href="#doctor"]');
    await page.waitForSelector('#doctor-findings tr[data-rule]');
    assert.equal(await page.evaluate(() => document.title), 'skillsd: doctor');
    assert.deepEqual(
      await page.$$eval('#doctor-findings tbody tr', (rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      ),
      doctor.findings.map(
        (finding: { severity: string; rule: string; path: string; line?: number; message: string; hint?: string }) => [
          finding.severity,
          finding.rule,
          finding.line === undefined ? finding.path : `${finding.path}:${finding.line}`,
          finding.message,
          finding.hint ?? '',
        ],
      ),
    );
    // Back to the skills and their collisions; the winner's page names what it shadowed, and why.
    await page.goBack();
    await page.waitForSelector('#collision-list li[data-collision="dup"]');
    await page.click('li[data-collision="dup"] > a');
    await page.waitForSelector('#shadowed li');
    const loser = (await getJson(`${s.base}/doctor/dup`)).body.candidates[1];
    assert.equal(loser.filePath, `${s.home}/.musepi/agent/skills/dup/SKILL.md`);
    assert.equal(
      await page.$eval('#shadowed li[data-outcome="shadowed"]', (element) => element.textContent),
      `${loser.filePath} (native:user): shadowed: ${loser.reason}`,
    );
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });

  it('shows a skill added, changed and removed on disk without a reload', async (t) => {
    const s = await startServer(t, { tree: TREE, watch: true });
    const watched = await open(t, `${s.base}/ui`);
    const { page } = watched;
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 4);
    const dir = `${s.cwd}/.musepi/skills/fresh`;
    await mkdir(dir);
    // The file is written, then edited, in one step each: a file written in place is briefly empty, and the events
    // of that empty file, arriving late on a loaded machine, would have the skill's page read it again while it is
    // being removed below.
    await replaceFile(`${dir}/SKILL.md`, SK({ name: 'fresh', description: 'Just written' }), dirname(s.cwd));
    await page.waitForSelector('#skill-rows tr[data-skill="fresh"]');
    await replaceFile(`${dir}/SKILL.md`, SK({ name: 'fresh', description: 'Written again' }), dirname(s.cwd));
    await page.waitForFunction(
      () =>
        document.querySelector('#skill-rows tr[data-skill="fresh"] td:nth-child(2)')?.textContent === 'Written again',
    );
    // Its own page follows it too: an edit (the index sees the description; a body alone is no change of the
    // index), then its removal.
    const own = await open(t, `${s.base}/ui/skill/fresh`);
    await own.page.waitForFunction(() => document.querySelector('#skill-body h1')?.textContent === 'Body');
    await replaceFile(
      `${dir}/SKILL.md`,
      '---\nname: fresh\ndescription: Rewritten\n---\n# Rewritten\n',
      dirname(s.cwd),
    );
    await own.page.waitForFunction(() => document.querySelector('#skill-body h1')?.textContent === 'Rewritten');
    // The page reads the body from the disk, so it may show the edit before the index has it: the edit's event may
    // still be on its way, and the read it asks for, under way when the skill is removed below, would answer 404, a
    // failed load the browser logs. The page is done once it has read the events of the index that has the edit and
    // every read they asked for. A reader, too, sees a page once it is done.
    await own.page.waitForFunction(() => document.getElementById('skill-description')?.textContent === 'Rewritten');
    await shownUpTo(own.page, (await getJson(`${s.base}/skills`)).body.generation);
    assert.deepEqual(await own.page.$$eval('#file-tree li', (items) => items.map((item) => item.dataset.file)), [
      'SKILL.md',
    ]);
    const beforeRemoval = own.errors.length;
    await rm(dir, { recursive: true });
    await own.page.waitForSelector('#skill-missing');
    // A tab in the background draws no frames, and puppeteer's waits poll on frames: the list comes to the front.
    await page.bringToFront();
    await page.waitForFunction(() => document.querySelector('#skill-rows tr[data-skill="fresh"]') === null);
    assert.equal(
      await own.page.$eval('#skill-missing', (element) => element.textContent),
      'No skill "fresh" is loaded in this workspace.',
    );
    // The live doctor may see the emptied folder before the index sees the file gone: the page then reads the skill
    // while the index still has it, and its body answers 404 (a load the browser logs, the page says "gone" until
    // the removal's event). Nothing else may fail, before the removal or after.
    assert.deepEqual(own.errors.slice(0, beforeRemoval), []);
    assert.deepEqual(
      own.errors.slice(beforeRemoval).filter((error) => error !== `${NOT_FOUND}: ${s.base}/ui/render/fresh`),
      [],
    );
    assert.deepEqual(await rowNames(page), ['docx', 'dup', 'pdf', 'quiet']);
    // One page load: the document was requested once.
    assert.equal(watched.requests.filter((url) => url === `${s.base}/ui`).length, 1);
    assert.deepEqual(watched.errors, []);
  });

  it('says when it lost the daemon and when it is back, and catches up', async (t) => {
    const s = await startServer(t, { tree: TREE, watch: true, app: { retryMs: 100 } });
    const { page } = await open(t, `${s.base}/ui`);
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');
    await s.app.close();
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'lost');
    assert.equal(await page.$eval('#connection', (element) => element.textContent), 'Lost the daemon: reconnecting…');
    // Changed while nobody served it.
    await mkdir(`${s.cwd}/.musepi/skills/meanwhile`);
    await writeFile(`${s.cwd}/.musepi/skills/meanwhile/SKILL.md`, SK({ name: 'meanwhile', description: 'Added' }));
    const again = await buildApp({
      registry: s.registry,
      getSettings: () => s.registry.settings,
      retryMs: 100,
      pressure: { maxEventLoopDelayMs: 0 },
    });
    t.after(() => again.close());
    await again.listen({ host: '127.0.0.1', port: s.port });
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'back');
    assert.equal(await page.$eval('#connection', (element) => element.textContent), 'Connected again: up to date');
    await page.waitForSelector('#skill-rows tr[data-skill="meanwhile"]');
  });

  it('keeps a token given in the fragment for the tab, out of the address, and reads with it', async (t) => {
    const s = await startServer(t, {
      tree: TREE,
      app: { security: { token: TOKEN, bindHost: '127.0.0.1', getServerSettings: () => defaultSettings().server } },
    });
    const watched = await open(t, `${s.base}/ui#token=${TOKEN}`);
    const { page } = watched;
    await page.waitForFunction(() => document.querySelectorAll('#skill-rows tr').length === 4);
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');
    assert.equal(await page.evaluate(() => location.href), `${s.base}/ui`);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('skillsd.token')), TOKEN);
    // Data requests carry it as a header: no page or data URL has it in its query, only the event stream.
    assert.deepEqual(
      watched.requests.filter((url) => new URL(url).search.includes(TOKEN)),
      [`${s.base}/events?token=${TOKEN}`],
    );
    // Another view of the same tab reads with it too.
    await page.click('#skill-rows tr[data-skill="pdf"] a');
    await page.waitForSelector('#skill-body h1');
    assert.deepEqual(watched.errors, []);
  });

  it('renders a hostile SKILL.md inert: no script, no handler, no javascript: link, no remote image', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/evil/SKILL.md': `---\nname: evil\ndescription: Tries things\n---\n${HOSTILE_BODY}` },
    });
    const watched = await open(t, `${s.base}/ui/skill/evil`);
    const { page } = watched;
    await page.waitForSelector('#skill-body h1');
    const found = await page.evaluate(() => {
      const all = [...document.querySelectorAll('*')];
      return {
        bodyScripts: document.querySelectorAll('#skill-body script').length,
        scripts: [...document.scripts].map((script) => script.getAttribute('src')),
        handlers: all.flatMap((element) =>
          [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((attribute) => attribute.name),
        ),
        scriptLinks: [...document.querySelectorAll('[href]')]
          .map((element) => element.getAttribute('href') ?? '')
          .filter((href) => /^\s*(javascript|vbscript|data):/i.test(href)),
        images: [...document.images].map((image) => image.src),
        text: document.getElementById('skill-body')?.textContent,
      };
    });
    assert.equal(found.bodyScripts, 0);
    assert.deepEqual(found.scripts, ['/ui/assets/app.js']);
    assert.deepEqual(found.handlers, []);
    assert.deepEqual(found.scriptLinks, []);
    assert.deepEqual(found.images, []);
    assert.match(found.text ?? '', /<script>alert\("script"\)<\/script>/);
    assert.deepEqual(watched.dialogs, []);
    onlyOwnOrigin(watched, s.base);
    assert.deepEqual(watched.errors, []);
  });
});
