// One bound on path depth for both faces (SECURITY.md "Small bounds"): `skill://` URIs obey the 64-segment bound of
// `/skill/<name>/<path>`, with the same words. A link to its own directory (`loop -> .`) makes a path of any depth
// resolve, one lookup per segment.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/app-server.js';
import { connectHttp, DirectoryReadResult } from '../helpers/mcp-client.js';
import { SK } from '../helpers/temp-tree.js';

const TREE = {
  'work/.musepi/skills/pdf/SKILL.md': SK({ name: 'pdf', description: 'PDF tools' }),
  'work/.musepi/skills/pdf/loop': { symlink: '.' },
  // 63 real directories and a file: 64 segments, the deepest path served (a link followed 40 times is ELOOP).
  [`work/.musepi/skills/pdf/${'d/'.repeat(63)}deep.txt`]: 'deep\n',
};
const BOUND = 'Paths of more than 64 segments are not allowed in skill:// URLs';

describe('skill:// path depth', () => {
  it('refuses more than 64 segments in resources/read, subscribe and directory/read as the file route does', async (t) => {
    const s = await startServer(t, { tree: TREE });
    const mcp = await connectHttp(`${s.base}/mcp`);
    t.after(() => mcp.close());
    const deep = `${'loop/'.repeat(600)}SKILL.md`;
    const rest = await fetch(`${s.base}/skill/pdf/${deep}`);
    assert.equal(rest.status, 400);
    assert.deepEqual(await rest.json(), { statusCode: 400, code: 'InvalidPath', error: 'Bad Request', message: BOUND });

    const refused = { code: -32602, message: `MCP error -32602: ${BOUND}`, data: { code: 'InvalidPath' } };
    await assert.rejects(mcp.client.readResource({ uri: `skill://pdf/${deep}` }), refused);
    await assert.rejects(mcp.client.subscribeResource({ uri: `skill://pdf/${deep}` }), refused);
    await assert.rejects(
      mcp.client.request(
        { method: 'resources/directory/read', params: { uri: `skill://pdf/${'loop/'.repeat(600)}loop` } },
        DirectoryReadResult,
      ),
      refused,
    );
    // The edge: 64 segments are served, 65 are refused before anything is looked up.
    const atBound = await mcp.client.readResource({ uri: `skill://pdf/${'d/'.repeat(63)}deep.txt` });
    assert.deepEqual(atBound.contents, [
      { uri: `skill://pdf/${'d/'.repeat(63)}deep.txt`, mimeType: 'text/plain', text: 'deep\n' },
    ]);
    await assert.rejects(mcp.client.readResource({ uri: `skill://pdf/${'d/'.repeat(64)}deep.txt` }), refused);
  });
});
