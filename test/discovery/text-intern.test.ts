import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { MAX_TEXTS, TextIntern } from '../../src/discovery/text-intern.js';
import { stringShapes } from '../helpers/string-shapes.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const dist = pathToFileURL(join(import.meta.dirname, '../../dist/discovery/text-intern.js')).href;

describe('TextIntern', () => {
  let cleanup: (() => Promise<void>) | undefined;
  after(() => cleanup?.());

  it('gives back equal texts and keeps each distinct text once', () => {
    const texts = new TextIntern();
    assert.equal(texts.intern(`note ${'a'.repeat(20)}`), `note ${'a'.repeat(20)}`);
    assert.equal(texts.intern(`note ${'a'.repeat(20)}`), `note ${'a'.repeat(20)}`);
    assert.equal(texts.intern('other note'), 'other note');
    assert.equal(texts.size, 2);
    assert.deepEqual(texts.internAll(['other note', 'third']), ['other note', 'third']);
    assert.equal(texts.size, 3);
  });

  it('an empty list is given back as it is', () => {
    const empty: readonly string[] = Object.freeze([]);
    assert.equal(new TextIntern().internAll(empty), empty);
  });

  it(`holds at most ${MAX_TEXTS} texts and still answers past them`, () => {
    const texts = new TextIntern();
    for (let i = 0; i < MAX_TEXTS + 10; i++) assert.equal(texts.intern(`note ${i}`), `note ${i}`);
    assert.equal(texts.size, MAX_TEXTS);
    assert.equal(texts.intern('note 0'), 'note 0');
    assert.equal(texts.intern(`note ${MAX_TEXTS + 5}`), `note ${MAX_TEXTS + 5}`);
    assert.equal(texts.size, MAX_TEXTS);
  });

  it('equal texts built apart come back as one flat string', async () => {
    const temp = await makeTempDir('skillsd-text-intern-');
    cleanup = temp.cleanup;
    const shapes = stringShapes(
      temp.dir,
      `const { TextIntern } = await import(${JSON.stringify(dist)});
       const note = (line) => \`frontmatter is not valid YAML (line \${line} of the block); read again\`;
       const texts = new TextIntern();
       const line = process.pid > 0 ? 2 : 3;
       const a = texts.intern(note(line));
       const b = texts.intern(note(line));
       const [c] = texts.internAll([note(line)]);
       const apart = [note(line), note(line)];
       gc();
       show(a); show(b); show(c); show(apart[0]); show(apart[1]);`,
    );
    const [a, b, c, apartA, apartB] = shapes;
    assert.equal(a!.kind, 'flat');
    assert.equal(b!.address, a!.address);
    assert.equal(c!.address, a!.address);
    // Without the table, the same text built twice is two strings.
    assert.notEqual(apartA!.address, apartB!.address);
  });
});
