// GET /skill/{name}/{path} for an Agent Plugins skill (docs/discovery.md §4a): its files must resolve inside the plugin root
// in every `symlinks` mode; `follow` still lets an ordinary skill's links lead anywhere (the reference).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/app-server.js';
import { agentManifest } from '../helpers/plugin-trees.js';
import { SK } from '../helpers/temp-tree.js';

// Load shedding is not what these tests are about: a loaded machine must not turn an answer into 503.
const app = { pressure: { maxEventLoopDelayMs: 60_000 } };

const TREE = {
  // An extension package of the workspace (relative to CWD) that is an Agent Plugin.
  'work/.musepi/settings.json': JSON.stringify({ extensions: ['../kit'] }),
  'kit/plugin.json': agentManifest('kit'),
  'kit/skills/alpha/SKILL.md': SK({ name: 'alpha', description: 'Alpha' }),
  'kit/skills/alpha/in-root.md': { symlink: '../../docs/shared.md' },
  'kit/skills/alpha/escape.md': { symlink: '../../../outside.txt' },
  'kit/skills/alpha/escape-dir': { symlink: '../../../outside-dir' },
  'kit/skills/alpha/missing-out': { symlink: '../../../nowhere/x' },
  'kit/docs/shared.md': 'shared\n',
  'kit/skills/alpha/sub/ok.md': 'ok\n',
  'kit/skills/alpha/sub/in': { symlink: '../../../docs' },
  'kit/skills/alpha/sub/out': { symlink: '../../../../outside-dir' },
  'outside.txt': 'secret\n',
  'outside-dir/file.txt': 'secret\n',
  'work/.musepi/skills/plain/SKILL.md': SK({ description: 'Plain' }),
  'work/.musepi/skills/plain/escape.md': { symlink: '../../../../outside.txt' },
};

async function status(base: string, path: string): Promise<[number, string]> {
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  return [response.status, response.status === 200 ? text : (JSON.parse(text) as { code: string }).code];
}

describe('GET /skill/{name}/{path} of an Agent Plugins skill', () => {
  it('follow: a link inside the plugin root is served, one leaving it is refused', async (t) => {
    const s = await startServer(t, { tree: TREE, settings: { symlinks: 'follow' }, app });
    assert.deepEqual(await status(s.base, '/skill/alpha'), [200, SK({ name: 'alpha', description: 'Alpha' })]);
    assert.deepEqual(await status(s.base, '/skill/alpha/in-root.md'), [200, 'shared\n']);
    assert.deepEqual(await status(s.base, '/skill/alpha/escape.md'), [403, 'PathEscapesSkill']);
    assert.deepEqual(await status(s.base, '/skill/alpha/escape-dir/file.txt'), [403, 'PathEscapesSkill']);
    assert.deepEqual(await status(s.base, '/skill/alpha/missing-out'), [403, 'PathEscapesSkill']);
    // A listing leaves out a directory link that leaves the root, as the route refuses it (and as contain mode does).
    assert.deepEqual(await status(s.base, '/skill/alpha/sub'), [200, 'in/\nok.md\n']);
    // An ordinary skill in follow mode is the reference: its links lead anywhere.
    assert.deepEqual(await status(s.base, '/skill/plain/escape.md'), [200, 'secret\n']);
  });

  it('contain: the skill directory bounds it, so a link elsewhere in the root is refused as well', async (t) => {
    const s = await startServer(t, { tree: TREE, app });
    assert.deepEqual(await status(s.base, '/skill/alpha/in-root.md'), [403, 'PathEscapesSkill']);
    assert.deepEqual(await status(s.base, '/skill/alpha/escape.md'), [403, 'PathEscapesSkill']);
    assert.deepEqual(await status(s.base, '/skill/plain/escape.md'), [403, 'PathEscapesSkill']);
  });
});
