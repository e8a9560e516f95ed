// The HTTP contract of docs/api.md against the built daemon (`node dist/cli.js serve`) over real sockets: every endpoint
// and every error code a client can reach, with exact bodies and headers. One daemon serves the whole file; nothing
// here changes its files, so the answers stay at generation 1.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { requestRawPath } from '../helpers/http-raw-path.js';
import { rawRequest } from '../helpers/raw-http.js';
import { type RunningDaemon, startDaemon } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const run = promisify(execFile);
const JSON_TYPE = 'application/json; charset=utf-8';
const PDF = SK({ name: 'pdf', description: 'PDF tools' });
const OPENAPI = new URL('../../openapi/openapi.json', import.meta.url);

// biome-ignore lint/suspicious/noExplicitAny: parsed answers are compared whole with deepEqual
type Json = any;

function errorBody(statusCode: number, code: string, error: string, message: string) {
  return { statusCode, code, error, message };
}

/**
 * The fields of `GET /skills` that docs/api.md fixes. The daemon may add its own (docs/api.md leaves the rest to design), so
 * answers are compared on these, exactly, and must hold every one of them.
 */
function skillsFields(body: Json): Json {
  const keys = ['generation', 'profile', 'cwd', 'skills', 'warnings', 'collisions'];
  for (const key of keys) assert.ok(key in body, `GET /skills answers "${key}"`);
  return Object.fromEntries(keys.map((key) => [key, body[key]]));
}

