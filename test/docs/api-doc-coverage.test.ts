// docs/api.md is the contract in words, openapi/openapi.json the same contract for machines: every operation and
// every event type of the document must be described on the page.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

const ROOT = new URL('../../', import.meta.url);

async function text(path: string): Promise<string> {
  return readFile(new URL(path, ROOT), 'utf8');
}

describe('docs/api.md against the OpenAPI document', () => {
  it('names every operation as `METHOD /path`', async () => {
    const document = JSON.parse(await text('openapi/openapi.json'));
    const api = await text('docs/api.md');
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `\`${method.toUpperCase()} ${path}\``),
    );
    assert.equal(operations.length, 27);
    assert.deepEqual(
      operations.filter((operation) => !api.includes(operation)),
      [],
    );
  });

  it('describes every event type of the stream in its events table', async () => {
    const document = JSON.parse(await text('openapi/openapi.json'));
    const api = await text('docs/api.md');
    const events = (
      document.components.schemas.ServerSentEvent.anyOf as { properties: { event: { enum: string[] } } }[]
    ).flatMap((frame) => frame.properties.event.enum);
    assert.equal(events.length, 8);
    assert.deepEqual(
      events.filter((event) => !api.includes(`| \`${event}\` |`)),
      [],
    );
  });
});
