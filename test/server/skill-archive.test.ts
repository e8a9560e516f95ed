import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Parser } from 'tar';
import { startServer as startAppServer, type TestServerOptions } from '../helpers/app-server.js';
import { makeTempDir, SK } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

const execFileAsync = promisify(execFile);

const PDF = SK({ name: 'pdf', description: 'PDF tools' });
const LONG = `${'long-directory-name-'.repeat(6)}/file name with spaces é.txt`;
const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': PDF,
  'work/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
  'work/.musepi/skills/pdf/docs/guide.md': '# Guide\n',
  'work/.musepi/skills/pdf/docs/sub/deep.bin': Buffer.from([0, 1, 2, 255, 254]),
  'work/.musepi/skills/pdf/empty.txt': '',
  [`work/.musepi/skills/pdf/${LONG}`]: 'long path\n',
  'work/.musepi/skills/pdf/big.dat': Buffer.alloc(300_000, 7),
  'work/.musepi/skills/pdf/inside-link.md': { symlink: 'docs/guide.md' },
  'work/.musepi/skills/pdf/loop': { symlink: '.' },
  'work/.musepi/skills/pdf/leak.txt': { symlink: '../../../../outside.txt' },
  'work/.musepi/skills/pdf/leak-dir': { symlink: '../../../..' },
  'outside.txt': 'secret\n',
};

/** Every regular file below `dir` (links followed), relative path → bytes. */
async function treeOf(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  async function walk(current: string) {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.set(relative(dir, path), await readFile(path));
    }
  }
  await walk(dir);
  return out;
}

