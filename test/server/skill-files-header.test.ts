import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../helpers/app-server.js';
import { SK } from '../helpers/temp-tree.js';

// A header value may only hold bytes 0x09 and 0x20–0xFF: a skill directory named in Japanese, or holding a line
// break, made `X-Skill-Source-Path` throw (500), and Latin-1 names arrived as mojibake.
describe('X-Skill-Source-Path with names a header cannot carry', () => {
  const cases = [
    { dir: '日本語', name: 'ja' },
    { dir: 'José', name: 'jose' },
    { dir: 'line\nbreak', name: 'lb' },
    { dir: '100%', name: 'pct' },
  ];
  for (const { dir, name } of cases) {
    it(`percent-encodes ${JSON.stringify(dir)} and still serves the file`, async (t) => {
      const s = await startServer(t, {
        tree: { [`work/.musepi/skills/${dir}/SKILL.md`]: SK({ name, description: 'd' }) },
      });
      const path = `${s.cwd}/.musepi/skills/${dir}/SKILL.md`;
      for (const url of [`${s.base}/skill/${name}`, `${s.base}/skill/${name}/`]) {
        const response = await fetch(url);
        assert.equal(response.status, 200);
        assert.equal(await response.text(), SK({ name, description: 'd' }));
        const header = response.headers.get('x-skill-source-path') ?? '';
        assert.match(header, /^[\x21-\x7e ]+$/);
        assert.equal(decodeURIComponent(header), path);
      }
    });
  }

  it('leaves an ASCII path, spaces included, as it is', async (t) => {
    const s = await startServer(t, {
      tree: { 'work/.musepi/skills/a b/SKILL.md': SK({ name: 'ab', description: 'd' }) },
    });
    const response = await fetch(`${s.base}/skill/ab`);
    await response.text();
    assert.equal(response.headers.get('x-skill-source-path'), `${s.cwd}/.musepi/skills/a b/SKILL.md`);
  });
});
