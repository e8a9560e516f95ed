import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { getJson, startServer, type TestServer } from '../helpers/app-server.js';
import { requestRawPath } from '../helpers/http-raw-path.js';
import { SK } from '../helpers/temp-tree.js';

const PDF = SK({ name: 'pdf', description: 'PDF tools' });
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': PDF,
  'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
  'work/.musepi/skills/pdf/docs/guide.MDX': '# Guide\n',
  'work/.musepi/skills/pdf/docs/b.txt': 'b',
  'work/.musepi/skills/pdf/docs/sub/deep.md': 'deep',
  'work/.musepi/skills/pdf/empty': { dir: true as const },
  'work/.musepi/skills/pdf/leak.txt': { symlink: '../../../../outside.txt' },
  'work/.musepi/skills/quiet/SKILL.md': SK({ description: 'Hidden', hide: true }),
  'outside.txt': 'secret\n',
  'secret.txt': 'secret\n',
};

function errorOf(statusCode: number, code: string, error: string, message: string) {
  return { statusCode, code, error, message };
}

async function raw(s: TestServer, target: string, method = 'GET') {
  return requestRawPath(s.port, target, { method });
}

describe('GET /skill/{name}', () => {
  it("answers the skill's SKILL.md, raw, with file headers", async (t) => {
    const s = await startServer(t, { tree: TREE });
    const path = `${s.cwd}/.musepi/skills/pdf/SKILL.md`;
    const info = await stat(path);
    for (const url of [`${s.base}/skill/pdf`, `${s.base}/skill/pdf/`, `${s.base}/skill/%70df`]) {
      const response = await fetch(url);
      assert.equal(response.status, 200, url);
      assert.equal(await response.text(), PDF);
      assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(PDF)));
      assert.equal(response.headers.get('x-skill-source-path'), path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('last-modified'), info.mtime.toUTCString());
      assert.match(response.headers.get('etag') ?? '', /^W\/"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/);
    }
  });

  it('serves hidden skills like any other', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const response = await fetch(`${s.base}/skill/quiet`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), SK({ description: 'Hidden', hide: true }));
  });

  it('answers 304 to the current ETag and 200 again after the file changes', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const first = await fetch(`${s.base}/skill/pdf/scripts/run.sh`);
    const etag = first.headers.get('etag')!;
    await first.text();
    const cached = await fetch(`${s.base}/skill/pdf/scripts/run.sh`, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.headers.get('content-length'), null);
    assert.equal(cached.headers.get('content-type'), null);
    assert.equal(await cached.text(), '');
    assert.equal(cached.headers.get('etag'), etag);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${s.cwd}/.musepi/skills/pdf/scripts/run.sh`, '#!/bin/sh\necho changed, and longer\n');
    const fresh = await fetch(`${s.base}/skill/pdf/scripts/run.sh`, { headers: { 'if-none-match': etag } });
    assert.equal(fresh.status, 200);
    assert.equal(await fresh.text(), '#!/bin/sh\necho changed, and longer\n');
    assert.notEqual(fresh.headers.get('etag'), etag);
  });

  it('answers HEAD with the headers of GET and no body', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const get = await fetch(`${s.base}/skill/pdf/docs/guide.MDX`);
    await get.text();
    const head = await raw(s, '/skill/pdf/docs/guide.MDX', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    for (const name of ['content-type', 'content-length', 'etag', 'last-modified', 'x-skill-source-path']) {
      assert.equal(head.headers[name], get.headers.get(name), name);
    }
    assert.equal(head.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.equal(head.headers['content-length'], '8');
    const missing = await raw(s, '/skill/pdf/missing.md', 'HEAD');
    assert.equal(missing.status, 404);
    assert.equal(missing.body, '');
  });

  it('serves files inside the skill with the content type of their extension', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const script = await fetch(`${s.base}/skill/pdf/scripts/run.sh`);
    assert.equal(script.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(script.headers.get('x-skill-source-path'), `${s.cwd}/.musepi/skills/pdf/scripts/run.sh`);
    assert.equal(await script.text(), '#!/bin/sh\necho hi\n');
    const guide = await fetch(`${s.base}/skill/pdf/docs/guide.MDX`);
    assert.equal(guide.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(await guide.text(), '# Guide\n');
    // Each segment is percent-decoded once.
    const encoded = await fetch(`${s.base}/skill/pdf/docs%2Fb.txt`);
    assert.equal(encoded.status, 200);
    assert.equal(await encoded.text(), 'b');
  });

  it('streams a large file whole', async (t) => {
    const big = 'x'.repeat(3 * 1024 * 1024 + 7);
    const s = await startServer(t, { tree: { ...TREE, 'work/.musepi/skills/pdf/big.txt': big } });
    // The second answer is a remembered file (checked-file-memo.ts), streamed from the descriptor it reopened.
    for (const round of ['first', 'remembered']) {
      const response = await fetch(`${s.base}/skill/pdf/big.txt`);
      assert.equal(response.headers.get('content-length'), String(big.length), round);
      assert.equal(await response.text(), big, round);
    }
  });

  it('serves files on both sides of the 64 KiB whole-read bound byte for byte', async (t) => {
    const sizes = [64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1];
    const bodies = sizes.map((size, i) => String.fromCharCode(97 + i).repeat(size));
    const tree = Object.fromEntries(bodies.map((body, i) => [`work/.musepi/skills/pdf/f${i}.txt`, body]));
    const s = await startServer(t, { tree: { ...TREE, ...tree } });
    for (const round of ['first', 'remembered']) {
      for (const [i, body] of bodies.entries()) {
        const response = await fetch(`${s.base}/skill/pdf/f${i}.txt`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-length'), String(body.length), `${round} f${i}`);
        assert.equal(await response.text(), body, `${round} f${i}`);
      }
    }
  });

  it('answers a directory with the reference listing, or { entries } for Accept: application/json', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const text = await fetch(`${s.base}/skill/pdf/docs`);
    assert.equal(text.status, 200);
    assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(text.headers.get('x-skill-source-path'), `${s.cwd}/.musepi/skills/pdf/docs`);
    assert.equal(await text.text(), 'sub/\nb.txt\nguide.MDX\n');
    const json = await getJson(`${s.base}/skill/pdf/docs/`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 200);
    assert.equal(json.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(json.body, {
      entries: [
        { name: 'sub', type: 'directory', size: 0 },
        { name: 'b.txt', type: 'file', size: 1 },
        { name: 'guide.MDX', type: 'file', size: 8 },
      ],
    });
    const empty = await fetch(`${s.base}/skill/pdf/empty`);
    assert.equal(await empty.text(), '(empty directory)\n');
    const emptyJson = await getJson(`${s.base}/skill/pdf/empty`, { headers: { accept: 'application/json' } });
    assert.deepEqual(emptyJson.body, { entries: [] });
    const refused = await fetch(`${s.base}/skill/pdf/empty`, { headers: { accept: 'application/json;q=0, */*' } });
    assert.equal(await refused.text(), '(empty directory)\n');
  });

  it('lists the skill top directory at /skill/{name}/?list, leaving out the link the route refuses', async (t) => {
    const s = await startServer(t, { tree: TREE });
    // Without ?list the same URL is the SKILL.md.
    assert.equal(await (await fetch(`${s.base}/skill/pdf/`)).text(), PDF);
    for (const url of [`${s.base}/skill/pdf/?list`, `${s.base}/skill/pdf?list`, `${s.base}/skill/pdf/?list=1`]) {
      const text = await fetch(url);
      assert.equal(text.status, 200, url);
      assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(text.headers.get('x-skill-source-path'), `${s.cwd}/.musepi/skills/pdf`);
      // leak.txt leads out of the skill (403 PathEscapesSkill), so it is not listed.
      assert.equal(await text.text(), 'docs/\nempty/\nscripts/\nSKILL.md\n', url);
    }
    assert.equal((await fetch(`${s.base}/skill/pdf/leak.txt`)).status, 403);
    const json = await getJson(`${s.base}/skill/pdf/?list`, { headers: { accept: 'application/json' } });
    assert.deepEqual(json.body, {
      entries: [
        { name: 'docs', type: 'directory', size: 0 },
        { name: 'empty', type: 'directory', size: 0 },
        { name: 'scripts', type: 'directory', size: 0 },
        { name: 'SKILL.md', type: 'file', size: Buffer.byteLength(PDF) },
      ],
    });
    const head = await fetch(`${s.base}/skill/pdf/?list`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    const onFile = await getJson(`${s.base}/skill/pdf/docs/b.txt?list`);
    assert.deepEqual(
      onFile.body,
      errorOf(400, 'BadRequest', 'Bad Request', 'list is for directories: skill://pdf/docs/b.txt is a file'),
    );
  });

  const invalid: Array<[string, string]> = [
    ['/skill/pdf/../../etc/passwd', 'Path traversal (..) is not allowed in skill:// URLs'],
    ['/skill/pdf/..%2F..%2Fsecret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
    ['/skill/pdf/%2e%2e/%2e%2e/secret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
    ['/skill/pdf/..%5c..%5csecret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
    ['/skill/pdf/docs/../SKILL.md', 'Path traversal (..) is not allowed in skill:// URLs'],
    ['/skill/pdf/%2Fetc%2Fpasswd', 'Absolute paths are not allowed in skill:// URLs'],
    ['/skill/pdf//etc/passwd', 'Absolute paths are not allowed in skill:// URLs'],
    ['/skill/pdf/a%00b', 'NUL bytes are not allowed in skill:// URLs'],
  ];
  for (const [target, message] of invalid) {
    it(`refuses ${target} with 400 InvalidPath (raw path)`, async (t) => {
      const s = await startServer(t, { tree: TREE });
      const response = await raw(s, target);
      assert.equal(response.status, 400);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(JSON.parse(response.body), errorOf(400, 'InvalidPath', 'Bad Request', message));
    });
  }

  it('refuses malformed percent-encoding with 400 InvalidPath', async (t) => {
    const s = await startServer(t, { tree: TREE });
    for (const target of ['/skill/pdf/%zz', '/skill/%zz']) {
      const response = await raw(s, target);
      assert.equal(response.status, 400, target);
      const body = JSON.parse(response.body);
      assert.equal(body.code, 'InvalidPath');
      assert.equal(body.statusCode, 400);
      assert.equal(body.error, 'Bad Request');
    }
  });

  it('checks the skill name before the path', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const response = await raw(s, '/skill/nope/../../etc/passwd');
    assert.equal(response.status, 404);
    assert.deepEqual(
      JSON.parse(response.body),
      errorOf(404, 'SkillNotFound', 'Not Found', 'Unknown skill: nope\nNo close name (2 skills loaded)'),
    );
  });

  it('answers 404 FileNotFound and NotADirectory with their messages', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const missing = await getJson(`${s.base}/skill/pdf/missing.md`);
    assert.equal(missing.status, 404);
    assert.deepEqual(
      missing.body,
      errorOf(404, 'FileNotFound', 'Not Found', `File not found: ${s.cwd}/.musepi/skills/pdf/missing.md`),
    );
    const through = await getJson(`${s.base}/skill/pdf/SKILL.md/x`);
    assert.equal(through.status, 404);
    assert.deepEqual(
      through.body,
      errorOf(
        404,
        'NotADirectory',
        'Not Found',
        `Not a directory: a part of the path is a file: ${s.cwd}/.musepi/skills/pdf/SKILL.md/x`,
      ),
    );
  });

  it('xcsh: a directory or a path through a file is 404 FileNotFound; .. refused only when it climbs out', async (t) => {
    const s = await startServer(t, {
      settings: { profile: 'xcsh' },
      tree: {
        'work/.xcsh/skills/kit/SKILL.md': SK({ name: 'kit', description: 'd' }),
        'work/.xcsh/skills/kit/ref.md': '# ref\n',
        'work/.xcsh/skills/kit/sub/x.md': 'x',
        'work/.xcsh/skills/kit/empty': { dir: true as const },
      },
    });
    const kit = `${s.cwd}/.xcsh/skills/kit`;
    const notFound: Array<[string, string]> = [
      ['sub', 'sub'],
      ['sub/', 'sub/'],
      ['empty', 'empty'],
      ['SKILL.md/x', 'SKILL.md/x'],
      ['ref.md/a/b.md', 'ref.md/a/b.md'],
      ['sub/x.md%2F', 'sub/x.md/'],
      ['sub%5C..%5Cref.md', 'sub\\..\\ref.md'],
    ];
    for (const [path, shown] of notFound) {
      const answer = await raw(s, `/skill/kit/${path}`);
      assert.equal(answer.status, 404, path);
      assert.deepEqual(
        JSON.parse(answer.body),
        errorOf(404, 'FileNotFound', 'Not Found', `File not found: ${kit}/${shown}`),
        path,
      );
    }
    for (const path of ['sub/..%2Fref.md', 'sub%2F%2E%2E%2Fref.md']) {
      const answer = await raw(s, `/skill/kit/${path}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.body, '# ref\n');
      assert.equal(answer.headers['x-skill-source-path'], `${kit}/ref.md`);
    }
    const out = await raw(s, '/skill/kit/sub%2F..%2F..%2Fref.md');
    assert.equal(out.status, 400);
    assert.deepEqual(
      JSON.parse(out.body),
      errorOf(400, 'InvalidPath', 'Bad Request', 'Path traversal (..) is not allowed in skill:// URLs'),
    );
  });

  it('refuses a symlink out of the skill with 403 PathEscapesSkill, and follows it in follow mode', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const contained = await getJson(`${s.base}/skill/pdf/leak.txt`);
    assert.equal(contained.status, 403);
    assert.deepEqual(
      contained.body,
      errorOf(
        403,
        'PathEscapesSkill',
        'Forbidden',
        `Path resolves outside the skill directory: ${s.cwd}/.musepi/skills/pdf/leak.txt`,
      ),
    );
    const follow = await startServer(t, { tree: TREE, settings: { symlinks: 'follow' } });
    const followed = await fetch(`${follow.base}/skill/pdf/leak.txt`);
    assert.equal(followed.status, 200);
    assert.equal(await followed.text(), await readFile(`${follow.root}/outside.txt`, 'utf8'));
  });

  it('refuses a FIFO with 409 NotAFile', async (t) => {
    const s = await startServer(t, { tree: TREE });
    execFileSync('mkfifo', [`${s.cwd}/.musepi/skills/pdf/pipe`]);
    const { status, body } = await getJson(`${s.base}/skill/pdf/pipe`);
    assert.equal(status, 409);
    assert.deepEqual(
      body,
      errorOf(409, 'NotAFile', 'Conflict', 'skill:// URL must resolve to a file or directory: skill://pdf/pipe'),
    );
  });

  it('answers 404 SkillNotFound for an unknown skill and reads the workspace of ?cwd=', async (t) => {
    const s = await startServer(t, {
      tree: { ...TREE, 'other/.musepi/skills/tool/SKILL.md': SK({ description: 'Other tool' }) },
    });
    const unknown = await getJson(`${s.base}/skill/tool`);
    assert.deepEqual(
      unknown.body,
      errorOf(404, 'SkillNotFound', 'Not Found', 'Unknown skill: tool\nNo close name (2 skills loaded)'),
    );
    const other = await fetch(`${s.base}/skill/tool?cwd=${encodeURIComponent(`${s.root}/other`)}`);
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-skill-source-path'), `${s.root}/other/.musepi/skills/tool/SKILL.md`);
    assert.equal(await other.text(), SK({ description: 'Other tool' }));
  });
});
