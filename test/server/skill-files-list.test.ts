// `GET /skill/{name}/?list`: the skill's top directory, since `/skill/{name}/` itself is the SKILL.md (docs/api.md).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

describe('GET /skill/{name}/?list', () => {
  it('lists the top directory, as text or JSON; without ?list the same URL is the SKILL.md', async (t) => {
    const skillMd = SK({ name: 'pdf', description: 'PDF tools' });
    const s = await startServer(t, {
      tree: {
        'work/.musepi/skills/pdf/SKILL.md': skillMd,
        'work/.musepi/skills/pdf/reference.md': 'ref\n',
        'work/.musepi/skills/pdf/scripts/run.sh': 'echo\n',
      },
    });
    const text = await fetch(`${s.base}/skill/pdf/?list`);
    assert.equal(text.status, 200);
    assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await text.text(), 'scripts/\nreference.md\nSKILL.md\n');
    const json = await getJson(`${s.base}/skill/pdf/?list=`, { headers: { accept: 'application/json' } });
    assert.deepEqual(json.body, {
      entries: [
        { name: 'scripts', type: 'directory', size: 0 },
        { name: 'reference.md', type: 'file', size: 4 },
        { name: 'SKILL.md', type: 'file', size: Buffer.byteLength(skillMd) },
      ],
    });
    assert.equal(await (await fetch(`${s.base}/skill/pdf/`)).text(), skillMd);
    // Below the top, a directory is listed with or without it.
    assert.equal(await (await fetch(`${s.base}/skill/pdf/scripts?list`)).text(), 'run.sh\n');
  });
});
