// Attacks on `GET /skill/{name}/{path…}` (docs/api.md), sent byte for byte over `node:net` to the real app: fetch and
// inject() normalise `..` and `//` away (docs/platform-notes.md §1), so only raw request targets test what the route
// really receives. Outside the skill sits a secret with a unique marker; no answer may ever carry it.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { parseSettings } from '../../src/discovery/settings.js';
import { apiErrorOf, assertApiError } from '../helpers/api-error.js';
import type { TestServer } from '../helpers/app-server.js';
import { type RawResponse, rawRequest } from '../helpers/raw-http.js';
import { type SuiteServer, startSuiteServer } from '../helpers/suite-server.js';
import { SK } from '../helpers/temp-tree.js';

const MARK = `outside-secret-${randomUUID()}`;
// A size no file inside the skill has, so a directory listing cannot leak it either.
const SECRET = `${MARK}\n`.padEnd(4099, '#');
const INSIDE = 'inside a\n';
const SKILL_S = SK({ name: 's', description: 'Attack target' });
const SKILL_LINKED = SK({ name: 'linked', description: 'A skill directory that is a symlink' });

const TRAVERSAL = 'Path traversal (..) is not allowed in skill:// URLs';
const ABSOLUTE = 'Absolute paths are not allowed in skill:// URLs';
const NUL = 'NUL bytes are not allowed in skill:// URLs';
const UNKNOWN_NOTE = 'No close name (2 skills loaded)';

// The skill `s` lives at <root>/work/.musepi/skills/s: `../../../../` from there is the temp root.
const TREE = {
  'outside/secret.txt': SECRET,
  'outside/relay': { symlink: 'secret.txt' },
  'outside/loop': { symlink: 'loop' },
  'outside/dir/inner.txt': SECRET,
  'outside/dir/f.txt': SECRET,
  [`outside/dir/${MARK}.txt`]: SECRET,
  'etc/passwd': SECRET,
  'work/.musepi/skills/s/SKILL.md': SKILL_S,
  'work/.musepi/skills/s/a/inner.txt': INSIDE,
  'work/.musepi/skills/s/file-out': { symlink: '../../../../outside/secret.txt' },
  'work/.musepi/skills/s/dir-out': { symlink: '../../../../outside/dir' },
  'work/.musepi/skills/s/hop': { symlink: 'file-out' },
  'work/.musepi/skills/s/hop-out': { symlink: '../../../../outside/relay' },
  'work/.musepi/skills/s/dev-null': { symlink: '/dev/null' },
  // `<skills>/s-evil` starts with `<skills>/s`: containment must compare whole path segments.
  'work/.musepi/skills/s/sibling': { symlink: '../s-evil/x.txt' },
  'work/.musepi/skills/s-evil/x.txt': SECRET,
  'work/.musepi/skills/s/in-link': { symlink: 'a/inner.txt' },
  'work/.musepi/skills/s/in-dir': { symlink: 'a' },
  'work/.musepi/skills/s/fifo-link': { symlink: 'fifo' },
  // Dangling links: whether their target exists outside must not show (403 either way), inside it is a plain 404.
  'work/.musepi/skills/s/dangling-in': { symlink: 'no-such-file' },
  'work/.musepi/skills/s/dangling-out': { symlink: '../../../../outside/no-such-file' },
  'work/.musepi/skills/s/dangling-dir-out': { symlink: '../../../../outside/no-such-dir' },
  'work/.musepi/skills/s/dangling-hop': { symlink: 'dangling-out' },
  'work/.musepi/skills/s/dangling-abs': { symlink: `/no-such-dir-${MARK}/x` },
  'work/.musepi/skills/s/loop-in': { symlink: 'loop-in' },
  'work/.musepi/skills/s/loop-out': { symlink: '../../../../outside/loop' },
  'work/.musepi/skills/s/flip-dir/f.txt': INSIDE,
  'work/.musepi/skills/linked': { symlink: '../../../store/linked-real' },
  'store/linked-real/SKILL.md': SKILL_LINKED,
  'store/linked-real/ref.md': '# Ref\n',
  'store/linked-real/escape': { symlink: '../beside.txt' },
  'store/linked-real/round-trip': { symlink: '../linked-real/ref.md' },
  'store/beside.txt': SECRET,
};

