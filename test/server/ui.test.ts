// `GET /ui` and what it serves, over real HTTP: the page, its files, the rendered SKILL.md body, the page's headers,
// and the guards (docs/api.md "GET /ui").

import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../src/discovery/settings.js';
import type { ServerSettings } from '../../src/discovery/types.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { HOSTILE_BODY } from '../helpers/hostile-skill.js';
import { rawRequest } from '../helpers/raw-http.js';
import { SseClient } from '../helpers/sse-client.js';
import { SK } from '../helpers/temp-tree.js';

const CSP = "default-src 'self'; img-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const TOKEN = 'dWktdGVzdC10b2tlbi12YWx1ZS0zMi1ieXRlcy1sb25n';
const ASSETS = new URL('../../src/server/ui/', import.meta.url);
/** The page's script: `app.js` and the modules it imports, one per view and what they share. */
const MODULES = [
  'app.js',
  'http.js',
  'dom.js',
  'live.js',
  'list-page.js',
  'doctor-page.js',
  'matrix-page.js',
  'agent-page.js',
  'skill-page.js',
  'skill-files.js',
];

const HOSTILE_HTML = [
  '<h1>Hostile</h1>',
  '<p>&lt;script&gt;alert(&quot;script&quot;)&lt;/script&gt;</p>',
  "<p>&lt;img src=&quot;x&quot; onerror=&quot;alert('onerror')&quot;&gt;</p>",
  '<p>[js](javascript:alert(&quot;link&quot;)) [vb](vbscript:msgbox) [data](data:text/html,&lt;b&gt;x&lt;/b&gt;) ' +
    '&lt;javascript:alert(1)&gt;</p>',
  '<p><span class="remote-image">[image not loaded: remote]</span> ' +
    '<span class="remote-image">[image not loaded: protocol-relative]</span></p>',
  '<p>![inline](data:image/png;base64,iVBORw0KGgo=)</p>',
  '<p><a href="/skill/evil/reference.md" data-skill-file="reference.md">reference</a> ' +
    '<a href="https://example.com/docs" rel="noopener noreferrer nofollow">elsewhere</a> ' +
    '<span class="outside-link" title="outside the skill: ../other/SKILL.md">up</span></p>',
  '',
].join('\n');

function serverSettings(): ServerSettings {
  return defaultSettings().server;
}

