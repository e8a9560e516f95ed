import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { concatFlat, flattened } from '../../src/discovery/flat-string.js';
import { stringShapes } from '../helpers/string-shapes.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const dist = pathToFileURL(join(import.meta.dirname, '../../dist/discovery/flat-string.js')).href;

describe('flat strings', () => {
  let cleanup: (() => Promise<void>) | undefined;
  after(() => cleanup?.());

  it('concatFlat writes the parts one after the other', () => {
    assert.equal(concatFlat('/home/u/.claude/skills/', 'pdf', '/SKILL.md'), '/home/u/.claude/skills/pdf/SKILL.md');
    assert.equal(concatFlat(), '');
    assert.equal(concatFlat('only'), 'only');
  });

  it('flattened gives the same characters, short and empty strings included', () => {
    assert.equal(flattened(join('/home/u/.claude/skills', 'pdf', 'SKILL.md')), '/home/u/.claude/skills/pdf/SKILL.md');
    assert.equal(flattened(''), '');
    assert.equal(flattened('x'), 'x');
    assert.equal(flattened('é—ü'), 'é—ü');
  });

  it('what both give is flat where the same concatenation and path.join are trees of pieces', async () => {
    const temp = await makeTempDir('skillsd-flat-string-');
    cleanup = temp.cleanup;
    const shapes = stringShapes(
      temp.dir,
      `import { join } from 'node:path';
       const { concatFlat, flattened } = await import(${JSON.stringify(dist)});
       const dir = '/home/someone/.claude/skills/'.concat(String(process.pid));
       gc();
       show(dir + '/pdf-tools');
       show(join(dir, 'pdf-tools', 'SKILL.md'));
       show(concatFlat(dir, '/pdf-tools'));
       show(flattened(join(dir, 'pdf-tools', 'SKILL.md')));`,
    );
    assert.deepEqual(
      shapes.map((shape) => shape.kind),
      ['cons', 'cons', 'flat', 'flat'],
    );
  });
});
