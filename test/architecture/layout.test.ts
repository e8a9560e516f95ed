// The layout holds its architecture (docs/architecture.md): folders import only downwards, no file imports itself
// back through others, and no file runs past 500 lines. The graph counts every import, `import type` too: a type is
// still something the reader must follow to the other file.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileCycles, readImportGraph, type SourceFile } from './import-graph.js';

const root = new URL('../..', import.meta.url).pathname;

/**
 * The folders of src/, highest first (docs/architecture.md "Folders and what they may import"): a file may import
 * its own folder and the folders ranked below it. The client is at the bottom: it imports nothing of the daemon,
 * and any folder may use it (the CLI's commands are built on it).
 */
const RANKS: Record<string, number> = {
  cli: 7,
  server: 6,
  answers: 5,
  mcp: 4,
  'live-index': 3,
  watch: 2,
  discovery: 1,
  client: 0,
};

/**
 * The one import against the ranks that is allowed: the client names the record shapes of its answers by the types
 * discovery declares them with, type-only, so nothing of discovery loads (test/e2e/cli-thin-client.test.ts).
 */
const TYPE_ONLY_ALLOWED: ReadonlyArray<readonly [from: string, to: string]> = [
  ['client', 'src/discovery/types.ts'],
  ['client', 'src/discovery/doctor/types.ts'],
];

const FASTIFY = /^(fastify|fastify-plugin|@fastify\/.+)$/;
const MCP_SDK = /^@modelcontextprotocol\//;
/** Packages a folder must not import, whatever its rank. */
const FORBIDDEN_PACKAGES: Record<string, readonly RegExp[]> = {
  discovery: [FASTIFY, MCP_SDK, /^chokidar$/, /^(node:)?https?$/],
  'live-index': [FASTIFY, MCP_SDK, /^(node:)?https?$/],
  watch: [FASTIFY, MCP_SDK, /^(node:)?https?$/],
  answers: [FASTIFY, MCP_SDK, /^chokidar$/],
  mcp: [FASTIFY, /^(node:)?https?$/],
  client: [FASTIFY, MCP_SDK, /^chokidar$/, /^pino(-pretty)?$/],
};

/**
 * Built-ins taken from the runtime (`process.getBuiltinModule`), never imported as ES modules but for their types: the
 * namespace of `node:http` reads `http.WebSocket`, which loads undici on Node 22 and later (docs/performance.md
 * "Client commands", test/e2e/http-builtin-namespace.test.ts).
 */
const RUNTIME_ONLY = /^(node:)?https?$/;

const MAX_LINES = 500;

/**
 * Cycles and long files of today, being taken apart: each entry must still be a violation (the test fails once one
 * is fixed, so that the list only shrinks), and nothing may be added to it.
 */
const KNOWN_EXCEPTIONS: readonly string[] = [];

/** `src/server/app.ts` is in `server`; the entry points `src/cli.ts` and `src/skillsd.cts` (the bin) are the CLI's. */
function folderOf(path: string): string {
  return path === 'src/cli.ts' || path === 'src/skillsd.cts' ? 'cli' : (path.split('/')[1] ?? '');
}

function upwardImports(graph: ReadonlyMap<string, SourceFile>): string[] {
  const found: string[] = [];
  for (const file of graph.values()) {
    const from = folderOf(file.path);
    for (const target of file.files) {
      const to = folderOf(target);
      if (to === from) continue;
      const allowed =
        (RANKS[to] ?? Number.POSITIVE_INFINITY) < (RANKS[from] ?? Number.NEGATIVE_INFINITY) ||
        (file.typeOnlyFiles.includes(target) &&
          TYPE_ONLY_ALLOWED.some(([folder, path]) => folder === from && path === target));
      if (!allowed) found.push(`${file.path} (${from}) imports ${target} (${to})`);
    }
  }
  return found;
}

function forbiddenPackages(graph: ReadonlyMap<string, SourceFile>): string[] {
  const found: string[] = [];
  for (const file of graph.values()) {
    const rules = FORBIDDEN_PACKAGES[folderOf(file.path)] ?? [];
    for (const name of file.packages) {
      if (rules.some((rule) => rule.test(name))) found.push(`${file.path} imports ${name}`);
    }
  }
  return found;
}

function namespaceImports(graph: ReadonlyMap<string, SourceFile>): string[] {
  const found: string[] = [];
  for (const file of graph.values()) {
    for (const name of new Set(file.packages)) {
      if (RUNTIME_ONLY.test(name) && !file.typeOnlyPackages.includes(name)) found.push(`${file.path} imports ${name}`);
    }
  }
  return found;
}

/**
 * Every file `start` loads or may load, itself included, through any chain of imports that is not type-only (lazy
 * ones too: what a command might load later counts).
 */
function reachable(graph: ReadonlyMap<string, SourceFile>, start: string): string[] {
  const seen = new Set([start]);
  for (const path of seen) {
    const file = graph.get(path);
    for (const target of file?.files ?? []) if (!file?.typeOnlyFiles.includes(target)) seen.add(target);
  }
  return [...seen].sort();
}

function violations(graph: ReadonlyMap<string, SourceFile>): string[] {
  const edges = new Map([...graph.values()].map((file) => [file.path, file.files]));
  return [
    ...fileCycles(edges).map((cycle) => `cycle: ${cycle.join(', ')}`),
    ...[...graph.values()].filter((file) => file.lines > MAX_LINES).map((file) => `long: ${file.path}`),
  ].sort();
}