describe('GET /ui', () => {
  it('serves the page with its policy, the same document for every view', async (t) => {
    const s = await startServer(t);
    const page = await fetch(`${s.base}/ui`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('content-security-policy'), CSP);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    // The optional routes this daemon answers, named for the page so that it never probes for them.
    const features = ['search', 'agents'].filter((route) => s.app.hasRoute({ method: 'GET', url: `/${route}` }));
    const source = await readFile(new URL('index.html', ASSETS), 'utf8');
    assert.equal(html, source.replace('data-features=""', `data-features="${features.join(' ')}"`));
    // Everything the page loads is its own: no other origin, no inline script.
    assert.deepEqual(
      [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]),
      ['/ui/assets/icon.svg', '/ui/assets/style.css', '/ui/assets/app.js', '#main', '/ui'],
    );
    assert.equal(/<script(?![^>]*\bsrc=)/.test(html), false);
    for (const view of ['/ui/', '/ui/skill/pdf', '/ui/skill/no%20such', `/ui?cwd=${encodeURIComponent(s.cwd)}`]) {
      const other = await fetch(`${s.base}${view}`);
      assert.equal(other.status, 200, view);
      assert.equal(other.headers.get('content-security-policy'), CSP, view);
      assert.equal(await other.text(), html, view);
    }
    const etag = page.headers.get('etag');
    assert.ok(etag !== null);
    const again = await fetch(`${s.base}/ui`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  it('serves its files from the package with their types, and nothing else', async (t) => {
    const s = await startServer(t);
    const types: Record<string, string> = {
      'style.css': 'text/css; charset=utf-8',
      'icon.svg': 'image/svg+xml',
    };
    for (const module of MODULES) types[module] = 'text/javascript; charset=utf-8';
    for (const [file, type] of Object.entries(types)) {
      const answer = await fetch(`${s.base}/ui/assets/${file}`);
      assert.equal(answer.status, 200, file);
      assert.equal(answer.headers.get('content-type'), type, file);
      assert.equal(answer.headers.get('content-security-policy'), CSP, file);
      assert.equal(await answer.text(), await readFile(new URL(file, ASSETS), 'utf8'), file);
    }
    // The script is one module per view: every module one imports is one the daemon serves, and the directory holds
    // no other.
    const imported = new Set(['app.js']);
    for (const module of MODULES) {
      const text = await readFile(new URL(module, ASSETS), 'utf8');
      for (const [, name] of text.matchAll(/^import [^;]* from '\.\/([^']+)';$/gm)) imported.add(name!);
    }
    assert.deepEqual([...imported].sort(), [...MODULES].sort());
    assert.deepEqual((await readdir(ASSETS)).filter((file) => file.endsWith('.js')).sort(), [...MODULES].sort());
    for (const target of ['/ui/assets/nope.js', '/ui/assets/index.ts', '/ui/assets/..%2F..%2Fpackage.json', '/ui/x']) {
      const { status, headers, body } = await getJson(`${s.base}${target}`);
      assert.equal(status, 404, target);
      assert.equal(headers.get('content-type'), 'application/json; charset=utf-8', target);
      assert.deepEqual(body, {
        statusCode: 404,
        code: 'NotFound',
        error: 'Not Found',
        message: `Route GET ${target} not found`,
      });
    }
  });

  it('renders a hostile SKILL.md body inert: raw HTML escaped, no script link, no remote image', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/evil/SKILL.md': `---\nname: evil\ndescription: Tries things\n---\n${HOSTILE_BODY}` },
    });
    const { status, body } = await getJson(`${s.base}/ui/render/evil`);
    assert.equal(status, 200);
    assert.deepEqual(body, { name: 'evil', generation: 1, html: HOSTILE_HTML, truncated: false });
  });

  it('renders for another workspace with ?cwd=, its links carrying it; an unknown skill is 404', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'other/.git/HEAD': 'ref: refs/heads/main\n',
        'other/.musepi/skills/notes/SKILL.md':
          '---\nname: notes\ndescription: Notes\n---\n![d](img/a%20b.png) [r](ref.md)\n',
      },
    });
    const other = `${s.root}/other`;
    const rendered = await getJson(`${s.base}/ui/render/notes?cwd=${encodeURIComponent(other)}`);
    assert.equal(rendered.status, 200);
    const query = `?cwd=${encodeURIComponent(other)}`;
    assert.equal(
      rendered.body.html,
      `<p><img src="/skill/notes/img/a%20b.png${query}" alt="d" loading="lazy"> ` +
        `<a href="/skill/notes/ref.md${query}" data-skill-file="ref.md">r</a></p>\n`,
    );
    const missing = await getJson(`${s.base}/ui/render/notes`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      statusCode: 404,
      code: 'SkillNotFound',
      error: 'Not Found',
      message: 'Unknown skill: notes\nNo close name (1 skill loaded)',
    });
  });

  it('keeps the Host and Origin guards on the page, and the token on the data it reads', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }) },
      app: { security: { token: TOKEN, bindHost: '127.0.0.1', getServerSettings: serverSettings } },
    });
    // A browser cannot send a token when it opens a URL: the page and its files answer without one.
    for (const target of ['/ui', '/ui/skill/pdf', '/ui/assets/app.js', `/ui?cwd=${encodeURIComponent(s.cwd)}`]) {
      assert.equal((await fetch(`${s.base}${target}`)).status, 200, target);
    }
    const refused = await getJson(`${s.base}/ui/render/pdf`);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'Unauthorized');
    const allowed = await getJson(`${s.base}/ui/render/pdf`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.body.html, '<h1>Body</h1>\n');
    // EventSource sends the token in the query; the stream accepts it there.
    const stream = await SseClient.connect(`${s.base}/events?token=${TOKEN}`);
    t.after(() => stream.close());
    assert.equal(stream.status, 200);

    const host = await rawRequest(s.port, ['GET /ui HTTP/1.1', 'Host: evil.example']);
    assert.equal(host.status, 403);
    assert.equal(JSON.parse(host.body).code, 'ForbiddenHost');
    const origin = await rawRequest(s.port, [
      'GET /ui HTTP/1.1',
      `Host: 127.0.0.1:${s.port}`,
      'Origin: https://evil.example',
    ]);
    assert.equal(origin.status, 403);
    assert.equal(JSON.parse(origin.body).code, 'ForbiddenOrigin');
    const crossSite = await rawRequest(s.port, [
      'GET /ui/assets/app.js HTTP/1.1',
      `Host: 127.0.0.1:${s.port}`,
      'Sec-Fetch-Site: cross-site',
    ]);
    assert.equal(crossSite.status, 403);
    assert.equal(JSON.parse(crossSite.body).code, 'ForbiddenOrigin');
    // The page's own requests carry its own origin: allowed.
    const own = await rawRequest(s.port, [
      'GET /ui/assets/app.js HTTP/1.1',
      `Host: 127.0.0.1:${s.port}`,
      `Origin: http://127.0.0.1:${s.port}`,
      'Sec-Fetch-Site: same-origin',
    ]);
    assert.equal(own.status, 200);
  });
});