let suite: SuiteServer;
let s: TestServer;
let base: string;
let unixSocket: Server;

before(async () => {
  suite = await startSuiteServer({ tree: TREE });
  s = suite.server;
  base = `${s.cwd}/.musepi/skills/s`;
  await symlink(`${s.root}/outside/secret.txt`, `${base}/abs-out`);
  execFileSync('mkfifo', [`${base}/fifo`]);
  unixSocket = createServer();
  await new Promise<void>((resolve) => unixSocket.listen(`${base}/sock`, resolve));
});

after(async () => {
  await new Promise((resolve) => unixSocket.close(resolve));
  await suite.close();
});

function send(target: string, method = 'GET', headers: string[] = []): Promise<RawResponse> {
  return rawRequest(s.port, [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers]);
}

function assertNoSecret(response: RawResponse, label: string): void {
  assert.ok(!response.body.includes(MARK), `${label}: the answer carries the outside secret`);
  for (const value of Object.values(response.headers)) assert.ok(!value.includes(MARK), `${label}: in a header`);
}

async function expectError(target: string, status: number, code: string, message: string): Promise<void> {
  const response = await send(target);
  assertNoSecret(response, target);
  assertApiError(response, status, code, message, target);
}

async function expectFile(target: string, content: string, sourcePath: string): Promise<RawResponse> {
  const response = await send(target);
  assertNoSecret(response, target);
  assert.equal(response.status, 200, `${target}: ${response.body.slice(0, 200)}`);
  assert.equal(response.body, content, target);
  assert.equal(response.headers['x-skill-source-path'], sourcePath, target);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', target);
  return response;
}

