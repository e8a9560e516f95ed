// Property: whatever request target is built from traversal pieces, encodings, separators and the names of real,
// linked and escaping entries, `GET /skill/{name}/{path…}` on the real app (raw requests over `node:net`) never
// answers with anything from outside the skill's real directory in contain mode, and every refusal is an error of
// docs/api.md. The secret outside carries a unique marker and a size no inside file has.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { realpath, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { apiErrorOf } from '../helpers/api-error.js';
import type { TestServer } from '../helpers/app-server.js';
import { type RawResponse, rawRequest } from '../helpers/raw-http.js';
import { type SuiteServer, startSuiteServer } from '../helpers/suite-server.js';
import { SK } from '../helpers/temp-tree.js';

const MARK = `outside-secret-${randomUUID()}`;
const SECRET = `${MARK}\n`.padEnd(4099, '#');

const TREE = {
  'outside/secret.txt': SECRET,
  'outside/relay': { symlink: 'secret.txt' },
  'outside/dir/inner.txt': SECRET,
  [`outside/dir/${MARK}.txt`]: SECRET,
  'etc/passwd': SECRET,
  'work/.musepi/skills/s/SKILL.md': SK({ name: 's', description: 'Property target' }),
  'work/.musepi/skills/s/a/inner.txt': 'inside a\n',
  'work/.musepi/skills/s/a/b/deep.md': '# Deep\n',
  'work/.musepi/skills/s/file-out': { symlink: '../../../../outside/secret.txt' },
  'work/.musepi/skills/s/dir-out': { symlink: '../../../../outside/dir' },
  'work/.musepi/skills/s/hop': { symlink: 'file-out' },
  'work/.musepi/skills/s/hop-out': { symlink: '../../../../outside/relay' },
  'work/.musepi/skills/s/a/up-out': { symlink: '../../../../../outside/secret.txt' },
  'work/.musepi/skills/s/dev-null': { symlink: '/dev/null' },
  'work/.musepi/skills/s/sibling': { symlink: '../s-evil/x.txt' },
  'work/.musepi/skills/s-evil/x.txt': SECRET,
  'work/.musepi/skills/s/in-link': { symlink: 'a/inner.txt' },
  'work/.musepi/skills/s/in-dir': { symlink: 'a' },
  'work/.musepi/skills/s/%2e%2e': 'a file literally named %2e%2e\n',
  'work/.musepi/skills/linked': { symlink: '../../../store/linked-real' },
  'store/linked-real/SKILL.md': SK({ name: 'linked', description: 'Linked' }),
  'store/linked-real/ref.md': '# Ref\n',
  'store/linked-real/escape': { symlink: '../beside.txt' },
  'store/beside.txt': SECRET,
};

const SEGMENTS = [
  '..',
  '.',
  '',
  '%2e%2e',
  '%2E%2e',
  '.%2e',
  '%2e.',
  '%2e',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '%00',
  '%25',
  '%2500',
  '%252e%252e',
  '%252f',
  '%c0%ae',
  '%',
  'C:',
  'c%3a',
  ';',
  'a',
  'b',
  'inner.txt',
  'deep.md',
  'SKILL.md',
  'ref.md',
  'in-link',
  'in-dir',
  'file-out',
  'dir-out',
  'hop',
  'hop-out',
  'up-out',
  'abs-out',
  'dev-null',
  'sibling',
  'escape',
  'fifo',
  'sock',
  'outside',
  'secret.txt',
  'etc',
  'passwd',
  's-evil',
  'x.txt',
  'n'.repeat(300),
];
const SEPARATORS = ['/', '/', '/', '//', '%2f', '%2F', '%5c', '\\'];
// Random percent-encoding fragments, for forms nobody listed.
const NOISE = fc.string({
  unit: fc.constantFrom('.', '/', '%', '2', 'e', 'E', 'f', '5', 'c', '0', '\\', 'a'),
  maxLength: 8,
});

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 1, arbitrary: fc.constantFrom(...SEGMENTS).map((name) => encodeURIComponent(name)) },
  { weight: 1, arbitrary: NOISE },
);
const relativePath = fc
  .array(fc.tuple(fc.constantFrom(...SEPARATORS), segment), { minLength: 0, maxLength: 7 })
  .map((parts) => parts.map(([separator, name], index) => (index === 0 ? name : separator + name)).join(''));
