// The page at /ui against what SECURITY.md "The page at `/ui`" defends, in a real browser (Debian's chromium) on a
// real daemon: markup an author stores in any field the page shows (name, description, frontmatter keys and values,
// directory and file names, a file's content) stays text in every view; no other origin can frame the page; and a
// token handed to the page reaches no log line and no Referer, whatever the page loads with it. Without chromium
// the file is skipped, saying so.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Browser, Page } from 'puppeteer-core';
import { defaultSettings } from '../../src/discovery/settings.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { waitUntil } from '../helpers/deadlines.js';
import { BROWSER_SKIP, launchBrowser, openPage, type Watched } from '../server/ui-browser-harness.js';

// The callbacks given to page.evaluate run in the page: its globals, typed loosely (no DOM library here).
// biome-ignore-start lint/suspicious/noExplicitAny: see above
declare const document: any;
declare const window: any;
// biome-ignore-end lint/suspicious/noExplicitAny: see above

const TOKEN = 'cGFnZS1icm93c2VyLXNlY3VyaXR5LXRva2VuLTMyYnl0ZXM';
/** Markup in each field an author controls; none holds a `/`, so each can be a directory or file name too. */
const NAME = '<img src=x onerror=alert("name")>';
const DESCRIPTION = '<svg onload=alert("description")>';
const KEY = '<iframe src=javascript:alert("key")>';
const VALUE = '<img src=x onerror=alert("value")>';
const NESTED = '<script>alert("nested")<\\script>';
const FILE = '<img src=x onerror=alert("file")>.md';
const CONTENT = '<script>alert("content")</script><img src=x onerror=alert("content")>\n';
/**
 * A skill of the project, a copy of it in the user's directory (a collision), one the doctor finds fault with, and one
 * Claude Code loads too (its view).
 */
const TREE = {
  [`work/.musepi/skills/${NAME}/SKILL.md`]: [
    '---',
    `name: '${NAME}'`,
    `description: '${DESCRIPTION}'`,
    `'${KEY}': '${VALUE}'`,
    'meta:',
    `  nested: '${NESTED}'`,
    '---',
    '# Body',
    '',
  ].join('\n'),
  [`work/.musepi/skills/${NAME}/${FILE}`]: CONTENT,
  [`home/.musepi/agent/skills/${NAME}/SKILL.md`]: `---\nname: '${NAME}'\ndescription: '${DESCRIPTION}'\n---\n`,
  // No description: the doctor's finding names the directory.
  [`work/.claude/skills/${DESCRIPTION}/SKILL.md`]: `---\nname: '${DESCRIPTION}'\n---\n# Body\n`,
  // Claude Code offers no name holding `<`: the skill its view shows has markup in its description only.
  'work/.claude/skills/claude-skill/SKILL.md': `---\nname: claude-skill\ndescription: '${DESCRIPTION}'\n---\n`,
};
/** Elements no view of the page puts in its body: one there came from an author's markup. */
const FOREIGN = 'img, svg, iframe, object, embed, script, style, link, b, i, form, base, meta';

/** The daemon's guards as `skillsd serve` sets them up, with a token or without. */
function guarded(token?: string) {
  return { security: { token, bindHost: '127.0.0.1', getServerSettings: () => defaultSettings().server } };
}

