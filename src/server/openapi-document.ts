// The OpenAPI document as committed in openapi/openapi.json: generated from a throw-away app whose workspace is a
// fresh empty directory, so that nothing of the machine it runs on leaks into the document.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../discovery/settings.js';
import { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { buildApp } from './listen.js';

/** The document's text: two-space indented JSON and a final newline. */
export async function generateOpenApiDocument(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skillsd-openapi-'));
  const settings = defaultSettings();
  const registry = new WorkspaceRegistry({ home: dir, env: {}, defaultCwd: dir, settings, watch: false });
  try {
    const app = await buildApp({ registry, getSettings: () => settings });
    try {
      return `${JSON.stringify(await app.openApiDocument(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await registry.close();
    await rm(dir, { recursive: true, force: true });
  }
}
