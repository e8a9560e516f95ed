import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { generateOpenApiDocument } from '../../src/server/openapi-document.js';
import { getJson, startServer } from '../helpers/app-server.js';

const COMMITTED = new URL('../../openapi/openapi.json', import.meta.url);

describe('OpenAPI document', () => {
  it('is committed exactly as generated (run: node --import tsx scripts/write-openapi.ts)', async () => {
    assert.equal(await generateOpenApiDocument(), await readFile(COMMITTED, 'utf8'));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(JSON.parse(await readFile(COMMITTED, 'utf8')));
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
  });

  it('documents every endpoint with its error answers', async () => {
    const document = JSON.parse(await readFile(COMMITTED, 'utf8'));
    assert.equal(document.openapi, '3.1.0');
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(operations.sort(), [
      'DELETE /mcp',
      'GET /agents',
      'GET /catalog',
      'GET /collisions',
      'GET /context-files',
      'GET /doctor',
      'GET /doctor/{name}',
      'GET /events',
      'GET /health',
      'GET /health/live',
      'GET /health/ready',
      'GET /mcp',
      'GET /metrics',
      'GET /prompt',
      'GET /search',
      'GET /skill/{name}',
      'GET /skill/{name}/{path}',
      'GET /skills',
      'GET /skills/{name}',
      'GET /ui',
      'GET /ui/assets/{file}',
      'GET /ui/render/{name}',
      'GET /ui/skill/{name}',
      'HEAD /skill/{name}',
      'HEAD /skill/{name}/{path}',
      'POST /invocations',
      'POST /mcp',
    ]);
    const skillFile = document.paths['/skill/{name}/{path}'].get;
    assert.deepEqual(Object.keys(skillFile.responses).sort(), [
      '200',
      '304',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '503',
    ]);
    assert.deepEqual(Object.keys(skillFile.responses['200'].content).sort(), [
      'application/gzip',
      'application/json',
      'text/markdown',
      'text/plain',
    ]);
    const errorSchema = document.paths['/skills'].get.responses['400'].content['application/json'].schema;
    assert.deepEqual(errorSchema, { $ref: '#/components/schemas/ErrorBody' });
    assert.deepEqual(document.components.schemas.ErrorBody.required, ['statusCode', 'code', 'error', 'message']);
    // Each status says which codes it carries; the shared schema keeps its own description.
    assert.equal(document.components.schemas.ErrorBody.description, 'Every error answer');
    assert.equal(document.paths['/skills'].get.responses['404'], undefined);
    assert.equal(
      document.paths['/skills/{name}'].get.responses['404'].description,
      'SkillNotFound, FileNotFound or NotADirectory',
    );
    // The probes and the metrics describe the daemon, not a workspace: they open none (docs/deploy.md §Probes).
    const daemonWide = new Set(['/health/ready', '/health/live', '/metrics']);
    for (const [path, methods] of Object.entries(
      document.paths as Record<string, Record<string, { parameters?: { name: string }[] }>>,
    )) {
      if (daemonWide.has(path)) {
        for (const operation of Object.values(methods)) assert.equal(operation.parameters, undefined, path);
        continue;
      }
      for (const [method, operation] of Object.entries(methods)) {
        assert.ok(
          (operation.parameters ?? []).some((parameter) => parameter.name === 'cwd'),
          `${method} ${path} takes cwd`,
        );
      }
    }
  });

  it('names every operation and tags it, with ids unique across the document', async () => {
    const document = JSON.parse(await readFile(COMMITTED, 'utf8'));
    const ids = Object.entries(
      document.paths as Record<string, Record<string, { operationId: string; tags: string[] }>>,
    )
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId} ${op.tags}`),
      )
      .sort();
    assert.deepEqual(ids, [
      'DELETE /mcp endMcpSession mcp',
      'GET /agents listAgentViews agents',
      'GET /catalog getAgentCatalog agents',
      'GET /collisions listCollisions skills',
      'GET /context-files listContextFiles agent-text',
      'GET /doctor getDoctorReport doctor',
      'GET /doctor/{name} diagnoseName doctor',
      'GET /events streamEvents events',
      'GET /health getHealth operations',
      'GET /health/live getLiveness operations',
      'GET /health/ready getReadiness operations',
      'GET /mcp openMcpStream mcp',
      'GET /metrics getMetrics operations',
      'GET /prompt getPrompt agent-text',
      'GET /search searchSkills skills',
      'GET /skill/{name} getSkillDocument files',
      'GET /skill/{name}/{path} getSkillFile files',
      'GET /skills listSkills skills',
      'GET /skills/{name} getSkill skills',
      'GET /ui getUiPage page',
      'GET /ui/assets/{file} getUiAsset page',
      'GET /ui/render/{name} renderSkillBody page',
      'GET /ui/skill/{name} getUiSkillPage page',
      'HEAD /skill/{name} headSkillDocument files',
      'HEAD /skill/{name}/{path} headSkillFile files',
      'POST /invocations expandInvocation agent-text',
      'POST /mcp postMcpMessage mcp',
    ]);
    assert.deepEqual(
      (document.tags as { name: string; description: string }[]).map((tag) => tag.name),
      ['agent-text', 'agents', 'doctor', 'events', 'files', 'mcp', 'operations', 'page', 'skills'],
    );
  });

  it('has named component schemas for the shapes clients share, every event payload included', async () => {
    const document = JSON.parse(await readFile(COMMITTED, 'utf8'));
    assert.deepEqual(Object.keys(document.components.schemas).sort(), [
      'AgentCatalog',
      'AgentCatalogEntry',
      'AgentCell',
      'AgentCollision',
      'AgentFinding',
      'AgentInfo',
      'AgentMatrix',
      'AgentMatrixRow',
      'AgentSkill',
      'AgentSkillIndex',
      'AgentSkillSource',
      'Collision',
      'CollisionCandidate',
      'CollisionEvent',
      'CollisionList',
      'ContextFiles',
      'Diagnostic',
      'DiagnosticEvent',
      'DirectoryEntries',
      'DoctorReport',
      'ErrorBody',
      'Finding',
      'Health',
      'HelloEvent',
      'IndexEvent',
      'InvocationRequest',
      'InvocationResult',
      'JsonRpcError',
      'JsonRpcMessage',
      'Liveness',
      'NameDiagnosis',
      'Readiness',
      'RenderedSkillBody',
      'ResetEvent',
      'RuleCount',
      'SearchAnswer',
      'SearchResult',
      'ServerSentEvent',
      'SettingsErrorEvent',
      'SettingsEvent',
      'ShadowedCandidate',
      'Skill',
      'SkillDetail',
      'SkillIndex',
      'SkillSource',
      'Warning',
      'WarningEvent',
    ]);
    const skills = document.paths['/skills'].get.responses['200'].content['application/json'].schema;
    // The default view, or with `agent=` the view of that agent (docs/api.md "Agent views").
    assert.deepEqual(skills, {
      anyOf: [{ $ref: '#/components/schemas/SkillIndex' }, { $ref: '#/components/schemas/AgentSkillIndex' }],
    });
    const index = document.components.schemas.SkillIndex.properties;
    assert.deepEqual(index.skills.items, { $ref: '#/components/schemas/Skill' });
    assert.deepEqual(index.warnings.items, { $ref: '#/components/schemas/Warning' });
    assert.deepEqual(index.collisions.items, { $ref: '#/components/schemas/Collision' });
    assert.deepEqual(index.diagnostics.items, { $ref: '#/components/schemas/Diagnostic' });
    const stream = document.paths['/events'].get.responses['200'].content['text/event-stream'].schema;
    assert.deepEqual(stream, { $ref: '#/components/schemas/ServerSentEvent' });
    const frames = document.components.schemas.ServerSentEvent.anyOf as {
      properties: { event: { enum: string[] }; data: { $ref: string } };
    }[];
    assert.deepEqual(
      frames.map((frame) => `${frame.properties.event.enum.join()} ${frame.properties.data.$ref}`),
      [
        'hello #/components/schemas/HelloEvent',
        'index #/components/schemas/IndexEvent',
        'collision #/components/schemas/CollisionEvent',
        'warning #/components/schemas/WarningEvent',
        'settings #/components/schemas/SettingsEvent',
        'settings-error #/components/schemas/SettingsErrorEvent',
        'reset #/components/schemas/ResetEvent',
        'diagnostic #/components/schemas/DiagnosticEvent',
      ],
    );
    // The doctor's finding is one schema, in the report and in the live event alike.
    assert.deepEqual(document.components.schemas.DiagnosticEvent.properties.finding, {
      $ref: '#/components/schemas/Finding',
    });
    assert.deepEqual(document.components.schemas.DoctorReport.properties.findings.items, {
      $ref: '#/components/schemas/Finding',
    });
  });

  it('declares the request and response headers clients use, and the security of each route', async () => {
    const document = JSON.parse(await readFile(COMMITTED, 'utf8'));
    const headerParams = (op: { parameters?: { in: string; name: string }[] }) =>
      (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    assert.deepEqual(headerParams(document.paths['/skills'].get), ['if-none-match']);
    assert.deepEqual(headerParams(document.paths['/skill/{name}/{path}'].get), ['if-none-match']);
    assert.deepEqual(headerParams(document.paths['/events'].get), ['last-event-id']);
    assert.deepEqual(headerParams(document.paths['/mcp'].post), ['mcp-session-id']);
    assert.deepEqual(document.paths['/skills'].get.responses['200'].headers, {
      ETag: {
        schema: { type: 'string' },
        description: 'Tag of this answer; send it back in `If-None-Match` to get 304 while it is unchanged',
      },
    });
    assert.deepEqual(Object.keys(document.paths['/skill/{name}'].get.responses['200'].headers), [
      'ETag',
      'Last-Modified',
      'X-Skill-Source-Path',
    ]);
    const operations = Object.entries(
      document.paths as Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>,
    ).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ label: `${method} ${path}`, op })));
    let challenged = 0;
    for (const { label, op } of operations) {
      if (op.responses['401'] !== undefined) {
        challenged++;
        assert.deepEqual(Object.keys(op.responses['401'].headers ?? {}), ['WWW-Authenticate'], label);
      }
      if (op.responses['503'] === undefined) continue;
      assert.deepEqual(Object.keys(op.responses['503'].headers ?? {}), ['Retry-After'], label);
    }
    // Every operation but the open liveness probe can be refused for want of a token.
    assert.equal(challenged, operations.length - 1);
    // The wildcard route's `*` is `{path}`, and the route without it has no such parameter.
    assert.deepEqual(
      document.paths['/skill/{name}'].get.parameters.filter((p: { in: string }) => p.in === 'path'),
      [
        {
          schema: { type: 'string' },
          in: 'path',
          name: 'name',
          required: true,
          description: 'Skill name, percent-decoded once',
        },
      ],
    );
    assert.deepEqual(document.security, [{ bearer: [] }]);
    assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['bearer', 'queryToken']);
    const open = Object.entries(document.paths as Record<string, Record<string, { security?: unknown }>>)
      .filter(([, methods]) => methods.get?.security !== undefined)
      .map(([path, methods]) => `${path} ${JSON.stringify(methods.get?.security)}`);
    assert.deepEqual(open, [
      '/health [{},{"bearer":[]}]',
      '/health/ready [{},{"bearer":[]}]',
      '/health/live [{},{"bearer":[]}]',
      '/events [{"bearer":[]},{"queryToken":[]}]',
      '/ui [{}]',
      '/ui/skill/{name} [{}]',
      '/ui/assets/{file} [{}]',
    ]);
    assert.deepEqual(document.servers, [{ url: '/', description: 'The daemon that serves this document' }]);
  });

  it('gives each route the media types it is served with', async () => {
    const document = JSON.parse(await readFile(COMMITTED, 'utf8'));
    const media = (path: string, method: string, status: string) =>
      Object.keys(document.paths[path][method].responses[status].content ?? {});
    // `format=xml` too is sent as markdown (test/server/prompt.test.ts checks the header).
    assert.deepEqual(media('/prompt', 'get', '200'), ['text/markdown']);
    assert.deepEqual(media('/metrics', 'get', '200'), ['text/plain']);
    assert.deepEqual(media('/metrics', 'get', '401'), ['application/json']);
    assert.deepEqual(media('/mcp', 'post', '200'), ['application/json', 'text/event-stream']);
    assert.deepEqual(media('/mcp', 'post', '202'), []);
    assert.deepEqual(media('/mcp', 'get', '200'), ['text/event-stream']);
    // The MCP transport's own refusals are JSON-RPC errors; the guards' are the error body of every route.
    assert.deepEqual(document.paths['/mcp'].post.responses['503'].content['application/json'].schema, {
      anyOf: [{ $ref: '#/components/schemas/ErrorBody' }, { $ref: '#/components/schemas/JsonRpcError' }],
    });
    assert.deepEqual(document.paths['/mcp'].post.responses['401'].content['application/json'].schema, {
      $ref: '#/components/schemas/ErrorBody',
    });
  });

  it('is served as /openapi.json, with its UI at /docs', async (t) => {
    const s = await startServer(t);
    const served = await getJson(`${s.base}/openapi.json`);
    assert.equal(served.status, 200);
    assert.deepEqual(served.body, JSON.parse(await readFile(COMMITTED, 'utf8')));
    const ui = await fetch(`${s.base}/docs`);
    assert.equal(ui.status, 200);
    assert.match(ui.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await ui.text(), /swagger-ui/i);
  });

  it('names a server that resolves to the origin it was fetched from, on any host and port', async (t) => {
    // What the page at /docs does on "Try it out": resolve `servers` against the document's own URL, then call it.
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/pdf/SKILL.md': '---\ndescription: PDF tools\n---\n' },
    });
    const origin = `http://localhost:${s.port}`;
    const served = await getJson(`${origin}/openapi.json`);
    const documentUrl = `${origin}/openapi.json`;
    const server = new URL((served.body as { servers: { url: string }[] }).servers[0]!.url, documentUrl);
    assert.equal(server.origin, origin);
    const answer = await fetch(new URL('skills/pdf', server), { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    assert.equal(answer.status, 200);
    assert.equal(((await answer.json()) as { name: string }).name, 'pdf');
  });
});
