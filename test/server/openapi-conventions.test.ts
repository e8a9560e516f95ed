import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyOpenApiConventions, operationIdOf } from '../../src/server/openapi-conventions.js';
import { hoistNamedSchemas } from '../../src/server/openapi-named-schemas.js';

describe('operationIdOf', () => {
  const cases: { method: string; path: string; own?: string; expected: string }[] = [
    { method: 'get', path: '/skills', own: 'listSkills', expected: 'listSkills' },
    { method: 'head', path: '/skill/{name}', own: 'getSkillDocument', expected: 'headSkillDocument' },
    { method: 'head', path: '/x', own: 'fetchX', expected: 'headFetchX' },
    { method: 'get', path: '/doctor/{name}', expected: 'getDoctorByName' },
    { method: 'get', path: '/health/ready', expected: 'getHealthReady' },
    { method: 'delete', path: '/mcp', expected: 'deleteMcp' },
    { method: 'get', path: '/context-files', expected: 'getContextFiles' },
  ];
  for (const { method, path, own, expected } of cases) {
    it(`${method.toUpperCase()} ${path}${own ? ` (own ${own})` : ''} → ${expected}`, () => {
      assert.equal(operationIdOf(method, path, own), expected);
    });
  }
});

describe('applyOpenApiConventions', () => {
  it('names, tags and secures a route that declares nothing, and leaves the shared GET/HEAD object alone', () => {
    const shared = { summary: 'x', responses: {} };
    const document = applyOpenApiConventions({
      paths: {
        '/doctor/{name}': { get: { summary: 'd', responses: {} } },
        '/health': { get: shared, head: shared },
        '/events': { get: { summary: 'e', responses: {} } },
        '/newthing': { post: { summary: 'n', responses: {} } },
      },
    });
    assert.deepEqual(document.paths, {
      '/doctor/{name}': { get: { summary: 'd', responses: {}, operationId: 'getDoctorByName', tags: ['doctor'] } },
      '/health': {
        get: { ...shared, operationId: 'getHealth', tags: ['operations'], security: [{}, { bearer: [] }] },
        head: { ...shared, operationId: 'headHealth', tags: ['operations'], security: [{}, { bearer: [] }] },
      },
      '/events': {
        get: {
          summary: 'e',
          responses: {},
          operationId: 'getEvents',
          tags: ['events'],
          security: [{ bearer: [] }, { queryToken: [] }],
        },
      },
      '/newthing': { post: { summary: 'n', responses: {}, operationId: 'postNewthing', tags: ['newthing'] } },
    });
    assert.deepEqual(shared, { summary: 'x', responses: {} });
    assert.deepEqual(document.tags, [
      { name: 'doctor', description: 'Why the index is what it is' },
      { name: 'events', description: 'Live changes of the index as Server-Sent Events' },
      { name: 'newthing', description: 'The `/newthing` routes' },
      { name: 'operations', description: 'Probes and counters for people, supervisors and orchestrators' },
    ]);
  });

  it('refuses two operations with one id, naming both', () => {
    assert.throws(
      () =>
        applyOpenApiConventions({
          paths: { '/a': { get: { operationId: 'same' } }, '/b': { get: { operationId: 'same' } } },
        }),
      { message: 'OpenAPI: operationId "same" of GET /b is also GET /a\'s' },
    );
  });
});

describe('hoistNamedSchemas', () => {
  const thing = { title: 'Thing', type: 'object', description: 'A thing', properties: { a: { type: 'string' } } };

  it('moves titled schemas to components and keeps a site’s own description beside the reference', () => {
    const document = hoistNamedSchemas({
      paths: {
        '/t': {
          get: {
            responses: {
              200: { content: { 'application/json': { schema: { type: 'array', items: thing } } } },
              400: { content: { 'application/json': { schema: { ...thing, description: 'here' } } } },
            },
          },
        },
      },
      components: { securitySchemes: {} },
    });
    assert.deepEqual(document, {
      paths: {
        '/t': {
          get: {
            responses: {
              200: {
                content: {
                  'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } },
                },
              },
              400: {
                content: {
                  'application/json': { schema: { $ref: '#/components/schemas/Thing', description: 'here' } },
                },
              },
            },
          },
        },
      },
      components: { securitySchemes: {}, schemas: { Thing: thing } },
    });
  });

  it('refuses one title for two shapes', () => {
    assert.throws(
      () =>
        hoistNamedSchemas({
          paths: { '/a': { get: { x: thing } }, '/b': { get: { x: { ...thing, properties: {} } } } },
        }),
      /two different schemas are titled "Thing" \(at paths\/\/a\/get\/x and paths\/\/b\/get\/x\)/,
    );
  });
});
