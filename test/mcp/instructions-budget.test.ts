// The MCP `instructions` budget (docs/mcp.md "What the server declares"): the skills block of `GET /prompt` when it
// fits 8,000 characters, else a short fixed text that points at `search_skills`, `load_skill` and the `skill://`
// resources. Real MCP sessions over Streamable HTTP against the real app on a real port.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { catalogPointer, INSTRUCTIONS_BUDGET, sessionInstructions } from '../../src/mcp/instructions.js';
import { startServer as startAppServer, type TestServerOptions } from '../helpers/app-server.js';
import { connectHttp } from '../helpers/mcp-client.js';
import { SK } from '../helpers/temp-tree.js';

/** The real app, with load shedding out of the way: a loaded test machine must not turn these answers into 503s. */
function startServer(t: Parameters<typeof startAppServer>[0], options: TestServerOptions = {}) {
  return startAppServer(t, { ...options, app: { pressure: { maxEventLoopDelayMs: 60_000 }, ...options.app } });
}

/** 290 characters: about as long as the descriptions that made a catalog of 900 skills 271,610 characters long. */
const LONG =
  'Use when the task involves reading, writing or converting structured documents in this repository: checks the ' +
  'inputs, runs the converter with the settings of the project, compares the output with the previous run and ' +
  'explains every difference found, before anything is written back to disk.';

/** `count` skills named `skill-000`… with the long description; skill 7 alone also says `kubernetes`. */
function catalog(count: number): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    const description = i === 7 ? `${LONG} Deploys to kubernetes.` : LONG;
    tree[`work/.musepi/skills/${name}/SKILL.md`] = SK({ name, description });
  }
  return tree;
}

const POINTER_900 = [
  '# Skills',
  '900 skills are available here: too many to list.',
  'Skills are specialized knowledge. If one matches your task, you MUST load it before proceeding:',
  '- `search_skills` finds the skills for a task: give it what the task is about, in words (`extract tables from pdf`); the best matches come first.',
  '- `load_skill` loads one by name: its instructions, and the `skill://<name>` URI its files are read under.',
  '- The `skill://` resources list every skill (`resources/list`), each as `skill://<name>/SKILL.md`.',
].join('\n');

describe('MCP instructions budget', () => {
  it('is 8,000 characters: a block of exactly that is sent as it is, one character more is not', () => {
    assert.equal(INSTRUCTIONS_BUDGET, 8000);
    const fits = `# Skills & Rules\n${'x'.repeat(8000 - 17)}`;
    assert.equal(fits.length, 8000);
    assert.equal(sessionInstructions(fits, 3), fits);
    assert.equal(sessionInstructions(`${fits}y`, 3), catalogPointer(3));
    assert.equal(catalogPointer(900), POINTER_900);
    assert.equal(catalogPointer(12345).split('\n')[1], '12,345 skills are available here: too many to list.');
  });

  it('is the text docs/mcp.md shows, word for word', async () => {
    const doc = await readFile(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    assert.ok(doc.includes(`\n\`\`\`\n${POINTER_900}\n\`\`\`\n`));
  });

  it('sends the prompt block of a workspace whose catalog fits', async (t) => {
    const s = await startServer(t, { tree: catalog(20) });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const block = await (await fetch(`${s.base}/prompt`)).text();
    assert.equal(block.length, 6248);
    assert.equal(mcp.client.getInstructions(), block);
  });

  it('sends the short text at 900 skills with long descriptions, and the tools it names find and load them', async (t) => {
    const s = await startServer(t, { tree: catalog(900) });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const block = await (await fetch(`${s.base}/prompt`)).text();
    assert.equal(block.length, 273_768);
    const instructions = mcp.client.getInstructions() ?? '';
    assert.equal(instructions, POINTER_900);
    assert.ok(instructions.length <= INSTRUCTIONS_BUDGET);
    assert.equal(instructions.length, 505);

    const found = await mcp.client.callTool({ name: 'search_skills', arguments: { query: 'kubernetes', limit: 1 } });
    assert.deepEqual(
      (found.content as Array<{ text: string }>)[0]?.text.split('\t').map((field, i) => (i === 1 ? '' : field)),
      ['skill-007', '', `${LONG} Deploys to kubernetes.`, 'skill://skill-007'],
    );
    const loaded = await mcp.client.callTool({ name: 'load_skill', arguments: { name: 'skill-007' } });
    assert.equal(loaded.isError, undefined);
    const listed = await mcp.client.listResources();
    assert.equal(listed.resources[0]?.uri, 'skill://skill-000/SKILL.md');
  });

  it('bounds the search_skills query as GET /search bounds q: 1,000 characters', async (t) => {
    const s = await startServer(t, { tree: catalog(3) });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const longest = await mcp.client.callTool({ name: 'search_skills', arguments: { query: 'x'.repeat(1000) } });
    assert.deepEqual(longest.content, [{ type: 'text', text: 'No skill matches.' }]);
    assert.deepEqual(await mcp.client.callTool({ name: 'search_skills', arguments: { query: 'x'.repeat(1001) } }), {
      isError: true,
      content: [{ type: 'text', text: 'arguments.query: the search text is longer than 1000 characters' }],
    });
  });
});
