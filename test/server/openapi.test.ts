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

  it('documents every endpoint of API.md with its error answers', async () => {
    const document = JSON.parse(await readFile(COMMITTED, 'utf8'));
    assert.equal(document.openapi, '3.1.0');
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(operations.sort(), [
      'DELETE /mcp',
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
      'GET /skill/{name}',
      'GET /skill/{name}/{path}',
      'GET /skills',
      'GET /skills/{name}',
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
    assert.deepEqual(errorSchema.required, ['statusCode', 'code', 'error', 'message']);
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
});
