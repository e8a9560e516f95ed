// The edges of the bare-path scan of `fileReferences` (referenced-files.ts): which runs of path characters start a
// path, what a blanked link or URL leaves beside it, where the body starts, and line numbers under CRLF.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileReferences } from '../../../src/discovery/doctor/referenced-files.js';

/** [written, segments, line, link] of each reference of the body starting at `bodyStart`. */
function references(text: string, bodyStart = 0) {
  return fileReferences(text, bodyStart).map(({ written, segments, line, link }) => [
    written,
    segments.join('/'),
    line,
    link,
  ]);
}

const FRONTMATTER = '---\nname: a\nsee: scripts/front.py [f](front.md)\n---\n';

describe('doctor: bare paths of a body', () => {
  it('starts a path only where its run starts: not at a dot, a tilde or an at sign', () => {
    const body = '.hidden.md ./x.md a/b.c.md v1.2 end of a sentence in x.md. Or ~/notes.md, @scope/pkg.json.\n';
    assert.deepEqual(references(FRONTMATTER + body, FRONTMATTER.length), [
      ['./x.md', 'x.md', 5, false],
      ['a/b.c.md', 'a/b.c.md', 5, false],
    ]);
  });

  it('skips the frontmatter, even when the body starts with a dot', () => {
    const body = '.md right after the fence, then .x.md and y.md\n';
    assert.deepEqual(references(FRONTMATTER + body, FRONTMATTER.length), [['y.md', 'y.md', 5, false]]);
  });

  it('finds the runs that touch a blanked link or URL, not the link target again', () => {
    const text = '[x](y.md)scripts/a.py and scripts/b.py[z](w.md) <https://e.com/a.md>scripts/c.py y.md\n';
    assert.deepEqual(references(text), [
      ['y.md', 'y.md', 1, true],
      ['scripts/a.py', 'scripts/a.py', 1, false],
      ['scripts/b.py', 'scripts/b.py', 1, false],
      ['w.md', 'w.md', 1, true],
      ['scripts/c.py', 'scripts/c.py', 1, false],
    ]);
  });

  it('numbers lines under CRLF, links and bare paths in text order', () => {
    const text = 'one\r\ntwo: scripts/a.py\r\n[three](b.md)\r\nscripts/d.py\r\n';
    assert.deepEqual(references(text), [
      ['scripts/a.py', 'scripts/a.py', 2, false],
      ['b.md', 'b.md', 3, true],
      ['scripts/d.py', 'scripts/d.py', 4, false],
    ]);
  });

  it('keeps the first mention of a path, whichever kind comes later', () => {
    const text = 'first scripts/a.py\n[link](z.md) then a.md\n\nscripts/a.py again, [again](a.md)\n';
    assert.deepEqual(references(text), [
      ['scripts/a.py', 'scripts/a.py', 1, false],
      ['z.md', 'z.md', 2, true],
      ['a.md', 'a.md', 2, false],
    ]);
  });

  it('reads a run with several dots as one path, a URL as none', () => {
    const text = 'a.b.c.d.e.f scripts/x.tar.gz https://x.io/scripts/no.py x.io.md\n';
    assert.deepEqual(references(text), [
      ['a.b.c.d.e.f', 'a.b.c.d.e.f', 1, false],
      ['scripts/x.tar.gz', 'scripts/x.tar.gz', 1, false],
      ['x.io.md', 'x.io.md', 1, false],
    ]);
  });
});
