// `skillsd mcp` speaks MCP on stdio without loading the HTTP face: no module of dist/server/ and no Fastify. Every
// module the real CLI process resolves or requires is recorded (test/helpers/record-modules.mjs) and read once it has
// exited, after an `initialize` and a `tools/list` answered over stdin/stdout.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DaemonProcess } from '../helpers/spawn-daemon.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const RECORDER = fileURLToPath(new URL('../helpers/record-modules.mjs', import.meta.url));

/** The HTTP face: its directory of the build, and the framework it stands on. */
const HTTP_ONLY = /\/dist\/server\/|\/node_modules\/(fastify|@fastify\/[^/]+|fastify-plugin)\//;

interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id: number;
  result?: { tools?: Array<{ name: string }>; serverInfo?: { name: string } };
}

describe('skillsd mcp (stdio) loads no module of the HTTP face', () => {
  it('answers initialize and tools/list, and has loaded nothing of dist/server/ nor fastify', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-mcp-modules-');
    t.after(cleanup);
    await writeTree(dir, {
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
      'project/.git': { dir: true },
    });
    const log = `${dir}/modules.txt`;
    const mcp = new DaemonProcess(['mcp', '--cwd', `${dir}/project`], {
      home: `${dir}/home`,
      env: { NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_MODULE_LOG: log },
    });
    t.after(() => mcp.kill());
    // stdout carries JSON-RPC only: the process's parsed stdout lines are the answers.
    const answer = async (id: number) =>
      (await mcp.waitForLog((line) => (line as unknown as JsonRpcAnswer).id === id)) as unknown as JsonRpcAnswer;
    const send = (message: unknown) => mcp.child.stdin!.write(`${JSON.stringify(message)}\n`);

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'skillsd-test', version: '1.0.0' },
      },
    });
    assert.equal((await answer(1)).result?.serverInfo?.name, 'skillsd');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    assert.deepEqual(
      (await answer(2)).result?.tools?.map((tool) => tool.name),
      ['load_skill', 'read_skill_file', 'search_skills'],
    );
    // The end of stdin ends the session, and the process exits on its own: the recorder writes its last lines then.
    mcp.child.stdin!.end();
    assert.deepEqual(await mcp.waitForExit(), { code: 0, signal: null });

    const loaded = (await readFile(log, 'utf8')).split('\n');
    // The recorder saw the stdio face load: a log that records nothing cannot pass.
    assert.ok(
      loaded.some((url) => url.endsWith('/dist/mcp/stdio.js')),
      'dist/mcp/stdio.js was recorded',
    );
    assert.ok(
      loaded.some((url) => url.endsWith('/dist/cli/mcp.js')),
      'dist/cli/mcp.js was recorded',
    );
    assert.deepEqual([...new Set(loaded.filter((url) => HTTP_ONLY.test(url)))], []);
  });
});
