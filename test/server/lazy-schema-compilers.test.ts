// Route schemas compiled on first use (src/server/lazy-schema-compilers.ts, docs/performance.md "Idle memory"): the
// answers, refusals included, are those of Fastify's own compilers; every route schema still compiles in the suite
// (eager compilers at start-up); a broken schema is found at start-up when eager and at its first call when lazy.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { lazySchemaCompilers } from '../../src/server/lazy-schema-compilers.js';
import { startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

const TREE = {
  'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools: split, merge' }),
  'home/.claude/skills/pdf/notes.md': '# Notes\n',
  'work/.musepi/skills/lint/SKILL.md': SK({ name: 'lint', description: 'Lint the code' }),
};

interface Case {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

// Answers that pass through validation (querystring, params, headers, body) and response serialisation, and
// refusals of each: the same status, type and bytes with either compiler.
const CASES: Case[] = [
  { path: '/skills?hidden=true&level=user' },
  { path: '/skills?level=nowhere' },
  { path: '/skills?hidden=maybe' },
  { path: '/skills/pdf' },
  { path: '/skills/nope' },
  { path: '/search?q=pdf&limit=2' },
  { path: '/search?q=pdf&limit=0' },
  { path: '/search?q=pdf&limit=abc' },
  { path: '/search' },
  { path: '/skill/pdf?archive=zip' },
  { path: '/skill/pdf/notes.md' },
  { path: '/skill/pdf', headers: { 'if-none-match': '"x"' } },
  { path: '/collisions' },
  { path: '/prompt?format=xml&paths=url' },
  { path: '/prompt?format=html' },
  { path: '/context-files' },
  { path: '/catalog?agent=claude-code&contextWindow=200000' },
  { path: '/catalog?agent=claude-code&contextWindow=-5' },
  { path: '/doctor/pdf' },
  {
    method: 'POST',
    path: '/invocations',
    headers: { 'content-type': 'application/json' },
    body: '{"text":"/skill:pdf a b"}',
  },
  { method: 'POST', path: '/invocations', headers: { 'content-type': 'application/json' }, body: '{"text":5}' },
  { method: 'POST', path: '/invocations', headers: { 'content-type': 'application/json' }, body: '{}' },
  {
    method: 'POST',
    path: '/invocations?paths=nowhere',
    headers: { 'content-type': 'application/json' },
    body: '{"text":"/skill:pdf"}',
  },
];

async function answer(base: string, c: Case): Promise<string> {
  const response = await fetch(`${base}${c.path}`, { method: c.method ?? 'GET', headers: c.headers, body: c.body });
  const type = response.headers.get('content-type');
  const text = await response.text();
  // Request ids and times differ between two servers; nothing else may.
  return `${response.status} ${type}\n${text.replaceAll(base, 'BASE').replace(/"(requestId|generatedAt|time)":"[^"]*"/g, '"$1":"…"')}`;
}

describe('route schemas compiled on first use', () => {
  it('answer every request, refusals included, exactly as Fastify’s own compilers do', async (t) => {
    const own = await startServer(t, { tree: TREE, schemaCompilers: null });
    const lazy = await startServer(t, { sharedRoot: own.root });
    const statuses: number[] = [];
    for (const c of CASES) {
      const expected = await answer(own.base, c);
      assert.equal(await answer(lazy.base, c), expected, `${c.method ?? 'GET'} ${c.path}`);
      statuses.push(Number(expected.slice(0, 3)));
    }
    // The cases reach both sides of validation: answers and refusals.
    assert.deepEqual(
      statuses,
      [
        200, 400, 400, 200, 404, 200, 400, 400, 400, 400, 200, 200, 200, 200, 400, 200, 200, 400, 200, 200, 400, 400,
        400,
      ],
    );
  });

  it('compile every route schema of the app when eager', async (t) => {
    let validators = 0;
    let serializers = 0;
    const eager = lazySchemaCompilers({ eager: true });
    const server = await startServer(t, {
      tree: TREE,
      schemaCompilers: {
        buildValidator: (schemas, options) => {
          const compile = eager.buildValidator(schemas, options);
          return (route) => {
            validators++;
            return compile(route);
          };
        },
        buildSerializer: (schemas, options) => {
          const compile = eager.buildSerializer(schemas, options);
          return (route) => {
            serializers++;
            return compile(route);
          };
        },
      },
    });
    assert.equal((await fetch(`${server.base}/search?q=pdf`)).status, 200);
    assert.ok(validators >= 30, `validators compiled: ${validators}`);
    assert.ok(serializers >= 60, `serializers compiled: ${serializers}`);
  });

  it('find a broken schema at start-up when eager, and at its first call when lazy', async () => {
    const broken = { querystring: { type: 'object', properties: { n: { type: 'numeral' } } } };
    const eagerApp = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers({ eager: true }) } });
    eagerApp.get('/n', { schema: broken }, async () => ({ ok: true }));
    await assert.rejects(async () => {
      await eagerApp.ready();
    }, /schema is invalid: data\/properties\/n\/type must be equal to one of the allowed values/);
    await eagerApp.close();

    const lazyApp = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    lazyApp.get('/n', { schema: broken }, async () => ({ ok: true }));
    lazyApp.get('/plain', async () => ({ ok: true }));
    await lazyApp.ready();
    assert.equal((await lazyApp.inject('/plain')).statusCode, 200);
    const refused = await lazyApp.inject('/n?n=1');
    assert.equal(refused.statusCode, 500);
    assert.match(
      refused.json().message,
      /schema is invalid: data\/properties\/n\/type must be equal to one of the allowed values/,
    );
    await lazyApp.close();
  });

  it('are handed header schemas whose names are lower case, as Fastify’s own would make them', () => {
    // With compilers of its own, Fastify passes a header schema on as written (the default ones lower-case it first).
    const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
    };
    const names = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((op) =>
        (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name),
      ),
    );
    assert.deepEqual([...new Set(names)].sort(), ['if-none-match', 'last-event-id', 'mcp-session-id']);
    for (const name of names) assert.equal(name, name.toLowerCase());
  });
});