async function fetchArchive(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function extract(t: { after: (fn: () => Promise<void>) => void }, bytes: Buffer): Promise<string> {
  const { dir, cleanup } = await makeTempDir('skillsd-archive-');
  t.after(cleanup);
  execFileSync('tar', ['-xzf', '-', '-C', dir], { input: bytes });
  return dir;
}

describe('GET /skill/{name}?archive=tar.gz', () => {
  it('answers every file the file route serves, extracted byte for byte, in path order', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const skillDir = `${s.cwd}/.musepi/skills/pdf`;
    await chmod(`${skillDir}/scripts/run.sh`, 0o755);
    const { response, bytes } = await fetchArchive(`${s.base}/skill/pdf?archive=tar.gz`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/gzip');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="pdf.tar.gz"');
    assert.match(response.headers.get('etag') ?? '', /^"[0-9a-f]{64}"$/);

    const listing = execFileSync('tar', ['-tzf', '-'], { input: bytes }).toString().trim().split('\n');
    const expected = [
      'SKILL.md',
      'big.dat',
      'docs/guide.md',
      'docs/sub/deep.bin',
      'empty.txt',
      'inside-link.md',
      LONG,
      'scripts/run.sh',
    ];
    assert.deepEqual(listing, expected);

    const out = await extract(t, bytes);
    const got = await treeOf(out);
    assert.deepEqual([...got.keys()].sort(), [...expected].sort());
    for (const path of expected) {
      assert.deepEqual(got.get(path), await readFile(join(skillDir, path)), path);
    }
    assert.equal((await stat(join(out, 'scripts/run.sh'))).mode & 0o777, 0o755);
    assert.equal((await stat(join(out, 'docs/guide.md'))).mode & 0o777, 0o644);
    assert.equal(
      Math.floor((await stat(join(out, 'docs/guide.md'))).mtimeMs / 1000),
      Math.floor((await stat(join(skillDir, 'docs/guide.md'))).mtimeMs / 1000),
    );
  });

  it('gives the same bytes and tag again, 304 to the tag, and a new tag after an edit', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const url = `${s.base}/skill/pdf?archive=tar.gz`;
    const first = await fetchArchive(url);
    const second = await fetchArchive(url);
    assert.deepEqual(second.bytes, first.bytes);
    const etag = first.response.headers.get('etag') ?? '';
    assert.equal(second.response.headers.get('etag'), etag);

    const revalidated = await fetchArchive(url, { headers: { 'if-none-match': etag } });
    assert.equal(revalidated.response.status, 304);
    assert.equal(revalidated.bytes.length, 0);
    assert.equal(revalidated.response.headers.get('etag'), etag);

    await writeFile(`${s.cwd}/.musepi/skills/pdf/docs/guide.md`, '# Guide, edited\n');
    const edited = await fetchArchive(url, { headers: { 'if-none-match': etag } });
    assert.equal(edited.response.status, 200);
    assert.notEqual(edited.response.headers.get('etag'), etag);
    const out = await extract(t, edited.bytes);
    assert.equal(await readFile(join(out, 'docs/guide.md'), 'utf8'), '# Guide, edited\n');
  });

  it('keeps owner-only files owner-only: 0600 stays 0600 and 0700 stays 0700 in the tar headers', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': PDF,
        'work/.musepi/skills/pdf/private.txt': 'owner only\n',
        'work/.musepi/skills/pdf/read-only.txt': 'owner may read\n',
        'work/.musepi/skills/pdf/private.sh': '#!/bin/sh\n',
        'work/.musepi/skills/pdf/shared.txt': 'group may read\n',
        'work/.musepi/skills/pdf/run.sh': '#!/bin/sh\n',
      },
    });
    const skillDir = `${s.cwd}/.musepi/skills/pdf`;
    await chmod(`${skillDir}/SKILL.md`, 0o644);
    await chmod(`${skillDir}/private.txt`, 0o600);
    await chmod(`${skillDir}/read-only.txt`, 0o400);
    await chmod(`${skillDir}/private.sh`, 0o700);
    await chmod(`${skillDir}/shared.txt`, 0o640);
    await chmod(`${skillDir}/run.sh`, 0o750);
    const { response, bytes } = await fetchArchive(`${s.base}/skill/pdf?archive=tar.gz`);
    assert.equal(response.status, 200);
    // The headers as written, read with the tar package (not as an extraction under a umask would leave them).
    const modes: Record<string, string> = {};
    const parser = new Parser({
      onReadEntry: (entry) => {
        modes[entry.path] = (entry.mode ?? 0).toString(8);
        entry.resume();
      },
    });
    await new Promise<void>((resolve, reject) => {
      parser.on('end', resolve);
      parser.on('error', reject);
      parser.end(bytes);
    });
    assert.deepEqual(modes, {
      'SKILL.md': '644',
      'private.sh': '700',
      'private.txt': '600',
      'read-only.txt': '600',
      'run.sh': '755',
      'shared.txt': '644',
    });
    // A chmod changes the archive, so it changes the tag too.
    const etag = response.headers.get('etag') ?? '';
    await chmod(`${skillDir}/shared.txt`, 0o600);
    const again = await fetchArchive(`${s.base}/skill/pdf?archive=tar.gz`, { headers: { 'if-none-match': etag } });
    assert.equal(again.response.status, 200);
  });

  it('answers HEAD with the headers only', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const get = await fetchArchive(`${s.base}/skill/pdf?archive=tar.gz`);
    const head = await fetchArchive(`${s.base}/skill/pdf?archive=tar.gz`, { method: 'HEAD' });
    assert.equal(head.response.status, 200);
    assert.equal(head.bytes.length, 0);
    assert.equal(head.response.headers.get('etag'), get.response.headers.get('etag'));
  });

  it('refuses what the file route refuses', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const unknown = await fetch(`${s.base}/skill/nope?archive=tar.gz`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), {
      statusCode: 404,
      code: 'SkillNotFound',
      error: 'Not Found',
      message: 'Unknown skill: nope\nNo close name (1 skill loaded)',
    });
    const below = await fetch(`${s.base}/skill/pdf/docs?archive=tar.gz`);
    assert.equal(below.status, 400);
    assert.equal(
      ((await below.json()) as { message: string }).message,
      'archive is only served for the skill itself: /skill/<name>',
    );
    const format = await fetch(`${s.base}/skill/pdf?archive=zip`);
    assert.equal(format.status, 400);
    assert.equal(((await format.json()) as { code: string }).code, 'BadRequest');
  });

  it('follows links out of the skill in follow mode, as the file route does', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': PDF,
        'work/.musepi/skills/pdf/leak.txt': { symlink: '../../../../outside.txt' },
        'outside.txt': 'secret\n',
      },
      settings: { symlinks: 'follow' },
    });
    const { bytes } = await fetchArchive(`${s.base}/skill/pdf?archive=tar.gz`);
    const out = await extract(t, bytes);
    assert.equal(await readFile(join(out, 'leak.txt'), 'utf8'), 'secret\n');
  });
});

describe("the README's archive line", () => {
  it('unpacks a skill into ./pdf in an empty directory', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const lines = readme.split('\n').filter((line) => line.includes('/skill/pdf?archive=tar.gz'));
    assert.equal(lines.length, 1, lines.join('\n'));
    const command = (lines[0] as string).replaceAll('localhost:7420', s.base.replace('http://', ''));
    const { dir, cleanup } = await makeTempDir('skillsd-readme-');
    t.after(cleanup);
    // Asynchronously: the server answering curl runs in this very process.
    await execFileAsync('sh', ['-ec', command], { cwd: dir });
    assert.equal(await readFile(join(dir, 'pdf/SKILL.md'), 'utf8'), PDF);
    assert.equal(await readFile(join(dir, 'pdf/scripts/run.sh'), 'utf8'), '#!/bin/sh\necho hi\n');
  });
});
