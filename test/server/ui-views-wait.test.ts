// The page at /ui while the agent views are still being computed (docs/api.md "GET /ui"): a daemon whose request wait
// is nothing answers 503 `NotReady` for every read of the views until the test lets them be computed. Each page that
// reads them (the matrix, one agent's view, a skill's page) shows a progress line, then what it reads once
// the views are in, and never an error. In a real browser (Debian's chromium, driven by puppeteer-core); every wait
// is on a condition of the page, bounded by WAIT_MS. Without chromium the file is skipped, saying so.

import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { startServer } from '../helpers/app-server.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { SK } from '../helpers/temp-tree.js';
import { BROWSER_SKIP, launchBrowser } from './ui-browser-harness.js';

// The callbacks given to page.evaluate run in the page (puppeteer sends their source): these are the page's globals,
// typed loosely because this program is compiled without the DOM's library.
// biome-ignore-start lint/suspicious/noExplicitAny: see above
declare const document: any;
declare const window: any;
declare const MutationObserver: any;
// biome-ignore-end lint/suspicious/noExplicitAny: see above

const PROGRESS = /^Computing the agent views… \d+ s$/;

interface Opened {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

/** What the page showed, recorded in the page from its first moment: error texts and connection states. */
interface Shown {
  errors: string[];
  states: string[];
}

/**
 * Conditions are polled on a timer: puppeteer's default polls on animation frames, which a page in the background
 * (three pages are open at once here) may never get, so a condition that became true after the first look was missed.
 */
const POLLING = { polling: 100 };

describe('the page at /ui while the agent views are computed', { skip: BROWSER_SKIP }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  async function open(t: TestContext, url: string): Promise<Opened> {
    const page = await browser.newPage();
    t.after(() => page.close());
    page.setDefaultTimeout(WAIT_MS);
    const opened: Opened = { page, errors: [] };
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const where = message.location().url;
      opened.errors.push(where === undefined ? message.text() : `${message.text()}: ${where}`);
    });
    page.on('pageerror', (error) => opened.errors.push(String(error)));
    await page.evaluateOnNewDocument(() => {
      const shown = { errors: [] as string[], states: [] as string[] };
      window.shown = shown;
      new MutationObserver(() => {
        const error = document.getElementById('error');
        if (error !== null && !error.hidden && shown.errors.at(-1) !== error.textContent) {
          shown.errors.push(error.textContent);
        }
        const state = document.getElementById('connection')?.dataset.state;
        if (state !== undefined && shown.states.at(-1) !== state) shown.states.push(state);
      }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.goto(url, { waitUntil: 'load' });
    return opened;
  }

  /** The progress line's text once it has moved on from its first second: the page counts while it waits. */
  async function progressCounts(page: Page, selector: string): Promise<void> {
    await page.waitForFunction((where: string) => document.querySelector(where) !== null, POLLING, selector);
    const first = await page.$eval(selector, (line) => line.textContent);
    assert.match(first, PROGRESS);
    await page.waitForFunction(
      (where: string, before: string) => {
        const text = document.querySelector(where)?.textContent;
        return text !== undefined && text !== before;
      },
      POLLING,
      selector,
      first,
    );
    assert.match(await page.$eval(selector, (line) => line.textContent), PROGRESS);
  }

  const shown = (page: Page) => page.evaluate(() => window.shown) as Promise<Shown>;

  /** The only console errors: the browser's own line for each 503 the page read (`Failed to load resource`). */
  function only503s(opened: Opened, url: string): void {
    assert.ok(opened.errors.length > 0);
    for (const error of opened.errors) {
      assert.equal(
        error,
        `Failed to load resource: the server responded with a status of 503 (Service Unavailable): ${url}`,
      );
    }
  }

  it('shows a progress line on the matrix, an agent’s view and a skill’s page, then what the views say', async (t) => {
    let release: () => void = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Fill PDF forms' }),
        'work/.goose/skills/gz/SKILL.md': SK({ name: 'gz', description: 'Goose only' }),
      },
      app: { readyWaitMs: 0 },
      holdViews: hold,
    });

    const list = await open(t, `${s.base}/ui#agents`);
    await progressCounts(list.page, '#agents-matrix .progress');

    const agent = await open(t, `${s.base}/ui?agent=goose`);
    await progressCounts(agent.page, '#main .progress');
    // Its stream waits for the view too: not opened yet, so the page does not say the daemon is lost.
    assert.equal(await agent.page.$eval('#connection', (element) => element.dataset.state), 'connecting');

    const skill = await open(t, `${s.base}/ui/skill/pdf`);
    await progressCounts(skill.page, '#main .progress');

    release();
    await list.page.waitForSelector('#agents-matrix tr[data-matrix-skill="gz"]');
    await agent.page.waitForSelector('#agent-skill-rows tr[data-skill="gz"]');
    await agent.page.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'live', POLLING);
    await skill.page.waitForSelector('#skill-name');
    assert.equal(await skill.page.$eval('#skill-name', (element) => element.textContent), 'pdf');

    for (const { page } of [list, agent, skill]) {
      assert.equal(await page.$('.progress'), null);
      assert.equal(await page.$eval('#error', (element) => element.hidden), true);
    }
    assert.deepEqual(await shown(list.page), { errors: [], states: ['connecting', 'live'] });
    assert.deepEqual(await shown(agent.page), { errors: [], states: ['connecting', 'live'] });
    assert.deepEqual(await shown(skill.page), { errors: [], states: ['connecting', 'live'] });
    only503s(list, `${s.base}/agents`);
    only503s(agent, `${s.base}/skills?agent=goose`);
    only503s(skill, `${s.base}/doctor/pdf`);
  });
});
