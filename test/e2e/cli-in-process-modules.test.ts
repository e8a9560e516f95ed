// An in-process answer (no daemon running) indexes the workspace and answers with the routes' own computations, and
// loads nothing of the server, its router or the watcher (docs/performance.md "Client commands"): every module a real
// CLI process resolves is recorded by a resolve hook (test/helpers/record-modules.mjs) and checked.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deadUrl, runClient } from '../helpers/run-client.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const RECORDER = fileURLToPath(new URL('../helpers/record-modules.mjs', import.meta.url));

/** The HTTP framework and its plugins, the watcher and the schema builder, the app and its routes and plugins. */
const SERVER_ONLY =
  /\/node_modules\/(fastify|@fastify\/[^/]+|fastify-plugin|find-my-way|light-my-request|fast-json-stringify|ajv|@modelcontextprotocol\/[^/]+|pino|pino-pretty|prom-client|zod|tar|chokidar|typebox|close-with-grace)\/|\/dist\/(server\/(app|routes|plugins|schemas)|mcp)\/|\/dist\/watch\//;

describe('in-process answers load no server and no watcher', () => {
  it('every command that answers in-process, in text and JSON', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-inproc-modules-');
    t.after(cleanup);
    const home = `${dir}/home`;
    const project = `${dir}/project`;
    await writeTree(dir, {
      'home/.claude/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools: tables, forms' }),
      'home/.claude/skills/pdf/notes/a.txt': 'note a\n',
      'project/.git': { dir: true },
    });
    const url = await deadUrl(t);
    const commands: Array<[args: string[], exit: number]> = [
      [['ls'], 0],
      [['ls', '--json'], 0],
      [['ls', '--agent', 'codex', '--json'], 0],
      [['show', 'pdf', '--json'], 0],
      [['show', 'nope'], 1],
      [['cat', 'pdf'], 0],
      [['cat', 'pdf', 'notes'], 0],
      [['prompt'], 0],
      [['prompt', '--json'], 0],
      [['invoke', '/skill:pdf now', '--json'], 0],
      [['search', 'pdf', '--json'], 0],
      [['doctor', '--json'], 0],
      [['doctor', 'pdf'], 0],
      [['agents', '--json'], 0],
      [['catalog', '--agent', 'codex', '--json'], 0],
    ];
    for (const [index, [args, exit]] of commands.entries()) {
      const log = `${dir}/modules-${index}.txt`;
      const run = await runClient(args, {
        home,
        cwd: project,
        env: { SKILLSD_URL: url, NODE_OPTIONS: `--import=${RECORDER}`, SKILLSD_TEST_MODULE_LOG: log },
      });
      const shown = `skillsd ${args.join(' ')}`;
      assert.equal(run.code, exit, `${shown}: ${run.stderr}`);
      assert.match(run.stderr, /answered in-process for /, shown);
      const loaded = await readFile(log, 'utf8');
      // The recorder saw the answer being computed: a log that records nothing cannot pass.
      assert.match(loaded, /\/dist\/cli\/in-process-answers\.js\n/, shown);
      assert.match(loaded, /\/dist\/live-index\/workspace-registry\.js\n/, shown);
      const server = [...new Set(loaded.split('\n').filter((line) => SERVER_ONLY.test(line)))];
      assert.deepEqual(server, [], shown);
    }
  });
});
