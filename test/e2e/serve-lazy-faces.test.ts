// An idle daemon holds only what answering `/skills` needs (docs/performance.md "Idle memory"): the MCP SDK, tar,
// pino-pretty, gray-matter (with js-yaml), `yaml`, MiniSearch, prom-client, markdown-it, the OpenAPI generator and UI, and the route schemas' compilers (Ajv, fast-json-stringify) load when something first asks for them. Every module a real daemon resolves or
// requires is recorded (test/helpers/record-modules.mjs) and read once it has exited.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openBareSession } from '../helpers/mcp-raw.js';
import { DaemonProcess } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const RECORDER = fileURLToPath(new URL('../helpers/record-modules.mjs', import.meta.url));

const LAZY = {
  mcp: /\/node_modules\/@modelcontextprotocol\/sdk\//,
  zod: /\/node_modules\/zod\//,
  tar: /\/node_modules\/tar\//,
  pretty: /\/node_modules\/pino-pretty\//,
  grayMatter: /\/node_modules\/gray-matter\//,
  promClient: /\/node_modules\/prom-client\//,
  markdownIt: /\/node_modules\/markdown-it\//,
  yaml: /\/node_modules\/yaml\//,
  miniSearch: /\/node_modules\/minisearch\//,
  swagger: /\/node_modules\/@fastify\/swagger\//,
  swaggerUi: /\/node_modules\/@fastify\/(swagger-ui|static)\//,
  // Route schemas compile on first use (src/server/lazy-schema-compilers.ts): the poll fast path needs none. (Fastify's
  // own error serializer, compiled ahead, always loads `fast-json-stringify/lib/serializer.js`; the compiler is
  // its index.)
  ajv: /\/node_modules\/ajv\//,
  fastJsonStringify: /\/node_modules\/fast-json-stringify\/index\.js$/,
};

function loadedOf(log: string): Record<keyof typeof LAZY, boolean> {
  const urls = log.split('\n');
  const has = (pattern: RegExp) => urls.some((url) => pattern.test(url));
  return {
    mcp: has(LAZY.mcp),
    zod: has(LAZY.zod),
    tar: has(LAZY.tar),
    pretty: has(LAZY.pretty),
    grayMatter: has(LAZY.grayMatter),
    promClient: has(LAZY.promClient),
    markdownIt: has(LAZY.markdownIt),
    yaml: has(LAZY.yaml),
    miniSearch: has(LAZY.miniSearch),
    swagger: has(LAZY.swagger),
    swaggerUi: has(LAZY.swaggerUi),
    ajv: has(LAZY.ajv),
    fastJsonStringify: has(LAZY.fastJsonStringify),
  };
}

/** The URL of the listening line, JSON or pretty: waits on the daemon's output, or fails when it exits first. */
async function listeningUrl(daemon: DaemonProcess): Promise<string> {
  const found = () => /skillsd listening on (http:\/\/[^\s"]+)/.exec(daemon.stdout)?.[1];
  let exited = false;
  void daemon.exited.then(() => {
    exited = true;
  });
  while (found() === undefined) {
    if (exited) throw new Error(`the daemon exited before listening: ${daemon.stderr}`);
    await Promise.race([once(daemon.child.stdout!, 'data'), daemon.exited]);
  }
  return found()!;
}

async function runDaemon(
  t: { after(fn: () => Promise<void>): void },
  skill: string,
  args: string[],
  use: (base: string, port: number) => Promise<void>,
): Promise<string> {
  const { dir, cleanup } = await makeTempDir('skillsd-lazy-');
  t.after(cleanup);
  await writeTree(dir, { 'home/.claude/skills/pdf/SKILL.md': skill, 'project/.git': { dir: true } });
  const log = `${dir}/modules.txt`;
  const daemon = new DaemonProcess(['serve', '--port', '0', '--cwd', `${dir}/project`, ...args], {
    home: `${dir}/home`,
    env: { NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_MODULE_LOG: log, NO_COLOR: '1' },
  });
  t.after(() => daemon.kill());
  const url = await listeningUrl(daemon);
  const skills = await fetch(`${url}/skills`);
  assert.equal(skills.status, 200);
  assert.deepEqual(
    ((await skills.json()) as { skills: Array<{ name: string }> }).skills.map((s) => s.name),
    ['pdf'],
  );
  await use(url, Number(new URL(url).port));
  daemon.child.kill('SIGTERM');
  assert.deepEqual(await daemon.exited, { code: 0, signal: null });
  return readFile(log, 'utf8');
}

describe('faces and features load on first use', () => {
  it('a daemon that answered /skills (simple frontmatter, JSON logs) has loaded none of them', async (t) => {
    const log = await runDaemon(t, SK({ name: 'pdf', description: 'PDF tools' }), [], async () => {});
    assert.match(log, /\/node_modules\/fastify\//);
    assert.deepEqual(loadedOf(log), {
      mcp: false,
      zod: false,
      tar: false,
      pretty: false,
      grayMatter: false,
      promClient: false,
      markdownIt: false,
      yaml: false,
      miniSearch: false,
      swagger: false,
      swaggerUi: false,
      ajv: false,
      fastJsonStringify: false,
    });
  });

  it('an MCP session, an archive, pretty logs, YAML beyond the fast path, a scrape and a rendered body load each of them', async (t) => {
    // A block scalar is YAML the fast path leaves to gray-matter.
    const skill = '---\nname: pdf\ndescription: |\n  PDF tools\n---\n\n# PDF\n';
    const log = await runDaemon(t, skill, ['--log-format', 'pretty'], async (base, port) => {
      await openBareSession(port);
      const archive = await fetch(`${base}/skill/pdf?archive=tar.gz`);
      assert.equal(archive.status, 200);
      await archive.arrayBuffer();
      const metrics = await fetch(`${base}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(
        await metrics.text(),
        /^skillsd_http_requests_total\{method="GET",route="\/skills",status="200"\} 1$/m,
      );
      const rendered = await fetch(`${base}/ui/render/pdf`);
      assert.equal(rendered.status, 200);
      assert.match(await rendered.text(), /<h1>PDF<\/h1>/);
      const found = await fetch(`${base}/search?q=pdf`);
      assert.equal(found.status, 200);
      assert.deepEqual(
        ((await found.json()) as { results: Array<{ name: string }> }).results.map((hit) => hit.name),
        ['pdf'],
      );
      const document = await fetch(`${base}/openapi.json`);
      assert.equal(document.status, 200);
      assert.equal(((await document.json()) as { openapi: string }).openapi, '3.1.0');
      const page = await fetch(`${base}/docs/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /swagger-ui/);
    });
    assert.deepEqual(loadedOf(log), {
      mcp: true,
      zod: true,
      tar: true,
      pretty: true,
      grayMatter: true,
      promClient: true,
      markdownIt: true,
      yaml: true,
      miniSearch: true,
      swagger: true,
      swaggerUi: true,
      ajv: true,
      fastJsonStringify: true,
    });
  });
});