describe('the page at /ui against hostile skills, framing and leaks', { skip: BROWSER_SKIP }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  /** What of the author's markup became part of the page: foreign elements, event handlers, dialogs. */
  async function acted(watched: Watched) {
    const found = await watched.page.evaluate((foreign: string) => {
      return {
        elements: [...document.body.querySelectorAll(foreign)].map((element) => element.outerHTML),
        handlers: [...document.querySelectorAll('*')].flatMap((element) =>
          [...element.attributes].filter((attribute) => /^on/i.test(attribute.name)).map((each) => each.name),
        ),
      };
    }, FOREIGN);
    return { ...found, dialogs: watched.dialogs, errors: watched.errors };
  }
  const inert = { elements: [], handlers: [], dialogs: [], errors: [] };

  const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent);

  it('shows markup from every field an author controls as text, in every view', async (t) => {
    const s = await startServer(t, { tree: TREE, app: guarded() });
    const list = await openPage(browser, t, `${s.base}/ui`);
    await list.page.waitForSelector('#collision-list li[data-collision]');
    const rows = await list.page.$$eval('#skill-rows tr', (items) =>
      items.map((row) => [...row.querySelectorAll('td')].slice(0, 2).map((cell) => cell.textContent)),
    );
    assert.deepEqual(rows, [
      [NAME, DESCRIPTION],
      [DESCRIPTION, ''],
      ['claude-skill', DESCRIPTION],
    ]);
    assert.equal(
      await text(list.page, '#collision-list li[data-collision] > span.path'),
      `${s.cwd}/.musepi/skills/${NAME}/SKILL.md`,
    );
    assert.deepEqual(await acted(list), inert);
    // The doctor's findings and the matrix name the hostile directory: shown as the daemon answers them, as text.
    await list.page.click('nav.sections a[href="#doctor"]');
    await list.page.waitForSelector('#doctor-findings tr[data-rule]');
    const findings = (await getJson(`${s.base}/doctor`)).body.findings as {
      severity: string;
      rule: string;
      path: string;
      line?: number;
      message: string;
      hint?: string;
    }[];
    assert.ok(findings.some((finding) => finding.path === `${s.cwd}/.claude/skills/${DESCRIPTION}/SKILL.md`));
    assert.deepEqual(
      await list.page.$$eval('#doctor-findings tbody tr', (items) =>
        items.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      ),
      findings.map((finding) => [
        finding.severity,
        finding.rule,
        finding.line === undefined ? finding.path : `${finding.path}:${finding.line}`,
        finding.message,
        finding.hint ?? '',
      ]),
    );
    assert.deepEqual(await acted(list), inert);
    await list.page.click('nav.sections a[href="#agents"]');
    await list.page.waitForSelector('#agents-matrix tr[data-matrix-skill]');
    const matrix = (await getJson(`${s.base}/agents`)).body.skills as { name: string; filePath: string }[];
    assert.deepEqual(
      await list.page.$$eval('#agents-matrix tr[data-matrix-skill]', (items) =>
        items.map((row) => [row.querySelector('th a').textContent, row.querySelector('th .where').title]),
      ),
      matrix.map((row) => [row.name, row.filePath]),
    );
    assert.ok(matrix.some((row) => row.name === DESCRIPTION));
    assert.deepEqual(await acted(list), inert);

    // The skill's page: its name (and the tab's title), description, frontmatter, files, a file's content.
    const skill = await openPage(browser, t, `${s.base}/ui/skill/${encodeURIComponent(NAME)}`);
    await skill.page.waitForSelector('#file-tree li');
    assert.equal(await skill.page.title(), `skillsd: ${NAME}`);
    assert.equal(await text(skill.page, '#skill-name'), NAME);
    assert.equal(await text(skill.page, '#skill-description'), DESCRIPTION);
    assert.deepEqual(
      await skill.page.$$eval('#frontmatter dt, #frontmatter dd', (cells) => cells.map((cell) => cell.textContent)),
      ['name', NAME, 'description', DESCRIPTION, KEY, VALUE, 'meta', JSON.stringify({ nested: NESTED })],
    );
    const shadowed = (await getJson(`${s.base}/doctor/${encodeURIComponent(NAME)}`)).body.candidates[1];
    assert.equal(shadowed.filePath, `${s.home}/.musepi/agent/skills/${NAME}/SKILL.md`);
    assert.equal(
      await text(skill.page, '#shadowed li'),
      `${shadowed.filePath} (native:user): shadowed: ${shadowed.reason}`,
    );
    await skill.page.click(`li[data-file="${FILE.replaceAll('"', '\\"')}"] button`);
    await skill.page.waitForSelector('#file-content');
    assert.equal(await text(skill.page, '#file-viewer .path'), FILE);
    assert.equal(await text(skill.page, '#file-content'), CONTENT);
    assert.deepEqual(await acted(skill), inert);

    // One agent's view: the skill Claude Code loads.
    const agent = await openPage(browser, t, `${s.base}/ui?agent=claude-code`);
    await agent.page.waitForSelector('#agent-skill-rows tr');
    assert.deepEqual(
      await agent.page.$$eval('#agent-skill-rows tr', (items) =>
        items.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      ),
      [['claude-skill', DESCRIPTION, 'project', `${s.cwd}/.claude/skills/claude-skill/SKILL.md`]],
    );
    assert.deepEqual(await acted(agent), inert);
  });

  it('cannot be framed by another origin, nor by itself', async (t) => {
    const s = await startServer(t, { tree: TREE, app: guarded() });
    // Another site's page (localhost is another site than 127.0.0.1) and another port of the same site.
    const framing = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><iframe src="${s.base}/ui"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
    // Closed with the browser's connections still open: the tabs close after it.
    t.after(() => {
      framing.closeAllConnections();
      return new Promise((resolve) => framing.close(resolve));
    });
    const port = (framing.address() as AddressInfo).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      const outer = await openPage(browser, t, `${origin}/`);
      // The frame's navigation is refused before the page is served: the daemon answers 403 `ForbiddenOrigin`.
      assert.deepEqual(
        outer.responses.filter(([url]) => url === `${s.base}/ui`),
        [[`${s.base}/ui`, 403]],
        origin,
      );
      const frame = outer.page.frames().find((each) => each !== outer.page.mainFrame());
      assert.ok(frame !== undefined, origin);
      assert.equal(await frame.evaluate(() => document.getElementById('main')), null, origin);
    }

    // The daemon's own page framing it: the guard lets a same-origin request through, the policy refuses the frame.
    const own = await openPage(browser, t, `${s.base}/ui`);
    await own.page.waitForSelector('#skill-rows tr');
    const framed = own.page.waitForResponse((response) => response.url() === `${s.base}/ui/skill/x`);
    await own.page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.src = '/ui/skill/x';
      document.body.append(frame);
    });
    assert.equal((await framed).status(), 200);
    await waitUntil('the frame refused', () => own.errors.some((error) => error.includes("frame-ancestors 'none'")));
    // What the frame shows is the browser's error page, of no origin the page can read: not the daemon's page.
    assert.equal(await own.page.evaluate(() => document.querySelector('iframe').contentDocument), null);
    assert.deepEqual(
      own.page.frames().map((frame) => frame.url()),
      [`${s.base}/ui`, 'chrome-error://chromewebdata/'],
    );
  });

  it('keeps a token out of every log line and Referer, through every view and file the page reads', async (t) => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(
          ...String(chunk)
            .split('\n')
            .filter((line) => line !== ''),
        );
        done();
      },
    });
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md':
          '---\nname: pdf\ndescription: PDF tools\n---\n# PDF\n\n[the reference](reference.md)\n\n![pixel](pixel.png)\n',
        'work/.musepi/skills/pdf/reference.md': '# Reference\n',
        'work/.musepi/skills/pdf/pixel.png': Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
          'base64',
        ),
      },
      app: { ...guarded(TOKEN), logger: pino({ level: 'trace' }, sink) },
    });
    const watched = await openPage(browser, t, `${s.base}/ui#token=${TOKEN}`);
    const { page } = watched;
    const referers: string[] = [];
    page.on('request', (request) => {
      const referer = request.headers().referer ?? '';
      if (referer !== '') referers.push(referer);
    });
    await page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live');
    await page.click('#skill-rows tr[data-skill="pdf"] a');
    await page.waitForSelector('#file-tree li');
    await page.waitForFunction(() => document.querySelector('#skill-body img')?.naturalWidth === 1);
    await page.click('#skill-body a[data-skill-file="reference.md"]');
    await page.waitForFunction(() => document.getElementById('file-content')?.textContent === '# Reference\n');
    // A wrong token too: the refusal is logged, the token it carried is not.
    const wrong = `${TOKEN}x`;
    assert.equal((await fetch(`${s.base}/events?token=${wrong}`)).status, 401);
    const paths = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request completed');
    assert.ok(paths.some((entry) => entry.path === '/skill/pdf/pixel.png' && entry.statusCode === 200));
    assert.ok(paths.some((entry) => entry.path === '/events' && entry.statusCode === 401));
    assert.deepEqual(
      lines.filter((line) => line.includes(TOKEN)),
      [],
    );
    assert.deepEqual(referers, []);
    assert.deepEqual(watched.errors, []);
  });
});
