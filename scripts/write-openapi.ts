// Writes the OpenAPI document generated from the route schemas to openapi/openapi.json (docs/api.md §GET /openapi.json).
// Run: node --import tsx scripts/write-openapi.ts
// test/server/openapi.test.ts fails when the committed file differs from what this produces.

import { writeFile } from 'node:fs/promises';
import { generateOpenApiDocument } from '../src/server/openapi-document.js';

const target = new URL('../openapi/openapi.json', import.meta.url);
await writeFile(target, await generateOpenApiDocument());
console.log(`wrote ${target.pathname}`);