describe('traversal in the raw request target', () => {
  const refused: Array<[string, string]> = [
    ['/skill/s/../../../../outside/secret.txt', TRAVERSAL],
    ['/skill/s/../../etc/passwd', TRAVERSAL],
    ['/skill/s/a/../../x', TRAVERSAL],
    ['/skill/s/a/..', TRAVERSAL],
    ['/skill/s/a/../SKILL.md', TRAVERSAL],
    ['/skill/s/%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside/secret.txt', TRAVERSAL],
    ['/skill/s/%2E%2E/%2E%2E/%2E%2E/%2E%2E/outside/secret.txt', TRAVERSAL],
    ['/skill/s/.%2e/.%2e/.%2e/.%2e/outside/secret.txt', TRAVERSAL],
    ['/skill/s/%2e./x', TRAVERSAL],
    ['/skill/s/a/%2e%2e/%2e%2e/x', TRAVERSAL],
    ['/skill/s/..%2f..%2f..%2f..%2foutside%2fsecret.txt', TRAVERSAL],
    ['/skill/s/..%2F..%2F..%2F..%2Foutside%2Fsecret.txt', TRAVERSAL],
    ['/skill/s/..%5c..%5c..%5c..%5coutside%5csecret.txt', TRAVERSAL],
    ['/skill/s/..%5C..%5Coutside', TRAVERSAL],
    ['/skill/s/%2e%2e%5c%2e%2e%5coutside%5csecret.txt', TRAVERSAL],
    ['/skill/s/a%5c..%5c..%5cx', TRAVERSAL],
    ['/skill/s/..\\..\\..\\..\\outside\\secret.txt', TRAVERSAL],
    ['/skill/s/a\\..\\..\\x', TRAVERSAL],
    ['/skill/s/..#/x', TRAVERSAL],
    ['http://127.0.0.1/skill/s/../../../../outside/secret.txt', TRAVERSAL],
    [`/skill/s/${'../'.repeat(5000)}etc/passwd`, TRAVERSAL],
    [`/skill/s/${'%2e%2e/'.repeat(2000)}etc/passwd`, TRAVERSAL],
    ['/skill/s/SKILL.md%00.txt', NUL],
    ['/skill/s/..%00', NUL],
    ['/skill/s/%00/../x', NUL],
    ['/skill/s//etc/passwd', ABSOLUTE],
    ['/skill/s/%2Fetc%2Fpasswd', ABSOLUTE],
    ['/skill/s/%2fetc/passwd', ABSOLUTE],
    ['/skill/s/%5cetc%5cpasswd', ABSOLUTE],
    ['/skill/s/C:%5cWindows%5cwin.ini', ABSOLUTE],
    ['/skill/s/C:/Windows/win.ini', ABSOLUTE],
    ['/skill/s/c%3a%5cx', ABSOLUTE],
    ['/skill/s/%5c%5cserver%5cshare%5cx', ABSOLUTE],
    ['/skill/s/\\\\server\\share\\x', ABSOLUTE],
  ];
  for (const [target, message] of refused) {
    it(`refuses ${target.length > 80 ? `${target.slice(0, 60)}… (${target.length} chars)` : target}`, async () => {
      await expectError(target, 400, 'InvalidPath', message);
    });
  }

  it('reads the path before the query string', async () => {
    await expectError(
      `/skill/s/..%2f..%2fetc%2fpasswd?cwd=${encodeURIComponent(s.cwd)}`,
      400,
      'InvalidPath',
      TRAVERSAL,
    );
    await expectError(`/skill/s/..?cwd=${encodeURIComponent(s.cwd)}&x=/a/b`, 400, 'InvalidPath', TRAVERSAL);
  });

  it('decodes once: %252e%252e%252f and %2500 name literal files, which do not exist', async () => {
    await expectError(
      '/skill/s/%252e%252e%252f%252e%252e%252fetc%252fpasswd',
      404,
      'FileNotFound',
      `File not found: ${base}/%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
    );
    await expectError('/skill/s/%252e%252e/x', 404, 'FileNotFound', `File not found: ${base}/%2e%2e/x`);
    await expectError('/skill/s/%2500', 404, 'FileNotFound', `File not found: ${base}/%00`);
  });

  it('refuses overlong UTF-8 dots and slashes as malformed encoding, never as ..', async () => {
    for (const target of [
      '/skill/s/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/outside/secret.txt',
      '/skill/s/..%c0%af..%c0%afetc%c0%afpasswd',
      '/skill/s/%e0%80%ae%e0%80%ae/x',
      '/skill/s/%c1%9c..',
    ]) {
      await expectError(target, 400, 'InvalidPath', `Malformed percent-encoding in URL: ${target}`);
    }
  });

  it('reads .. in the skill name position as a skill name, which no skill has', async () => {
    const cases: Array<[string, string]> = [
      ['/skill/..%2f..%2fetc/passwd', '../../etc'],
      ['/skill/../etc/passwd', '..'],
      ['/skill/%2e%2e/%2e%2e/etc/passwd', '..'],
      ['/skill/..%5c..%5cetc/passwd', '..\\..\\etc'],
      ['/skill/%2Fetc%2Fpasswd', '/etc/passwd'],
      ['/skill/s%2f..%2f..%2f..%2f..%2foutside/secret.txt', 's/../../../../outside'],
    ];
    for (const [target, name] of cases) {
      await expectError(target, 404, 'SkillNotFound', `Unknown skill: ${name}\n${UNKNOWN_NOTE}`);
    }
    await expectError('/skill/s%00/SKILL.md', 400, 'InvalidPath', NUL);
  });

  it('keeps single dots and empty segments inside the skill, even 5,000 of them', async () => {
    await expectFile(`/skill/s/${'./'.repeat(5000)}a/inner.txt`, INSIDE, `${base}/a/inner.txt`);
    await expectFile('/skill/s/a//inner.txt', INSIDE, `${base}/a/inner.txt`);
    const deep = `${'a/'.repeat(63)}x`;
    await expectError(`/skill/s/${deep}`, 404, 'FileNotFound', `File not found: ${base}/${deep}`);
    // Deeper than 64 directories: refused before any lookup (each one costs one).
    await expectError(
      `/skill/s/${'a/'.repeat(5000)}x`,
      400,
      'InvalidPath',
      'Paths of more than 64 segments are not allowed in skill:// URLs',
    );
  });

  it('refuses a name longer than the file system allows with 400 InvalidPath', async () => {
    const long = 'n'.repeat(3000);
    await expectError(`/skill/s/${long}`, 400, 'InvalidPath', `Path too long: ${base}/${long}`);
  });

  it('answers a 64 KB request target with a JSON error and stays up', async () => {
    const response = await send(`/skill/s/${'a'.repeat(64 * 1024)}`);
    assertApiError(
      response,
      431,
      'BadRequest',
      'The request line and headers together exceed the 16384 bytes the server reads',
      '64 KB target',
    );
    const health = await send('/health');
    assert.equal(health.status, 200);
  });

  it('answers bytes the HTTP parser refuses with a JSON error', async () => {
    for (const target of ['/skill/s/a\0b', '/skill/s/a\u0001b', '/skill/s/a b/x', '/skill/s/\u00fc']) {
      const response = await send(target);
      assertApiError(response, 400, 'BadRequest', 'The request could not be parsed as HTTP', JSON.stringify(target));
    }
  });
});

describe('symlinks in contain mode (the default)', () => {
  const escaping: Array<[string, string]> = [
    ['/skill/s/file-out', 'file-out'],
    ['/skill/s/abs-out', 'abs-out'],
    ['/skill/s/dir-out', 'dir-out'],
    ['/skill/s/dir-out/', 'dir-out/'],
    ['/skill/s/dir-out/inner.txt', 'dir-out/inner.txt'],
    ['/skill/s/dir-out/missing.txt', 'dir-out/missing.txt'],
    ['/skill/s/hop', 'hop'],
    ['/skill/s/hop-out', 'hop-out'],
    ['/skill/s/sibling', 'sibling'],
    ['/skill/s/dev-null', 'dev-null'],
    ['/skill/s/dangling-out', 'dangling-out'],
    ['/skill/s/dangling-dir-out/x', 'dangling-dir-out/x'],
    ['/skill/s/dangling-hop', 'dangling-hop'],
    ['/skill/s/dangling-abs', 'dangling-abs'],
    ['/skill/s/loop-out', 'loop-out'],
    ['/skill/s/file%2Dout', 'file-out'],
    ['/skill/s/dir-out%2Finner.txt', 'dir-out/inner.txt'],
  ];
  for (const [target, relative] of escaping) {
    it(`refuses ${target} with 403 PathEscapesSkill`, async () => {
      await expectError(
        target,
        403,
        'PathEscapesSkill',
        `Path resolves outside the skill directory: ${base}/${relative}`,
      );
      const head = await send(target, 'HEAD');
      assert.equal(head.status, 403);
      assert.equal(head.body, '');
    });
  }

  it('measures containment against the real directory of a symlinked skill', async () => {
    const linked = `${s.cwd}/.musepi/skills/linked`;
    await expectFile('/skill/linked', SKILL_LINKED, `${linked}/SKILL.md`);
    await expectFile('/skill/linked/ref.md', '# Ref\n', `${linked}/ref.md`);
    await expectFile('/skill/linked/round-trip', '# Ref\n', `${linked}/round-trip`);
    await expectError(
      '/skill/linked/escape',
      403,
      'PathEscapesSkill',
      `Path resolves outside the skill directory: ${linked}/escape`,
    );
  });

  it('serves links that stay inside the skill', async () => {
    await expectFile('/skill/s/in-link', INSIDE, `${base}/in-link`);
    await expectFile('/skill/s/in-dir/inner.txt', INSIDE, `${base}/in-dir/inner.txt`);
  });

  it('answers a dangling link that stays inside with 404 FileNotFound, and a loop inside with 409 NotAFile', async () => {
    await expectError('/skill/s/dangling-in', 404, 'FileNotFound', `File not found: ${base}/dangling-in`);
    await expectError(
      '/skill/s/loop-in',
      409,
      'NotAFile',
      'skill:// URL must resolve to a file or directory: skill://s/loop-in',
    );
  });

  it('lists only what the file route serves, so a listing reveals nothing outside and names nothing refused', async () => {
    const response = await send('/skill/s/.', 'GET', ['Accept: application/json']);
    assertNoSecret(response, 'listing');
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    const file = (name: string, size = 0) => ({ name, type: 'file', size });
    const directory = (name: string) => ({ name, type: 'directory', size: 0 });
    const { entries } = JSON.parse(response.body) as { entries: { name: string; type: string }[] };
    // Escaping, dangling and looping links, the FIFO, the socket and the device are left out.
    assert.deepEqual(entries, [
      directory('a'),
      directory('flip-dir'),
      directory('in-dir'),
      file('in-link', INSIDE.length),
      file('SKILL.md', Buffer.byteLength(SKILL_S)),
    ]);
    for (const entry of entries.filter((each) => each.type === 'file')) {
      assert.equal((await send(`/skill/s/${entry.name}`)).status, 200, entry.name);
    }
    const text = await send('/skill/s/?list');
    assert.equal(text.body, 'a/\nflip-dir/\nin-dir/\nin-link\nSKILL.md\n');
  });
});

describe('symlinks in follow mode (the reference behaviour)', () => {
  before(() => s.registry.applySettings(parseSettings({ symlinks: 'follow' }), 'config.json'));
  after(() => s.registry.applySettings(parseSettings({}), 'config.json'));

  it('serves escaping links', async () => {
    for (const relative of ['file-out', 'abs-out', 'hop', 'hop-out', 'dir-out/inner.txt', 'sibling']) {
      const response = await send(`/skill/s/${relative}`);
      assert.equal(response.status, 200, relative);
      assert.equal(response.body, SECRET, relative);
      assert.equal(response.headers['x-skill-source-path'], `${base}/${relative}`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    }
    const listing = await send('/skill/s/dir-out');
    assert.equal(listing.status, 200);
    assert.equal(listing.body, `f.txt\ninner.txt\n${MARK}.txt\n`);
  });

  it('answers dangling links with 404 FileNotFound', async () => {
    await expectError('/skill/s/dangling-out', 404, 'FileNotFound', `File not found: ${base}/dangling-out`);
    await expectError('/skill/s/dangling-dir-out/x', 404, 'FileNotFound', `File not found: ${base}/dangling-dir-out/x`);
  });

  it('still refuses traversal and devices', async () => {
    await expectError('/skill/s/../../../../outside/secret.txt', 400, 'InvalidPath', TRAVERSAL);
    await expectError('/skill/s/..%2f..%2f..%2f..%2foutside%2fsecret.txt', 400, 'InvalidPath', TRAVERSAL);
    await expectError(
      '/skill/s/dev-null',
      409,
      'NotAFile',
      'skill:// URL must resolve to a file or directory: skill://s/dev-null',
    );
  });
});

describe('special files', () => {
  for (const relative of ['fifo', 'fifo-link', 'sock']) {
    it(`refuses ${relative} with 409 NotAFile at once`, async () => {
      await expectError(
        `/skill/s/${relative}`,
        409,
        'NotAFile',
        `skill:// URL must resolve to a file or directory: skill://s/${relative}`,
      );
      const head = await send(`/skill/s/${relative}`, 'HEAD');
      assert.equal(head.status, 409);
    });
  }
});

