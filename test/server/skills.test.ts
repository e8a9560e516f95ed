import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverSkillChange, discoverSkills } from '../../src/discovery/pipeline/discover-skills.js';
import type { DiscoveryContext } from '../../src/discovery/types.js';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK, thousandSkills } from '../helpers/temp-tree.js';

const JSON_TYPE = 'application/json; charset=utf-8';

describe('GET /skills', () => {
  it('answers the loaded skills, warnings and collisions of the default workspace (docs/discovery.md §11 ex. 1, 5)', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
        'work/.musepi/skills/dup/SKILL.md': SK({ description: 'N' }),
        'work/.claude/skills/dup/SKILL.md': SK({ description: 'C' }),
      },
    });
    const { status, headers, body } = await getJson(`${s.base}/skills`);
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), JSON_TYPE);
    const native = (name: string) => ({
      id: 'native:project',
      provider: 'native',
      providerName: 'MusePi',
      level: 'project',
      path: `${s.cwd}/.musepi/skills/${name}/SKILL.md`,
    });
    assert.deepEqual(body, {
      generation: 1,
      profile: 'musepi',
      cwd: s.cwd,
      skills: [
        {
          name: 'dup',
          description: 'N',
          filePath: `${s.cwd}/.musepi/skills/dup/SKILL.md`,
          baseDir: `${s.cwd}/.musepi/skills/dup`,
          hide: false,
          source: native('dup'),
          frontmatter: { description: 'N' },
        },
        {
          name: 'pdf',
          description: 'PDF tools',
          filePath: `${s.cwd}/.musepi/skills/pdf/SKILL.md`,
          baseDir: `${s.cwd}/.musepi/skills/pdf`,
          hide: false,
          source: native('pdf'),
          frontmatter: { name: 'pdf', description: 'PDF tools' },
        },
      ],
      warnings: [],
      collisions: [
        {
          name: 'dup',
          winner: { filePath: `${s.cwd}/.musepi/skills/dup/SKILL.md`, source: native('dup') },
          shadowed: [
            {
              filePath: `${s.cwd}/.claude/skills/dup/SKILL.md`,
              source: {
                id: 'claude:project',
                provider: 'claude',
                providerName: 'Claude Code',
                level: 'project',
                path: `${s.cwd}/.claude/skills/dup/SKILL.md`,
              },
              reason: 'precedence',
            },
          ],
        },
      ],
      diagnostics: [],
    });
  });

  it('answers exactly what discovery computes, with generation 1', async (t) => {
    const s = await startServer(t, {
      tree: {
        'home/.musepi/agent/skills/git-helper/SKILL.md': SK({ description: 'Git ops' }),
        'work/.agents/skills/t/SKILL.md': SK({ description: 'A' }),
        'work/.musepi/skills/bad/SKILL.md': '',
      },
    });
    const ctx: DiscoveryContext = { home: s.home, cwd: s.cwd, env: {}, settings: s.settings };
    const expected = await discoverSkills(ctx);
    const { body } = await getJson(`${s.base}/skills`);
    assert.deepEqual(body, {
      generation: 1,
      profile: 'musepi',
      cwd: s.cwd,
      skills: expected.skills,
      warnings: expected.warnings,
      collisions: expected.collisions,
      diagnostics: expected.diagnostics,
    });
  });

  it('sends the JSON as UTF-8 bytes with their Content-Length, unfiltered and filtered', async (t) => {
    // Multi-byte characters: a length counted in UTF-16 units instead of bytes would cut the body short.
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'Résumé → PDF, 日本語 ✓ 🎉' }),
        'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }),
      },
    });
    for (const query of ['', '?q=%C3%A9sum']) {
      const res = await fetch(`${s.base}/skills${query}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      const body = JSON.parse(bytes.toString('utf8'));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), JSON_TYPE);
      assert.equal(res.headers.get('content-length'), String(bytes.length));
      assert.deepEqual(bytes, Buffer.from(JSON.stringify(body), 'utf8'));
      assert.deepEqual(
        body.skills.map((skill: { description: string }) => skill.description),
        query === '' ? ['Word', 'Résumé → PDF, 日本語 ✓ 🎉'] : ['Résumé → PDF, 日本語 ✓ 🎉'],
      );
    }
  });

  it('tags every answer and answers 304 to the current tag only', async (t) => {
    const s = await startServer(t, { tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) } });
    const first = await fetch(`${s.base}/skills`);
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"1-[0-9a-f]{20}"$/);
    await first.text();
    const again = await fetch(`${s.base}/skills`, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    // A 304 carries no body and so no Content-Length (keep-alive clients would wait for the bytes).
    assert.equal(again.headers.get('content-length'), null);
    assert.equal(await again.text(), '');
    const other = await fetch(`${s.base}/skills`, { headers: { 'if-none-match': '"1-0000"' } });
    assert.equal(other.status, 200);
    await other.text();
    // A filtered answer has its own tag; the unfiltered tag does not match it.
    const filtered = await fetch(`${s.base}/skills?q=pdf`, { headers: { 'if-none-match': etag! } });
    assert.equal(filtered.status, 200);
    assert.notEqual(filtered.headers.get('etag'), etag);
    await filtered.text();
  });

  it('changes generation and tag exactly when the answer changes', async (t) => {
    const s = await startServer(t, { tree: { 'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }) } });
    const before = await getJson(`${s.base}/skills`);
    const workspace = await s.registry.get();
    await workspace.rebuild();
    const same = await getJson(`${s.base}/skills`);
    assert.equal(same.body.generation, 1);
    assert.equal(same.headers.get('etag'), before.headers.get('etag'));
    const { writeTree, SK: sk } = await import('../helpers/temp-tree.js');
    await writeTree(s.root, { 'work/.musepi/skills/docx/SKILL.md': sk({ description: 'Word' }) });
    await workspace.rebuild();
    const after = await getJson(`${s.base}/skills`);
    assert.equal(after.body.generation, 2);
    assert.deepEqual(
      after.body.skills.map((skill: { name: string }) => skill.name),
      ['docx', 'pdf'],
    );
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
  });

  it('filters by hidden, provider, level and q without changing generation', async (t) => {
    const s = await startServer(t, {
      tree: {
        'home/.musepi/agent/skills/git-helper/SKILL.md': SK({ description: 'Git OPS' }),
        'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
        'work/.musepi/skills/quiet/SKILL.md': SK({ description: 'Hidden one', hide: true }),
        'work/.claude/skills/review/SKILL.md': SK({ description: 'Code review' }),
      },
    });
    const names = async (query: string) => {
      const { status, body } = await getJson(`${s.base}/skills?${query}`);
      assert.equal(status, 200);
      assert.equal(body.generation, 1);
      assert.equal(body.cwd, s.cwd);
      return body.skills.map((skill: { name: string }) => skill.name);
    };
    assert.deepEqual(await names(''), ['git-helper', 'pdf', 'quiet', 'review']);
    assert.deepEqual(await names('hidden=false'), ['git-helper', 'pdf', 'review']);
    assert.deepEqual(await names('hidden=true'), ['git-helper', 'pdf', 'quiet', 'review']);
    assert.deepEqual(await names('provider=claude'), ['review']);
    assert.deepEqual(await names('provider=native:user'), ['git-helper']);
    assert.deepEqual(await names('level=project'), ['pdf', 'quiet', 'review']);
    assert.deepEqual(await names('q=git%20ops'), ['git-helper']);
    assert.deepEqual(await names('q=REVIEW'), ['review']);
    assert.deepEqual(await names('level=project&hidden=false&q=o'), ['pdf', 'review']);
  });

  const badQueries: Array<[string, string]> = [
    ['level=team', 'querystring/level must be equal to one of the allowed values: "user", "project"'],
    ['hidden=maybe', 'querystring/hidden must be boolean'],
    ['provider=', 'querystring/provider must NOT have fewer than 1 characters'],
  ];
  for (const [query, message] of badQueries) {
    it(`refuses ?${query} with 400 BadRequest`, async (t) => {
      const s = await startServer(t);
      const { status, headers, body } = await getJson(`${s.base}/skills?${query}`);
      assert.equal(status, 400);
      assert.equal(headers.get('content-type'), JSON_TYPE);
      assert.deepEqual(body, { statusCode: 400, code: 'BadRequest', error: 'Bad Request', message });
    });
  }

  it('selects the workspace with ?cwd= and refuses a bad cwd with 400 BadRequest', async (t) => {
    const s = await startServer(t, {
      tree: {
        'other/.musepi/skills/only-there/SKILL.md': SK({ description: 'Other' }),
        'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
        'a-file.txt': 'x',
      },
    });
    const other = await getJson(`${s.base}/skills?cwd=${encodeURIComponent(`${s.root}/other`)}`);
    assert.equal(other.status, 200);
    assert.equal(other.body.cwd, `${s.root}/other`);
    assert.equal(other.body.generation, 1);
    assert.deepEqual(
      other.body.skills.map((skill: { name: string }) => skill.name),
      ['only-there'],
    );
    const bad: Array<[string, string]> = [
      ['relative/dir', 'cwd must be an absolute path: relative/dir'],
      [`${s.root}/missing`, `cwd does not exist: ${s.root}/missing`],
      [`${s.root}/a-file.txt`, `cwd is not a directory: ${s.root}/a-file.txt`],
    ];
    for (const [cwd, message] of bad) {
      const { status, body } = await getJson(`${s.base}/skills?cwd=${encodeURIComponent(cwd)}`);
      assert.equal(status, 400, cwd);
      assert.deepEqual(body, { statusCode: 400, code: 'BadRequest', error: 'Bad Request', message });
    }
  });

  it('answers 503 NotReady with Retry-After while the first index is being built', async (t) => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const s = await startServer(t, {
      ready: false,
      app: { readyWaitMs: 0 },
      registry: {
        discover: async (ctx, options) => {
          await gate;
          return discoverSkillChange(ctx, options);
        },
      },
    });
    const { status, headers, body } = await getJson(`${s.base}/skills`);
    assert.equal(status, 503);
    assert.equal(headers.get('retry-after'), '1');
    assert.deepEqual(body, {
      statusCode: 503,
      code: 'NotReady',
      error: 'Service Unavailable',
      message: `The skill index of ${s.cwd} is still being built`,
    });
    const health = await getJson(`${s.base}/health`);
    assert.equal(health.body.status, 'starting');
    release();
    await (await s.registry.get()).ready;
    assert.equal((await getJson(`${s.base}/skills`)).status, 200);
  });
});

describe('GET /skills/{name}', () => {
  it('answers one skill with the candidates that lost', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/dup/SKILL.md': SK({ description: 'N' }),
        'work/.claude/skills/dup/SKILL.md': SK({ description: 'C' }),
        'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      },
    });
    const dup = await getJson(`${s.base}/skills/dup`);
    assert.equal(dup.status, 200);
    assert.equal(dup.headers.get('content-type'), JSON_TYPE);
    assert.deepEqual(dup.body, {
      name: 'dup',
      description: 'N',
      filePath: `${s.cwd}/.musepi/skills/dup/SKILL.md`,
      baseDir: `${s.cwd}/.musepi/skills/dup`,
      hide: false,
      source: {
        id: 'native:project',
        provider: 'native',
        providerName: 'MusePi',
        level: 'project',
        path: `${s.cwd}/.musepi/skills/dup/SKILL.md`,
      },
      frontmatter: { description: 'N' },
      shadowed: [
        {
          filePath: `${s.cwd}/.claude/skills/dup/SKILL.md`,
          source: {
            id: 'claude:project',
            provider: 'claude',
            providerName: 'Claude Code',
            level: 'project',
            path: `${s.cwd}/.claude/skills/dup/SKILL.md`,
          },
          reason: 'precedence',
        },
      ],
    });
    const pdf = await getJson(`${s.base}/skills/pdf`);
    assert.deepEqual(pdf.body.shadowed, []);
    assert.deepEqual(pdf.body.frontmatter, { name: 'pdf', description: 'PDF tools' });
  });

  it('answers 404 SkillNotFound with the reference message', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': SK({ description: 'PDF tools' }),
        'work/.musepi/skills/docx/SKILL.md': SK({ description: 'Word' }),
      },
    });
    const { status, body } = await getJson(`${s.base}/skills/PDF`);
    assert.equal(status, 404);
    assert.deepEqual(body, {
      statusCode: 404,
      code: 'SkillNotFound',
      error: 'Not Found',
      message: 'Unknown skill: PDF\nDid you mean pdf? (2 skills loaded)',
    });
    const empty = await startServer(t);
    const none = await getJson(`${empty.base}/skills/pdf`);
    assert.equal(none.body.message, 'Unknown skill: pdf\nNo skills loaded');
  });

  it('answers an unknown name among 1,000 skills with the closest names and the count, not every name', async (t) => {
    const s = await startServer(t, { tree: thousandSkills('work/.musepi/skills') });
    const cases: Array<[string, string]> = [
      ['pdff', 'Unknown skill: pdff\nDid you mean pdf? (1001 skills loaded)'],
      ['nope', 'Unknown skill: nope\nNo close name (1001 skills loaded)'],
      [
        'skill-00',
        'Unknown skill: skill-00\nDid you mean skill-000, skill-001, skill-002, skill-003 or skill-004? (1001 skills loaded)',
      ],
    ];
    for (const [name, message] of cases) {
      const { status, body } = await getJson(`${s.base}/skills/${name}`);
      assert.equal(status, 404);
      assert.deepEqual(body, { statusCode: 404, code: 'SkillNotFound', error: 'Not Found', message });
      // skill:// over HTTP words it the same.
      assert.deepEqual((await getJson(`${s.base}/skill/${name}/SKILL.md`)).body.message, message);
    }
  });
});
