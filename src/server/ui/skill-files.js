// A skill's body and files on its page (docs/api.md "GET /ui — the page"): the SKILL.md body the daemon rendered, and
// the skill's files read through `GET /skill/{name}/{path}`: a directory opens in place, a file opens in the page.
// With a token, what the browser would load by address (images, the `raw` link) is read by the page with the token as
// a header instead (http.js `readWithToken`).

import { h, showError } from './dom.js';
import { apiUrl, encodePath, messageOf, readWithToken, request, token } from './http.js';

/** The file tree and file viewer of the skill `encoded` (its name, encoded for an address). */
export function fileBrowser(encoded) {
  const tree = h('div', { id: 'file-tree' });
  const viewer = h('div', { id: 'file-viewer', 'aria-live': 'polite' });

  async function listing(directory) {
    const path = directory === '' ? '' : encodePath(directory);
    const answer = await request(`/skill/${encoded}/${path}`, directory === '' ? { list: '' } : {});
    if (!answer.ok) return h('p', { class: 'error', text: messageOf(answer) });
    return h(
      'ul',
      { class: 'files' },
      answer.body.entries.map((entry) => {
        const entryPath = directory === '' ? entry.name : `${directory}/${entry.name}`;
        if (entry.type === 'directory') return directoryItem(entry.name, entryPath);
        return h(
          'li',
          { 'data-file': entryPath },
          h('button', { type: 'button', click: () => open(entryPath) }, entry.name),
          h('span', { class: 'muted', text: ` ${entry.size} B` }),
        );
      }),
    );
  }

  function directoryItem(name, path) {
    const item = h('li', { 'data-dir': path });
    let shown;
    const toggle = async () => {
      if (shown !== undefined) {
        shown.remove();
        shown = undefined;
        button.setAttribute('aria-expanded', 'false');
        return;
      }
      shown = await listing(path);
      item.append(shown);
      button.setAttribute('aria-expanded', 'true');
    };
    const button = h('button', { type: 'button', 'aria-expanded': 'false', click: toggle }, `${name}/`);
    item.append(button);
    return item;
  }

  async function open(path) {
    const answer = await request(
      `/skill/${encoded}/${encodePath(path)}`,
      {},
      { accept: 'text/markdown, text/plain, */*' },
    );
    const href = `/skill/${encoded}/${encodePath(path)}${apiUrl('/').search}`;
    const fileName = path.split('/').pop();
    // Without a token the browser downloads it itself; with one it cannot send it, so the page does (readWithToken).
    const download = (event) => {
      event.preventDefault();
      downloadWithToken(href, fileName).catch(showError);
    };
    const raw = h('a', {
      href,
      download: fileName,
      text: 'raw',
      click: token() === undefined ? undefined : download,
    });
    viewer.replaceChildren(
      h('h4', {}, h('span', { class: 'path', text: path }), ' ', raw),
      answer.ok
        ? h('pre', { class: 'file', id: 'file-content', tabindex: '0', text: String(answer.body) })
        : h('p', { class: 'error', id: 'file-content', text: messageOf(answer) }),
    );
  }

  return { tree, viewer, open, list: async () => tree.append(await listing('')) };
}

/**
 * The SKILL.md body the daemon rendered and sanitised (docs/api.md "GET /ui"; the page's policy forbids inline script
 * besides), parsed in a template first: nothing in a template loads, so that with a token its images are read by
 * readWithToken before any of them is requested without it (which would only be refused, 401).
 */
export function showRendered(box, html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  if (token() !== undefined) {
    for (const image of template.content.querySelectorAll('img[src]')) {
      const source = image.getAttribute('src');
      image.removeAttribute('src');
      // An image that cannot be read shows its alt text, as a broken image does.
      readWithToken(source)
        .then((objectUrl) => {
          const release = () => URL.revokeObjectURL(objectUrl);
          image.addEventListener('load', release, { once: true });
          image.addEventListener('error', release, { once: true });
          image.src = objectUrl;
        })
        .catch(() => undefined);
    }
  }
  box.replaceChildren(template.content);
}

/** The last file downloaded with the token: released by the next download (releasing it at once could cut it). */
let downloadedUrl;

async function downloadWithToken(url, fileName) {
  const objectUrl = await readWithToken(url);
  if (downloadedUrl !== undefined) URL.revokeObjectURL(downloadedUrl);
  downloadedUrl = objectUrl;
  h('a', { href: objectUrl, download: fileName }).click();
}
