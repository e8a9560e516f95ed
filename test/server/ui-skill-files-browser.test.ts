// A skill's page in a real browser, against a real daemon on a real port: the relative links and images of its
// SKILL.md body and the file viewer's raw link, for files whose names hold spaces and accents, written plain or
// percent-encoded by the author, with and without a token (docs/api.md "GET /ui"). Without chromium the file is
// skipped, saying so.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser } from 'puppeteer-core';
import { defaultSettings } from '../../src/discovery/settings.js';
import { startServer } from '../helpers/app-server.js';
import { BROWSER_SKIP, launchBrowser, openPage, saveDownloads } from './ui-browser-harness.js';

// The callbacks given to page.evaluate run in the page: its globals, typed loosely (no DOM library here).
// biome-ignore lint/suspicious/noExplicitAny: see above
declare const document: any;

const TOKEN = 'c2tpbGwtZmlsZXMtYnJvd3Nlci10b2tlbi0zMi1ieXRlcw';
/** A PNG of one pixel. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const BODY = [
  '# Files',
  '',
  '[spaced](<references/my file.md>) [spaced, encoded](references/my%20file.md)',
  '[accented](références/é.md) [accented, encoded](r%C3%A9f%C3%A9rences/%C3%A9.md)',
  '',
  '![a pixel](<images/a pixel.png>)',
  '',
].join('\n');
const TREE = {
  'work/.musepi/skills/files/SKILL.md': `---\nname: files\ndescription: Names with spaces and accents\n---\n${BODY}`,
  'work/.musepi/skills/files/references/my file.md': '# My file\n',
  'work/.musepi/skills/files/références/é.md': '# É\n',
  'work/.musepi/skills/files/images/a pixel.png': PIXEL,
};
const SPACED = '/skill/files/references/my%20file.md';
const ACCENTED = '/skill/files/r%C3%A9f%C3%A9rences/%C3%A9.md';
/** Each link of the body: its text, the file it names, its address and what the viewer must show. */
const LINKS = [
  ['spaced', 'references/my file.md', SPACED, '# My file\n'],
  ['spaced, encoded', 'references/my file.md', SPACED, '# My file\n'],
  ['accented', 'références/é.md', ACCENTED, '# É\n'],
  ['accented, encoded', 'références/é.md', ACCENTED, '# É\n'],
] as const;

describe('a skill’s files from its page, with names holding spaces and accents', { skip: BROWSER_SKIP }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  async function checkFiles(t: TestContext, token: string | undefined): Promise<void> {
    const s = await startServer(t, {
      tree: TREE,
      ...(token === undefined
        ? {}
        : {
            app: {
              security: { token, bindHost: '127.0.0.1', getServerSettings: () => defaultSettings().server },
            },
          }),
    });
    const downloadDir = await mkdtemp(join(tmpdir(), 'skillsd-downloads-'));
    t.after(() => rm(downloadDir, { recursive: true, force: true }));
    const downloads = await saveDownloads(browser, t, downloadDir);
    const watched = await openPage(
      browser,
      t,
      `${s.base}/ui/skill/files${token === undefined ? '' : `#token=${token}`}`,
    );
    const { page } = watched;
    await page.waitForSelector('#skill-body a');
    // The page waits for its listing of the skill's files: the last read of its first draw.
    await page.waitForSelector('#file-tree li');
    assert.deepEqual(
      await page.$$eval('#skill-body a', (links) =>
        links.map((link) => [link.textContent, link.dataset.skillFile, link.getAttribute('href')]),
      ),
      LINKS.map(([text, file, href]) => [text, file, href]),
    );

    // Each link opens its file in the viewer, read through the file route (200) with the right content.
    const links = await page.$$('#skill-body a');
    for (const [index, [text, file, href, content]] of LINKS.entries()) {
      await page.$eval('#file-viewer', (viewer) => viewer.replaceChildren());
      await links[index]!.click();
      await page.waitForSelector('#file-content');
      assert.deepEqual(
        await page.$eval('#file-viewer', (viewer) => [
          viewer.querySelector('.path').textContent,
          viewer.querySelector('#file-content').textContent,
        ]),
        [file, content],
        text,
      );
      assert.ok(
        watched.responses.some(([url, status]) => url === `${s.base}${href}` && status === 200),
        text,
      );
    }

    // The image loads through the file route.
    await page.waitForFunction(() => {
      const image = document.querySelector('#skill-body img');
      return image.getAttribute('src') !== null && image.complete;
    });
    assert.deepEqual(
      await page.$eval('#skill-body img', (image) => [image.alt, image.naturalWidth, image.naturalHeight]),
      ['a pixel', 1, 1],
    );
    assert.ok(
      watched.responses.some(([url, status]) => url === `${s.base}/skill/files/images/a%20pixel.png` && status === 200),
    );

    // The viewer's raw link downloads the file, named as it is.
    await links[0]!.click();
    await page.waitForFunction(
      () => document.querySelector('#file-viewer .path')?.textContent === 'references/my file.md',
    );
    const downloaded = downloads.next();
    await page.click('#file-viewer h4 a');
    assert.deepEqual(await downloaded, { name: 'my file.md', text: '# My file\n' });

    // Nothing was refused or failed, nothing left this origin, and no address the browser sent but the event stream's
    // held the token (the fragment it was handed over in never leaves the browser).
    assert.deepEqual(
      watched.responses.filter(([, status]) => status >= 400),
      [],
    );
    assert.deepEqual(watched.errors, []);
    assert.deepEqual(
      watched.requests.filter((url) => !url.startsWith(`${s.base}/`) && !url.startsWith('blob:')),
      [],
    );
    if (token !== undefined) {
      assert.deepEqual(
        watched.requests.filter((url) => !url.startsWith('blob:') && new URL(url).search.includes(token)),
        [`${s.base}/events?token=${token}`],
      );
    }
  }

  it('opens the linked files, loads the image and downloads the raw file without a token', async (t) => {
    await checkFiles(t, undefined);
  });

  it('opens the linked files, loads the image and downloads the raw file with a token', async (t) => {
    await checkFiles(t, TOKEN);
  });
});
