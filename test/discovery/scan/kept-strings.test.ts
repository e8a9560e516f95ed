// The strings a scan's records and maps keep for the life of a snapshot are flat, equal paths are one string, and a
// note many files earn alike is one string (docs/memory.md).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { isFlat, stringShapes } from '../../helpers/string-shapes.js';
import { makeTempDir, writeTree } from '../../helpers/temp-tree.js';

const dist = pathToFileURL(join(import.meta.dirname, '../../../dist/discovery/scan/scan-skills-dir.js')).href;

/** Needs the second reading (an unquoted `: ` in a compact value): every such file earns the same note. */
const NEEDS_QUOTING = '---\nname: NAME\ndescription: Use when: the user asks\n---\nbody\n';

describe('strings kept by a scan', () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(() => Promise.all(cleanups.map((cleanup) => cleanup())));

  for (const blocking of [true, false]) {
    it(`are flat, shared when equal, with one copy of a repeated note (${blocking ? 'synchronous' : 'asynchronous'} reads)`, async () => {
      const temp = await makeTempDir('skillsd-kept-strings-');
      cleanups.push(temp.cleanup);
      const dir = join(temp.dir, 'workspace-with-a-long-name', '.claude', 'skills');
      await writeTree(dir, {
        'first-skill-with-a-long-name/SKILL.md': NEEDS_QUOTING.replace('NAME', 'first'),
        'second-skill-with-a-long-name/SKILL.md': NEEDS_QUOTING.replace('NAME', 'second'),
      });
      const shapes = stringShapes(
        temp.dir,
        `const { scanSkillsDir } = await import(${JSON.stringify(dist)});
         const realpaths = new Map();
         const diagnostics = [];
         const { skills } = await scanSkillsDir(${JSON.stringify(dir)}, {
           requireDescription: true, profile: 'claude', provider: 'claude', providerName: 'Claude Code',
           level: 'project', realpaths, diagnostics, blocking: ${blocking},
         });
         if (skills.length !== 2 || diagnostics.length !== 2) throw new Error(JSON.stringify({ skills, diagnostics }));
         gc();
         for (const skill of skills) {
           show(skill.filePath); show(skill.source.path); show(realpaths.get(skill.filePath));
           show(skill.baseDir); show(skill.source.id);
         }
         show(diagnostics[0].message); show(diagnostics[1].message);`,
      );
      assert.equal(shapes.length, 12);
      const notFlat = shapes.filter((shape) => !isFlat(shape));
      assert.deepEqual(notFlat, []);
      for (const first of [0, 5]) {
        const [filePath, sourcePath, realpath] = shapes.slice(first, first + 3);
        assert.equal(sourcePath!.address, filePath!.address);
        assert.equal(realpath!.address, filePath!.address);
      }
      // One source id and one note for both records.
      assert.equal(shapes[9]!.address, shapes[4]!.address);
      assert.equal(shapes[11]!.address, shapes[10]!.address);
    });
  }

  it('a directory shown otherwise than read keeps both paths flat', async () => {
    const temp = await makeTempDir('skillsd-kept-strings-');
    cleanups.push(temp.cleanup);
    const dir = join(temp.dir, 'workspace-with-a-long-name', 'custom-skills');
    await writeTree(dir, { 'only-skill-with-a-long-name/SKILL.md': NEEDS_QUOTING.replace('NAME', 'only') });
    for (const blocking of [true, false]) {
      const shapes = stringShapes(
        temp.dir,
        `const { scanSkillsDir } = await import(${JSON.stringify(dist)});
         const { skills } = await scanSkillsDir(${JSON.stringify(dir)}, {
           requireDescription: true, profile: 'claude', provider: 'custom', providerName: 'Custom',
           level: 'project', shownDir: 'custom-skills/../custom-skills', blocking: ${blocking},
         });
         const [skill] = skills;
         if (skill.filePath !== 'custom-skills/only-skill-with-a-long-name/SKILL.md') throw new Error(skill.filePath);
         gc();
         show(skill.filePath); show(skill.baseDir); show(skill.source.path);`,
      );
      assert.deepEqual(
        shapes.filter((shape) => !isFlat(shape)),
        [],
      );
    }
  });
  it('frontmatter values are copies, not slices of the file they were read from (fast path and YAML)', async () => {
    const temp = await makeTempDir('skillsd-kept-strings-');
    cleanups.push(temp.cleanup);
    const dir = join(temp.dir, 'workspace', '.claude', 'skills');
    await writeTree(dir, {
      // A plain block the fast path reads, a value with an unquoted `: ` (the second reading), and a block scalar
      // that only the YAML parser reads.
      'plain/SKILL.md':
        '---\nname: plain\ndescription: Splits and merges PDF documents\nlicense: Apache License 2.0 or later\n---\nbody\n',
      'quoting/SKILL.md': '---\nname: quoting\ndescription: Use when: the user asks for a PDF merge\n---\nbody\n',
      'block/SKILL.md':
        '---\nname: block\ndescription: |\n  Reads the block scalar of a long description\nlicense: Apache License 2.0 or later\n---\nbody\n',
    });
    for (const blocking of [true, false]) {
      const shapes = stringShapes(
        temp.dir,
        `const { scanSkillsDir } = await import(${JSON.stringify(dist)});
         const { skills } = await scanSkillsDir(${JSON.stringify(dir)}, {
           requireDescription: true, profile: 'claude', provider: 'claude', providerName: 'Claude Code',
           level: 'project', blocking: ${blocking},
         });
         const byName = new Map(skills.map((skill) => [skill.name, skill]));
         if (byName.size !== 3) throw new Error(JSON.stringify(skills));
         gc();
         for (const name of ['plain', 'quoting', 'block']) {
           const skill = byName.get(name);
           show(skill.description); show(skill.frontmatter.description);
         }
         show(byName.get('plain').frontmatter.license); show(byName.get('block').frontmatter.license);`,
      );
      assert.equal(shapes.length, 8);
      assert.deepEqual(
        shapes.filter((shape) => !isFlat(shape)),
        [],
        blocking ? 'synchronous reads' : 'asynchronous reads',
      );
    }
  });
});
