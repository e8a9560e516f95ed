// The version the MCP server reports in `initialize`: the package's own. `src/mcp/` and `dist/mcp/` both sit two
// levels below package.json.

import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function serverVersion(): string {
  if (cached !== undefined) return cached;
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  cached = typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  return cached;
}
