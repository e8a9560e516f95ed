// What the page's browser tests share: Debian's chromium driven by puppeteer-core, a tab that records every request,
// answer, console error and dialog, and downloads that land in a directory of the test's own. Every wait is on an
// event or a condition of the page, bounded by WAIT_MS.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { WAIT_MS } from '../helpers/deadlines.js';

export const CHROMIUM = '/usr/bin/chromium';
/** Why a browser test is skipped on this machine, or false when it runs. */
export const BROWSER_SKIP = existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM}: apt-get install chromium`;

export interface Watched {
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  /** Every answer the page received: its URL and status. */
  responses: [url: string, status: number][];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every alert, confirm or prompt the page opened. */
  dialogs: string[];
}

export async function launchBrowser(): Promise<Browser> {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container: chromium's sandbox needs user namespaces it may not have.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

/** A new tab of `browser` that has loaded `url`, closed when the test ends. */
export async function openPage(browser: Browser, t: TestContext, url: string): Promise<Watched> {
  const page = await browser.newPage();
  t.after(() => page.close());
  page.setDefaultTimeout(WAIT_MS);
  const watched: Watched = { page, requests: [], responses: [], errors: [], dialogs: [] };
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('response', (response) => watched.responses.push([response.url(), response.status()]));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    watched.errors.push(where === undefined ? message.text() : `${message.text()}: ${where}`);
  });
  page.on('pageerror', (error) => watched.errors.push(String(error)));
  page.on('dialog', async (dialog) => {
    watched.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.setViewport({ width: 960, height: 720 });
  await page.goto(url, { waitUntil: 'load' });
  return watched;
}

/**
 * Waits until the page has read the events up to `generation` (the header's `data-generation`) and is done reading
 * what they asked for (no `aria-busy`): from then on it shows that generation, and no read of it is still under way.
 */
export async function shownUpTo(page: Page, generation: number): Promise<void> {
  await page.waitForFunction(
    (wanted: number) => {
      // biome-ignore lint/suspicious/noExplicitAny: the page's document, in a program compiled without the DOM library
      const doc = (globalThis as any).document;
      return (
        Number(doc.getElementById('connection')?.dataset.generation) >= wanted &&
        !doc.getElementById('main').hasAttribute('aria-busy')
      );
    },
    {},
    generation,
  );
}

export interface Downloads {
  /** Resolves with the name and content of the next download once it has completed; rejects if it is canceled. */
  next(): Promise<{ name: string; text: string }>;
}

/** Downloads of every tab of `browser` saved under `directory` (the browser's own events say when each is done). */
export async function saveDownloads(browser: Browser, t: TestContext, directory: string): Promise<Downloads> {
  const session: CDPSession = await browser.target().createCDPSession();
  t.after(() => session.detach());
  await session.send('Browser.setDownloadBehavior', {
    behavior: 'allow',
    downloadPath: directory,
    eventsEnabled: true,
  });
  const names = new Map<string, string>();
  session.on('Browser.downloadWillBegin', (event) => names.set(event.guid, event.suggestedFilename));
  return {
    next: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no download completed within ${WAIT_MS} ms`)), WAIT_MS);
        const progress = (event: { guid: string; state: string }) => {
          if (event.state === 'inProgress') return;
          session.off('Browser.downloadProgress', progress);
          clearTimeout(timer);
          const name = names.get(event.guid) ?? '';
          if (event.state !== 'completed') reject(new Error(`download of ${name} ${event.state}`));
          else readFile(join(directory, name), 'utf8').then((text) => resolve({ name, text }), reject);
        };
        session.on('Browser.downloadProgress', progress);
      }),
  };
}