describe('headers', () => {
  it('sends nosniff with every file and listing, for GET and HEAD', async () => {
    for (const target of [
      '/skill/s',
      '/skill/s/',
      '/skill/s/a/inner.txt',
      '/skill/s/in-link',
      '/skill/s/a',
      '/skill/s/.',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const response = await send(target, method);
        assert.equal(response.status, 200, `${method} ${target}`);
        assert.equal(response.headers['x-content-type-options'], 'nosniff', `${method} ${target}`);
      }
    }
  });
});

/**
 * Flips a path between an inside and an escaping form in a tight loop on another thread, so the file system changes
 * while the server checks and opens (a check-to-use race). Resolves once it flips, to a stop function that resolves
 * to the flip count.
 */
async function startFlipping(
  kind: 'file' | 'directory',
  path: string,
  outside: string,
): Promise<() => Promise<number>> {
  const control = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { kind, path, outside, content, control } = workerData;
const park = path + '.parked', link = path + '.link';
let flips = 0;
if (kind === 'directory') fs.symlinkSync(outside, link);
while (Atomics.load(control, 0) === 0) {
  if (kind === 'file') {
    fs.writeFileSync(park, content);
    fs.renameSync(park, path);
    fs.symlinkSync(outside, link);
    fs.renameSync(link, path);
  } else {
    fs.renameSync(path, park);
    fs.renameSync(link, path);
    fs.renameSync(path, link);
    fs.renameSync(park, path);
  }
  flips += 2;
  if (flips === 2) parentPort.postMessage('flipping');
}
if (kind === 'file') { fs.rmSync(path); fs.writeFileSync(path, content); } else fs.rmSync(link);
Atomics.store(control, 1, flips);`,
    { eval: true, workerData: { kind, path, outside, content: INSIDE, control } },
  );
  const exited = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  await Promise.race([once(worker, 'message'), exited]);
  return async () => {
    Atomics.store(control, 0, 1);
    await exited;
    return Atomics.load(control, 1);
  };
}

/** Sends `count` requests, `parallel` at a time, cycling through `targets`. */
async function hammer(
  targets: string[][],
  count: number,
  parallel: number,
  check: (r: RawResponse, label: string) => void,
) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const [target = '', ...headers] = targets[next % targets.length] ?? [];
      next += 1;
      check(await send(target, 'GET', headers), target);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
}

describe('a path swapped between check and use', () => {
  const listingJson = JSON.stringify({ entries: [{ name: 'f.txt', type: 'file', size: INSIDE.length }] });
  const races: Array<{
    title: string;
    kind: 'file' | 'directory';
    flip: string;
    outside: string;
    targets: string[][];
    bodies: string[];
  }> = [
    {
      title: 'a file flipped with an escaping link',
      kind: 'file',
      flip: 'flip',
      outside: 'outside/secret.txt',
      targets: [['/skill/s/flip']],
      bodies: [INSIDE],
    },
    {
      title: 'a file read through a directory flipped with an escaping link',
      kind: 'directory',
      flip: 'flip-dir',
      outside: 'outside/dir',
      targets: [['/skill/s/flip-dir/f.txt']],
      bodies: [INSIDE],
    },
    {
      title: 'a directory listed while it flips with an escaping link',
      kind: 'directory',
      flip: 'flip-dir',
      outside: 'outside/dir',
      targets: [['/skill/s/flip-dir'], ['/skill/s/flip-dir', 'Accept: application/json']],
      bodies: ['f.txt\n', listingJson],
    },
  ];
  for (const race of races) {
    it(`never serves the outside through ${race.title}`, async (t) => {
      const stop = await startFlipping(race.kind, `${base}/${race.flip}`, `${s.root}/${race.outside}`);
      const seen: Record<string, number> = {};
      try {
        await hammer(race.targets, 400, 6, (response, label) => {
          assertNoSecret(response, label);
          if (response.status === 200) {
            assert.ok(race.bodies.includes(response.body), `${label}: ${response.body.slice(0, 200)}`);
            seen['200'] = (seen['200'] ?? 0) + 1;
          } else {
            // Missing while a rename is under way, or refused: nothing else.
            const { code } = apiErrorOf(response, label);
            assert.ok(['PathEscapesSkill', 'FileNotFound'].includes(code), `${label}: ${response.body}`);
            seen[code] = (seen[code] ?? 0) + 1;
          }
        });
      } finally {
        t.diagnostic(`flips: ${await stop()}, answers: ${JSON.stringify(seen)}`);
      }
    });
  }
});