describe('the layout of src/', () => {
  const graph = readImportGraph(root);

  it('is read whole: every imported file exists, and the app imports its routes', () => {
    assert.ok(graph.size > 100, `${graph.size} files`);
    const missing = [...graph.values()].flatMap((file) =>
      file.files.filter((target) => !graph.has(target)).map((target) => `${file.path} imports ${target}`),
    );
    assert.deepEqual(missing, []);
    assert.ok(graph.get('src/server/app.ts')?.files.includes('src/server/routes/skills.ts'));
    assert.ok(graph.get('src/cli.ts')?.files.includes('src/cli/mcp.ts'), 'a dynamic import is an import');
    assert.deepEqual(graph.get('src/skillsd.cts')?.files, ['src/cli.ts'], 'the bin is read too');
    assert.ok(graph.get('src/client/api-types.ts')?.typeOnlyFiles.includes('src/discovery/types.ts'));
  });

  it('imports only downwards: cli > server > answers > mcp > live-index > watch > discovery > client', () => {
    assert.deepEqual(upwardImports(graph), []);
  });

  it('keeps the HTTP framework, the MCP SDK and the watcher out of the folders below them', () => {
    assert.deepEqual(forbiddenPackages(graph), []);
  });

  it('takes node:http and node:https from the runtime: no file imports them but for their types', () => {
    assert.ok(graph.get('src/client/http-fetch.ts')?.typeOnlyPackages.includes('node:http'));
    assert.deepEqual(namespaceImports(graph), []);
  });

  it('lets `skillsd mcp` and the client entry reach nothing of the HTTP server', () => {
    const stdio = reachable(graph, 'src/cli/mcp.ts');
    assert.ok(stdio.includes('src/mcp/stdio.ts'));
    assert.deepEqual(
      stdio.filter((path) => path.startsWith('src/server/')),
      [],
    );
    const client = reachable(graph, 'src/client/index.ts');
    assert.ok(client.includes('src/client/skillsd-client.ts'));
    assert.deepEqual(
      client.filter((path) => !path.startsWith('src/client/')),
      [],
    );
  });

  it('has no file cycle and no file over 500 lines, but for the known exceptions still being removed', () => {
    const found = violations(graph);
    assert.deepEqual(
      found.filter((violation) => !KNOWN_EXCEPTIONS.includes(violation)),
      [],
      'new violations',
    );
    assert.deepEqual(
      KNOWN_EXCEPTIONS.filter((exception) => !found.includes(exception)),
      [],
      'fixed: remove these from KNOWN_EXCEPTIONS',
    );
  });
});

describe('the layout checks', () => {
  const file = (path: string, files: string[], extra: Partial<SourceFile> = {}): [string, SourceFile] => [
    path,
    { path, files, typeOnlyFiles: [], packages: [], typeOnlyPackages: [], lines: 1, ...extra },
  ];

  it('find an upward import, and allow only the listed type-only one', () => {
    const graph = new Map([
      file('src/mcp/a.ts', ['src/server/b.ts', 'src/live-index/c.ts']),
      file('src/server/b.ts', ['src/mcp/a.ts']),
      file('src/live-index/c.ts', []),
      file('src/client/d.ts', ['src/discovery/types.ts', 'src/discovery/e.ts'], {
        typeOnlyFiles: ['src/discovery/types.ts', 'src/discovery/e.ts'],
      }),
      file('src/client/f.ts', ['src/discovery/types.ts']),
      file('src/discovery/types.ts', []),
      file('src/discovery/e.ts', []),
    ]);
    assert.deepEqual(upwardImports(graph), [
      'src/mcp/a.ts (mcp) imports src/server/b.ts (server)',
      'src/client/d.ts (client) imports src/discovery/e.ts (discovery)',
      'src/client/f.ts (client) imports src/discovery/types.ts (discovery)',
    ]);
  });

  it('find a forbidden package', () => {
    const graph = new Map([
      file('src/discovery/a.ts', [], { packages: ['node:fs', 'node:http', 'chokidar'] }),
      file('src/mcp/b.ts', [], { packages: ['@modelcontextprotocol/sdk/server/index.js', 'fastify'] }),
    ]);
    assert.deepEqual(forbiddenPackages(graph), [
      'src/discovery/a.ts imports node:http',
      'src/discovery/a.ts imports chokidar',
      'src/mcp/b.ts imports fastify',
    ]);
  });

  it('find an import of node:http or node:https that is not type-only', () => {
    const graph = new Map([
      file('src/client/a.ts', [], { packages: ['node:http', 'node:net'] }),
      file('src/server/b.ts', [], { packages: ['node:http', 'node:https'], typeOnlyPackages: ['node:http'] }),
      file('src/server/c.ts', [], { packages: ['node:http'], typeOnlyPackages: ['node:http'] }),
    ]);
    assert.deepEqual(namespaceImports(graph), [
      'src/client/a.ts imports node:http',
      'src/server/b.ts imports node:https',
    ]);
  });

  it('find every file of a cycle, and a long file', () => {
    const graph = new Map([
      file('src/live-index/a.ts', ['src/live-index/b.ts']),
      file('src/live-index/b.ts', ['src/live-index/c.ts']),
      file('src/live-index/c.ts', ['src/live-index/a.ts', 'src/live-index/d.ts']),
      file('src/live-index/d.ts', [], { lines: 501 }),
      file('src/live-index/e.ts', ['src/live-index/d.ts'], { lines: 500 }),
    ]);
    assert.deepEqual(violations(graph), [
      'cycle: src/live-index/a.ts, src/live-index/b.ts, src/live-index/c.ts',
      'long: src/live-index/d.ts',
    ]);
  });
});