const request = fc.record({
  name: fc.constantFrom('s', 's', 's', 'linked', '..', '%2e%2e', 's%2f..', 'linked%2f..%2f..'),
  path: relativePath,
  json: fc.boolean(),
});

let suite: SuiteServer;
let s: TestServer;
let unixSocket: Server;
const realBases = new Map<string, string>();

before(async () => {
  suite = await startSuiteServer({ tree: TREE });
  s = suite.server;
  const base = `${s.cwd}/.musepi/skills/s`;
  await symlink(`${s.root}/outside/secret.txt`, `${base}/abs-out`);
  execFileSync('mkfifo', [`${base}/fifo`]);
  unixSocket = createServer();
  await new Promise<void>((resolve) => unixSocket.listen(`${base}/sock`, resolve));
  realBases.set('s', await realpath(base));
  realBases.set('linked', await realpath(`${s.cwd}/.musepi/skills/linked`));
});

after(async () => {
  await new Promise((resolve) => unixSocket.close(resolve));
  await suite.close();
});

function send(target: string, json: boolean): Promise<RawResponse> {
  const accept = json ? ['Accept: application/json'] : [];
  return rawRequest(s.port, [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...accept]);
}

function isInside(base: string, path: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

describe('GET /skill/{name}/{path…} in contain mode (property)', () => {
  it('never answers with anything outside the real skill directory, and refuses only with docs/api.md errors', async () => {
    const statuses: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(request, async ({ name, path, json }) => {
        const target = `/skill/${name}/${path}`;
        const response = await send(target, json);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        assert.ok(!response.body.includes(MARK), `${target}: the answer carries the outside secret`);
        for (const value of Object.values(response.headers)) assert.ok(!value.includes(MARK), `${target}: header`);
        if (response.status !== 200) {
          apiErrorOf(response, target);
          return;
        }
        assert.equal(response.headers['x-content-type-options'], 'nosniff', target);
        const header = response.headers['x-skill-source-path'];
        assert.ok(header !== undefined, `${target}: no X-Skill-Source-Path`);
        // The header is percent-encoded outside printable ASCII and for `%` itself.
        const source = decodeURIComponent(header);
        const realBase = realBases.get(decodeURIComponent(name));
        assert.ok(realBase !== undefined, `${target}: served a skill that does not exist`);
        const real = await realpath(source);
        assert.ok(isInside(realBase, real), `${target}: served ${real}, outside ${realBase}`);
        if (response.headers['content-type'] === 'application/json; charset=utf-8') {
          const { entries } = JSON.parse(response.body) as { entries: Array<{ size: number }> };
          assert.ok(!entries.some((entry) => entry.size === SECRET.length), `${target}: a listing shows the secret`);
        }
      }),
      {
        numRuns: 300,
        interruptAfterTimeLimit: 20_000,
        // Run first, whatever the seed: one target of each answer the property must see (served, escaping link
        // refused, malformed path refused), so the closing count below cannot depend on what was drawn.
        examples: [
          [{ name: 's', path: 'a/inner.txt', json: false }],
          [{ name: 's', path: 'file-out', json: false }],
          [{ name: 's', path: 'a/%00', json: true }],
        ],
      },
    );
    const health = await send('/health', false);
    assert.equal(health.status, 200);
    assert.equal(JSON.parse(health.body).status, 'ok');
    assert.ok(
      (statuses['200'] ?? 0) > 0 && (statuses['403'] ?? 0) > 0 && (statuses['400'] ?? 0) > 0,
      JSON.stringify(statuses),
    );
  });
});