async function getJson(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

describe('skillsd HTTP contract (built daemon, real sockets)', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let daemon: RunningDaemon;
  let home: string;
  let project: string;
  let base: string;
  let pdfDir: string;

  const source = (id: string, providerName: string, path: string) => {
    const [provider, level] = id.split(':');
    return { id, provider, providerName, level, path };
  };
  const skill = (
    name: string,
    description: string,
    dir: string,
    id: string,
    providerName: string,
    frontmatter: Record<string, unknown>,
    hide = false,
  ) => ({
    name,
    description,
    filePath: `${dir}/SKILL.md`,
    baseDir: dir,
    hide,
    source: source(id, providerName, `${dir}/SKILL.md`),
    frontmatter,
  });
  let skills: Json[];
  let collision: Json;
  let warnings: Json[];

  before(async () => {
    ({ dir: root, cleanup } = await makeTempDir('skillsd-e2e-api-'));
    home = `${root}/home`;
    project = `${root}/project`;
    pdfDir = `${project}/.musepi/skills/pdf`;
    await writeTree(root, {
      'home/.claude/skills/git-helper/SKILL.md': SK({ description: 'Git ops' }),
      'project/.git': { dir: true },
      'project/AGENTS.md': '# Project rules\n',
      'project/.musepi/skills/pdf/SKILL.md': PDF,
      'project/.musepi/skills/pdf/scripts/run.sh': '#!/bin/sh\necho hi\n',
      'project/.musepi/skills/pdf/docs/guide.md': '# Guide\n',
      'project/.musepi/skills/pdf/docs/notes.txt': 'notes',
      'project/.musepi/skills/pdf/docs/sub/deep.md': 'deep',
      'project/.musepi/skills/pdf/empty': { dir: true },
      'project/.musepi/skills/pdf/leak.txt': { symlink: '../../../../secret.txt' },
      'project/.musepi/skills/quiet/SKILL.md': SK({ description: 'Hidden helper', hide: true }),
      'project/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'Claude PDF' }),
      'project/.agents/skills/Beta/SKILL.md': SK({ description: 'Beta things' }),
      // A skills directory that is a file: the reference warning of docs/discovery.md §3.
      'project/.codex/skills': 'not a directory',
      'secret.txt': 'secret\n',
    });
    execFileSync('mkfifo', [`${pdfDir}/pipe`]);
    skills = [
      skill('Beta', 'Beta things', `${project}/.agents/skills/Beta`, 'agents:project', 'Agent Dirs (.agent/.agents)', {
        description: 'Beta things',
      }),
      skill('git-helper', 'Git ops', `${home}/.claude/skills/git-helper`, 'claude:user', 'Claude Code', {
        description: 'Git ops',
      }),
      skill('pdf', 'PDF tools', pdfDir, 'native:project', 'MusePi', { name: 'pdf', description: 'PDF tools' }),
      skill(
        'quiet',
        'Hidden helper',
        `${project}/.musepi/skills/quiet`,
        'native:project',
        'MusePi',
        { description: 'Hidden helper', hide: true },
        true,
      ),
    ];
    const claudePdf = `${project}/.claude/skills/pdf/SKILL.md`;
    collision = {
      name: 'pdf',
      winner: { filePath: `${pdfDir}/SKILL.md`, source: source('native:project', 'MusePi', `${pdfDir}/SKILL.md`) },
      shadowed: [
        { filePath: claudePdf, source: source('claude:project', 'Claude Code', claudePdf), reason: 'precedence' },
      ],
    };
    const codex = `${project}/.codex/skills`;
    warnings = [
      {
        skillPath: '',
        message: `[OpenAI Codex] Failed to read skills directory: ${codex} (Error: ENOTDIR: not a directory, scandir '${codex}')`,
      },
    ];
    daemon = await startDaemon(['serve', '--port', '0', '--cwd', project], { home });
    base = daemon.url;
  });
  after(async () => {
    await daemon?.process.kill();
    await cleanup?.();
  });

  describe('GET /skills', () => {
    it('answers every loaded skill, the warnings and the collisions, in docs/discovery.md order', async () => {
      const { status, headers, body } = await getJson(`${base}/skills`);
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(skillsFields(body), {
        generation: 1,
        profile: 'musepi',
        cwd: project,
        skills,
        warnings,
        collisions: [collision],
      });
    });

    it('answers the same JSON to curl -s', async () => {
      const { stdout } = await run('curl', ['-s', '--max-time', '60', `${base}/skills`]);
      assert.deepEqual(skillsFields(JSON.parse(stdout)), {
        generation: 1,
        profile: 'musepi',
        cwd: project,
        skills,
        warnings,
        collisions: [collision],
      });
    });

    it('filters skills (and the collisions of the skills kept) by hidden, provider, level and q without changing generation', async () => {
      const cases: Array<[string, string[]]> = [
        ['hidden=false', ['Beta', 'git-helper', 'pdf']],
        ['hidden=true', ['Beta', 'git-helper', 'pdf', 'quiet']],
        ['provider=native', ['pdf', 'quiet']],
        ['provider=claude:user', ['git-helper']],
        ['level=user', ['git-helper']],
        ['level=project', ['Beta', 'pdf', 'quiet']],
        ['q=pdf', ['pdf']],
        ['q=THINGS', ['Beta']],
        ['q=T&level=project&hidden=false', ['Beta', 'pdf']],
        ['q=nothing-matches', []],
      ];
      for (const [query, names] of cases) {
        const { status, body } = await getJson(`${base}/skills?${query}`);
        assert.equal(status, 200, query);
        assert.deepEqual(
          body.skills.map((entry: { name: string }) => entry.name),
          names,
          query,
        );
        assert.equal(body.generation, 1, query);
        // A collision stays when the skill loaded under its name passes the filters (docs/api.md "GET /skills").
        assert.deepEqual(body.collisions, names.includes(collision.name) ? [collision] : [], query);
        assert.deepEqual(body.warnings, warnings, query);
      }
    });

    it('tags every answer, answers 304 without a body to the current tag, and tags filters apart', async () => {
      const first = await fetch(`${base}/skills`);
      await first.text();
      const etag = first.headers.get('etag');
      assert.match(etag ?? '', /^"1-[0-9a-f]+"$/);
      const cached = await fetch(`${base}/skills`, { headers: { 'if-none-match': etag! } });
      assert.equal(cached.status, 304);
      assert.equal(await cached.text(), '');
      assert.equal(cached.headers.get('etag'), etag);
      assert.equal(cached.headers.get('content-length'), null);
      const stale = await fetch(`${base}/skills`, { headers: { 'if-none-match': '"0-deadbeef"' } });
      assert.equal(stale.status, 200);
      assert.equal(stale.headers.get('etag'), etag);
      await stale.text();
      const filtered = await fetch(`${base}/skills?hidden=false`, { headers: { 'if-none-match': etag! } });
      assert.equal(filtered.status, 200);
      assert.notEqual(filtered.headers.get('etag'), etag);
      await filtered.text();
      const filteredAgain = await fetch(`${base}/skills?hidden=false`, {
        headers: { 'if-none-match': filtered.headers.get('etag')! },
      });
      assert.equal(filteredAgain.status, 304);
      await filteredAgain.text();
    });

    it('answers 304 to curl with If-None-Match', async () => {
      const { stdout } = await run('curl', ['-s', '--max-time', '60', '-D', '-', '-o', '/dev/null', `${base}/skills`]);
      const etag = /^etag: (.*)\r$/im.exec(stdout)?.[1];
      assert.ok(etag !== undefined);
      const { stdout: status } = await run('curl', [
        '--max-time',
        '60',
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-H',
        `If-None-Match: ${etag}`,
        `${base}/skills`,
      ]);
      assert.equal(status, '304');
    });

    const bad: Array<[string, string]> = [
      ['level=team', 'querystring/level must be equal to one of the allowed values: "user", "project"'],
      ['hidden=maybe', 'querystring/hidden must be boolean'],
      ['provider=', 'querystring/provider must NOT have fewer than 1 characters'],
      ['cwd=relative/dir', 'cwd must be an absolute path: relative/dir'],
    ];
    for (const [query, message] of bad) {
      it(`refuses ?${query} with 400 BadRequest`, async () => {
        const { status, headers, body } = await getJson(`${base}/skills?${query}`);
        assert.equal(status, 400);
        assert.equal(headers.get('content-type'), JSON_TYPE);
        assert.deepEqual(body, errorBody(400, 'BadRequest', 'Bad Request', message));
      });
    }

    it('refuses a cwd that does not exist or is a file', async () => {
      for (const [cwd, message] of [
        [`${root}/missing`, `cwd does not exist: ${root}/missing`],
        [`${root}/secret.txt`, `cwd is not a directory: ${root}/secret.txt`],
      ]) {
        const { status, body } = await getJson(`${base}/skills?cwd=${encodeURIComponent(cwd!)}`);
        assert.equal(status, 400);
        assert.deepEqual(body, errorBody(400, 'BadRequest', 'Bad Request', message!));
      }
    });
  });

  describe('GET /skills/{name}', () => {
    it('answers one skill with the candidates that lost', async () => {
      const { status, headers, body } = await getJson(`${base}/skills/pdf`);
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(body, { ...skills[2], shadowed: collision.shadowed });
    });

    it('answers a skill without rivals with an empty shadowed list, names being case-sensitive', async () => {
      const { body } = await getJson(`${base}/skills/Beta`);
      assert.deepEqual(body, { ...skills[0], shadowed: [] });
      const lower = await getJson(`${base}/skills/beta`);
      assert.equal(lower.status, 404);
    });

    it('answers 404 SkillNotFound with the reference message', async () => {
      const { status, headers, body } = await getJson(`${base}/skills/nope`);
      assert.equal(status, 404);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(
        body,
        errorBody(404, 'SkillNotFound', 'Not Found', 'Unknown skill: nope\nNo close name (4 skills loaded)'),
      );
    });
  });

  describe('GET and HEAD /skill/{name}[/{path}]', () => {
    it('answers SKILL.md raw, frontmatter included, at /skill/pdf and /skill/pdf/', async () => {
      const info = await stat(`${pdfDir}/SKILL.md`);
      for (const path of ['/skill/pdf', '/skill/pdf/']) {
        const response = await fetch(`${base}${path}`);
        assert.equal(response.status, 200, path);
        assert.equal(await response.text(), PDF);
        assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8');
        assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(PDF)));
        assert.equal(response.headers.get('x-skill-source-path'), `${pdfDir}/SKILL.md`);
        assert.equal(response.headers.get('last-modified'), info.mtime.toUTCString());
        assert.match(response.headers.get('etag') ?? '', /^W\/"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/);
      }
    });

    it('serves a hidden skill like any other', async () => {
      const response = await fetch(`${base}/skill/quiet`);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), SK({ description: 'Hidden helper', hide: true }));
    });

    it('serves a file inside the skill byte for byte, to curl too', async () => {
      const response = await fetch(`${base}/skill/pdf/scripts/run.sh`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(response.headers.get('content-length'), '18');
      assert.equal(response.headers.get('x-skill-source-path'), `${pdfDir}/scripts/run.sh`);
      assert.equal(await response.text(), '#!/bin/sh\necho hi\n');
      const { stdout } = await run('curl', ['-s', '--max-time', '60', `${base}/skill/pdf/scripts/run.sh`]);
      assert.equal(stdout, await readFile(`${pdfDir}/scripts/run.sh`, 'utf8'));
      const markdown = await fetch(`${base}/skill/pdf/docs/guide.md`);
      assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(await markdown.text(), '# Guide\n');
    });

    it('percent-decodes the name and each path segment exactly once', async () => {
      const encoded = await requestRawPath(daemon.port, '/skill/%70df/docs%2Fnotes.txt');
      assert.equal(encoded.status, 200);
      assert.equal(encoded.body, 'notes');
      assert.equal(encoded.headers['x-skill-source-path'], `${pdfDir}/docs/notes.txt`);
      // `%252F` is `%2F` once decoded: a file name holding those three characters, not a separator.
      const twice = await requestRawPath(daemon.port, '/skill/pdf/docs%252Fnotes.txt');
      assert.equal(twice.status, 404);
      assert.deepEqual(
        JSON.parse(twice.body),
        errorBody(404, 'FileNotFound', 'Not Found', `File not found: ${pdfDir}/docs%2Fnotes.txt`),
      );
      const traversalTwice = await requestRawPath(daemon.port, '/skill/pdf/%252e%252e');
      assert.equal(traversalTwice.status, 404);
      assert.equal(JSON.parse(traversalTwice.body).message, `File not found: ${pdfDir}/%2e%2e`);
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const get = await fetch(`${base}/skill/pdf/docs/guide.md`);
      await get.text();
      for (const path of ['/skill/pdf/docs/guide.md', '/skill/pdf', '/skill/pdf/']) {
        const head = await requestRawPath(daemon.port, path, { method: 'HEAD' });
        assert.equal(head.status, 200, path);
        assert.equal(head.body, '');
      }
      const head = await requestRawPath(daemon.port, '/skill/pdf/docs/guide.md', { method: 'HEAD' });
      for (const name of ['content-type', 'content-length', 'etag', 'last-modified', 'x-skill-source-path']) {
        assert.equal(head.headers[name], get.headers.get(name), name);
      }
      const listing = await requestRawPath(daemon.port, '/skill/pdf/docs', { method: 'HEAD' });
      assert.equal(listing.status, 200);
      assert.equal(listing.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(listing.body, '');
      const { stdout } = await run('curl', ['-s', '--max-time', '60', '-I', `${base}/skill/pdf/docs/guide.md`]);
      assert.match(stdout, /^HTTP\/1\.1 200 OK\r$/m);
      assert.match(stdout, /^content-length: 8\r$/im);
    });

    it('answers 304 to If-None-Match with the file ETag', async () => {
      const first = await fetch(`${base}/skill/pdf/docs/notes.txt`);
      await first.text();
      const etag = first.headers.get('etag')!;
      const cached = await fetch(`${base}/skill/pdf/docs/notes.txt`, { headers: { 'if-none-match': etag } });
      assert.equal(cached.status, 304);
      assert.equal(await cached.text(), '');
      assert.equal(cached.headers.get('etag'), etag);
      const head = await requestRawPath(daemon.port, '/skill/pdf/docs/notes.txt', {
        method: 'HEAD',
        headers: { 'if-none-match': etag },
      });
      assert.equal(head.status, 304);
    });

    it('answers a directory with the reference listing, or { entries } with Accept: application/json', async () => {
      const text = await fetch(`${base}/skill/pdf/docs`);
      assert.equal(text.status, 200);
      assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(text.headers.get('x-skill-source-path'), `${pdfDir}/docs`);
      assert.equal(await text.text(), 'sub/\nguide.md\nnotes.txt\n');
      const json = await getJson(`${base}/skill/pdf/docs/`, { headers: { accept: 'application/json' } });
      assert.equal(json.status, 200);
      assert.equal(json.headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(json.body, {
        entries: [
          { name: 'sub', type: 'directory', size: 0 },
          { name: 'guide.md', type: 'file', size: 8 },
          { name: 'notes.txt', type: 'file', size: 5 },
        ],
      });
      const empty = await fetch(`${base}/skill/pdf/empty`);
      assert.equal(await empty.text(), '(empty directory)\n');
      const emptyJson = await getJson(`${base}/skill/pdf/empty`, { headers: { accept: 'application/json' } });
      assert.deepEqual(emptyJson.body, { entries: [] });
    });

    const invalid: Array<[string, string]> = [
      ['/skill/pdf/..%2F..%2Fsecret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
      ['/skill/pdf/../../secret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
      ['/skill/pdf/%2e%2e/%2e%2e/secret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
      ['/skill/pdf/..%5c..%5csecret.txt', 'Path traversal (..) is not allowed in skill:// URLs'],
      ['/skill/pdf/%2Fetc%2Fpasswd', 'Absolute paths are not allowed in skill:// URLs'],
      ['/skill/pdf//etc/passwd', 'Absolute paths are not allowed in skill:// URLs'],
      ['/skill/pdf/a%00b', 'NUL bytes are not allowed in skill:// URLs'],
    ];
    for (const [target, message] of invalid) {
      it(`refuses ${target} with 400 InvalidPath (raw socket)`, async () => {
        const response = await requestRawPath(daemon.port, target);
        assert.equal(response.status, 400);
        assert.equal(response.headers['content-type'], JSON_TYPE);
        assert.deepEqual(JSON.parse(response.body), errorBody(400, 'InvalidPath', 'Bad Request', message));
      });
    }

    it('refuses malformed percent-encoding with 400 InvalidPath', async () => {
      const response = await requestRawPath(daemon.port, '/skill/pdf/%E0%A4%A');
      assert.equal(response.status, 400);
      assert.equal(JSON.parse(response.body).code, 'InvalidPath');
    });

    it('refuses a symlink out of the skill with 403 PathEscapesSkill', async () => {
      const { status, body } = await getJson(`${base}/skill/pdf/leak.txt`);
      assert.equal(status, 403);
      assert.deepEqual(
        body,
        errorBody(
          403,
          'PathEscapesSkill',
          'Forbidden',
          `Path resolves outside the skill directory: ${pdfDir}/leak.txt`,
        ),
      );
    });

    it('answers 404 FileNotFound with the absolute target path', async () => {
      const { status, body } = await getJson(`${base}/skill/pdf/missing.md`);
      assert.equal(status, 404);
      assert.deepEqual(body, errorBody(404, 'FileNotFound', 'Not Found', `File not found: ${pdfDir}/missing.md`));
      const head = await requestRawPath(daemon.port, '/skill/pdf/missing.md', { method: 'HEAD' });
      assert.equal(head.status, 404);
      assert.equal(head.body, '');
    });

    it('answers 404 NotADirectory for a path through a file', async () => {
      const { status, body } = await getJson(`${base}/skill/pdf/SKILL.md/x`);
      assert.equal(status, 404);
      assert.deepEqual(
        body,
        errorBody(
          404,
          'NotADirectory',
          'Not Found',
          `Not a directory: a part of the path is a file: ${pdfDir}/SKILL.md/x`,
        ),
      );
    });

    it('answers 409 NotAFile for a FIFO', async () => {
      const { status, body } = await getJson(`${base}/skill/pdf/pipe`);
      assert.equal(status, 409);
      assert.deepEqual(
        body,
        errorBody(409, 'NotAFile', 'Conflict', 'skill:// URL must resolve to a file or directory: skill://pdf/pipe'),
      );
    });

    it('answers 404 SkillNotFound for an unknown skill, before any path check', async () => {
      for (const target of ['/skill/nope', '/skill/nope/../../etc/passwd']) {
        const response = await requestRawPath(daemon.port, target);
        assert.equal(response.status, 404, target);
        assert.deepEqual(
          JSON.parse(response.body),
          errorBody(404, 'SkillNotFound', 'Not Found', 'Unknown skill: nope\nNo close name (4 skills loaded)'),
        );
      }
    });
  });

  describe('the other endpoints', () => {
    it('GET /collisions answers every collision with the generation', async () => {
      const { status, headers, body } = await getJson(`${base}/collisions`);
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(body, { generation: 1, collisions: [collision] });
    });

    it('GET /prompt answers the MusePi block, hidden skills left out', async () => {
      const response = await fetch(`${base}/prompt`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(
        await response.text(),
        [
          '# Skills & Rules',
          'Skills are specialized knowledge. If one matches your task, you MUST read `skill://<name>` before proceeding.',
          '<skills>',
          '- Beta: Beta things',
          '- git-helper: Git ops',
          '- pdf: PDF tools',
          '</skills>',
        ].join('\n'),
      );
    });

    it('GET /prompt?tools=bash answers an empty block; tools=bash,read the full one', async () => {
      const empty = await fetch(`${base}/prompt?tools=bash`);
      assert.equal(empty.status, 200);
      assert.equal(await empty.text(), '');
      const both = await fetch(`${base}/prompt?tools=bash,read`);
      assert.match(await both.text(), /^# Skills & Rules\n/);
    });

    it('GET /prompt?format=xml answers the Agent Skills form', async () => {
      const response = await fetch(`${base}/prompt?format=xml`);
      assert.equal(response.status, 200);
      const entry = (name: string, description: string, location: string) => [
        '  <skill>',
        `    <name>${name}</name>`,
        `    <description>${description}</description>`,
        `    <location>${location}</location>`,
        '  </skill>',
      ];
      assert.equal(
        await response.text(),
        [
          '<available_skills>',
          ...entry('Beta', 'Beta things', skills[0].filePath),
          ...entry('git-helper', 'Git ops', skills[1].filePath),
          ...entry('pdf', 'PDF tools', skills[2].filePath),
          '</available_skills>',
        ].join('\n'),
      );
    });

    it('GET /prompt refuses an unknown format with 400 BadRequest', async () => {
      const { status, body } = await getJson(`${base}/prompt?format=html`);
      assert.equal(status, 400);
      assert.equal(body.code, 'BadRequest');
      assert.equal(body.error, 'Bad Request');
    });

    const invoke = async (body: string) => {
      const response = await fetch(`${base}/invocations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        body: (await response.json()) as Json,
      };
    };

    it('POST /invocations expands /skill:pdf into the reference message', async () => {
      const answer = await invoke(JSON.stringify({ text: '/skill:pdf focus on tables' }));
      assert.equal(answer.status, 200);
      assert.equal(answer.type, JSON_TYPE);
      assert.deepEqual(answer.body, {
        handled: true,
        message: [
          '[IMPORTANT: User invoked the "pdf" skill; follow its instructions. Full skill below.]',
          '',
          '# Body',
          '',
          '---',
          '',
          `[Skill directory: ${pdfDir}]`,
          'Resolve relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against this absolute directory; read referenced assets and templates; run scripts with the terminal tool when skill instructions call for it.',
          'User: focus on tables',
        ].join('\n'),
        details: { name: 'pdf', path: `${pdfDir}/SKILL.md`, args: 'focus on tables', lineCount: 1 },
      });
      const inline = await invoke(JSON.stringify({ text: 'fix the bug /skill:quiet focus on auth' }));
      assert.deepEqual(inline.body.details, {
        name: 'quiet',
        path: `${project}/.musepi/skills/quiet/SKILL.md`,
        args: 'fix the bug focus on auth',
        lineCount: 1,
      });
    });

    it('POST /invocations does not handle what is not an invocation of a loaded skill', async () => {
      for (const text of ['/compact /skill:pdf', '!echo /skill:pdf', 'https://example.com/skill:pdf', '/skill:nope']) {
        assert.deepEqual(await invoke(JSON.stringify({ text })), {
          status: 200,
          type: JSON_TYPE,
          body: { handled: false },
        });
      }
    });

    it('POST /invocations refuses a bad body with 400 BadRequest', async () => {
      assert.deepEqual(await invoke('{}'), {
        status: 400,
        type: JSON_TYPE,
        body: errorBody(400, 'BadRequest', 'Bad Request', "body must have required property 'text'"),
      });
      assert.deepEqual(
        (await invoke(JSON.stringify({ text: { a: 1 } }))).body,
        errorBody(400, 'BadRequest', 'Bad Request', 'body/text must be string'),
      );
      assert.deepEqual(
        (await invoke(JSON.stringify({ text: '/skill:pdf', extra: 1 }))).body,
        errorBody(400, 'BadRequest', 'Bad Request', 'body must NOT have additional properties'),
      );
      // A JSON body keeps its types: a list is not taken for its one string.
      assert.deepEqual(
        (await invoke(JSON.stringify({ text: ['/skill:pdf'] }))).body,
        errorBody(400, 'BadRequest', 'Bad Request', 'body/text must be string'),
      );
      const broken = await invoke('{"text":');
      assert.equal(broken.status, 400);
      assert.equal(broken.body.code, 'BadRequest');
    });

    it('POST /invocations with curl', async () => {
      const { stdout } = await run('curl', [
        '--max-time',
        '60',
        '-s',
        '-H',
        'content-type: application/json',
        '--data',
        '{"text":"/skill:nope"}',
        `${base}/invocations`,
      ]);
      assert.deepEqual(JSON.parse(stdout), { handled: false });
    });

    it('GET /context-files answers the AGENTS.md walk', async () => {
      const { status, headers, body } = await getJson(`${base}/context-files`);
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(body, {
        files: [{ path: `${project}/AGENTS.md`, content: '# Project rules\n', level: 'project', depth: 0 }],
        diagnostics: [],
      });
    });

    it('GET /health answers the state of the default workspace', async () => {
      const { status, headers, body } = await getJson(`${base}/health`);
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      const { status: state, generation, skills: count, uptimeS, workspaces, watchers } = body;
      assert.deepEqual(
        { state, generation, count, workspaces, watchers },
        {
          state: 'ok',
          generation: 1,
          count: 4,
          workspaces: 1,
          watchers: 1,
        },
      );
      assert.ok(Number.isInteger(uptimeS) && uptimeS >= 0);
    });

    it('GET /openapi.json answers the committed document', async () => {
      const { status, headers, body } = await getJson(`${base}/openapi.json`);
      assert.equal(status, 200);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(body, JSON.parse(await readFile(OPENAPI, 'utf8')));
    });

    it('GET /docs answers the OpenAPI UI as HTML', async () => {
      const response = await fetch(`${base}/docs`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await response.text(), /<html/i);
    });

    it('answers an unknown route with a 404 in the error shape', async () => {
      const { status, body } = await getJson(`${base}/nope`);
      assert.equal(status, 404);
      assert.deepEqual(body, errorBody(404, 'NotFound', 'Not Found', 'Route GET /nope not found'));
    });

    it('refuses a foreign Host or any Origin with 403 (DNS rebinding and browser guards)', async () => {
      const host = await rawRequest(daemon.port, ['GET /skills HTTP/1.1', 'Host: attacker.example:80']);
      assert.equal(host.status, 403);
      assert.deepEqual(
        JSON.parse(host.body),
        errorBody(
          403,
          'ForbiddenHost',
          'Forbidden',
          'Host "attacker.example:80" is not allowed: to allow it, add "attacker.example" to server.allowedHosts in the config file or start with --allow-host attacker.example',
        ),
      );
      const origin = await getJson(`${base}/skill/pdf`, { headers: { origin: 'https://attacker.example' } });
      assert.equal(origin.status, 403);
      assert.deepEqual(
        origin.body,
        errorBody(403, 'ForbiddenOrigin', 'Forbidden', 'Origin "https://attacker.example" is not allowed'),
      );
      // The usual loopback names pass, with any port.
      for (const name of ['localhost:1', '127.0.0.1', '[::1]:7420']) {
        const ok = await rawRequest(daemon.port, ['GET /health HTTP/1.1', `Host: ${name}`]);
        assert.equal(ok.status, 200, name);
      }
    });

    it('GET /events refuses a bad query with 400 BadRequest and a client that refuses event streams with 406', async () => {
      const bad = await getJson(`${base}/events?lastEventId=abc`);
      assert.equal(bad.status, 400);
      assert.deepEqual(
        bad.body,
        errorBody(400, 'BadRequest', 'Bad Request', 'querystring/lastEventId must match pattern "^[0-9]{1,16}$"'),
      );
      const types = await getJson(`${base}/events?types=index,bogus`);
      assert.equal(types.status, 400);
      assert.equal(types.body.code, 'BadRequest');
      const refused = await getJson(`${base}/events`, { headers: { accept: 'application/json' } });
      assert.equal(refused.status, 406);
      assert.equal(refused.body.code, 'NotAcceptable');
    });
  });

  // Last: it opens a second workspace, which /health counts.
  describe('?cwd= on every endpoint', () => {
    let other: string;
    let cwd: string;
    before(async () => {
      other = `${root}/other`;
      cwd = `cwd=${encodeURIComponent(other)}`;
      await writeTree(root, {
        'other/.git': { dir: true },
        'other/AGENTS.md': 'Other rules\n',
        'other/.musepi/skills/only-there/SKILL.md': SK({ description: 'Other workspace' }),
      });
    });

    it('answers the skills, files, prompt, collisions, context files and invocations of that workspace', async () => {
      const dir = `${other}/.musepi/skills/only-there`;
      const record = skill('only-there', 'Other workspace', dir, 'native:project', 'MusePi', {
        description: 'Other workspace',
      });
      const list = await getJson(`${base}/skills?${cwd}`);
      assert.deepEqual(skillsFields(list.body), {
        generation: 1,
        profile: 'musepi',
        cwd: other,
        // User-level skills belong to every workspace.
        skills: [skills[1], record],
        warnings: [],
        collisions: [],
      });
      assert.deepEqual((await getJson(`${base}/skills/only-there?${cwd}`)).body, { ...record, shadowed: [] });
      assert.deepEqual(
        (await getJson(`${base}/skills/pdf?${cwd}`)).body,
        errorBody(404, 'SkillNotFound', 'Not Found', 'Unknown skill: pdf\nNo close name (2 skills loaded)'),
      );
      const file = await fetch(`${base}/skill/only-there?${cwd}`);
      assert.equal(file.headers.get('x-skill-source-path'), `${dir}/SKILL.md`);
      assert.equal(await file.text(), SK({ description: 'Other workspace' }));
      const { stdout } = await run('curl', ['-s', '--max-time', '60', `${base}/skill/only-there/SKILL.md?${cwd}`]);
      assert.equal(stdout, SK({ description: 'Other workspace' }));
      assert.equal(
        await (await fetch(`${base}/prompt?${cwd}&format=xml`)).text(),
        [
          '<available_skills>',
          '  <skill>',
          '    <name>git-helper</name>',
          '    <description>Git ops</description>',
          `    <location>${skills[1].filePath}</location>`,
          '  </skill>',
          '  <skill>',
          '    <name>only-there</name>',
          '    <description>Other workspace</description>',
          `    <location>${dir}/SKILL.md</location>`,
          '  </skill>',
          '</available_skills>',
        ].join('\n'),
      );
      assert.deepEqual((await getJson(`${base}/collisions?${cwd}`)).body, { generation: 1, collisions: [] });
      assert.deepEqual((await getJson(`${base}/context-files?${cwd}`)).body, {
        files: [{ path: `${other}/AGENTS.md`, content: 'Other rules\n', level: 'project', depth: 0 }],
        diagnostics: [],
      });
      const invoked = await fetch(`${base}/invocations?${cwd}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: '/skill:only-there' }),
      });
      assert.deepEqual(((await invoked.json()) as Json).details, {
        name: 'only-there',
        path: `${dir}/SKILL.md`,
        lineCount: 1,
      });
      const health = (await getJson(`${base}/health?${cwd}`)).body;
      assert.deepEqual([health.status, health.generation, health.skills, health.workspaces], ['ok', 1, 2, 2]);
      // The default workspace is unchanged.
      assert.equal((await getJson(`${base}/health`)).body.skills, 4);
    });
  });
});
