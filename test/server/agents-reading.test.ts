// The agents' reading of frontmatter, custom directories and globs (docs/discovery.md §2 rules 2–4b, §5 step 4, Globs), on
// real trees through a real server: one skill per shape, and the exact records `/skills` answers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getJson, type JsonBody, startServer } from '../helpers/app-server.js';
import { makeTempDir, writeTree } from '../helpers/temp-tree.js';

/** `[dir, SKILL.md text, name, description, hide]`: each under the claude project directory (no description needed). */
const ROWS: Array<[string, string, string, string, boolean]> = [
  ['tab', '---\nname: tab-value\ndescription: x\tof: y\n---\n', 'tab-value', 'x\tof: y', false],
  ['two-docs', '---\nname: e-name\ndescription: d\n...\nhide: true\n---\n', 'two-docs', '', false],
  ['dup-keys', '---\nname: dup\ndescription: first\ndescription: |\n  second\n---\n', 'dup', 'second\n', false],
  ['merge-map', '---\n<<: {description: merged, hide: true}\nname: merge-map\n---\n', 'merge-map', 'merged', true],
  ['merge-alias', '---\nbase: &b {description: aliased}\n<<: *b\n---\n', 'merge-alias', 'aliased', false],
  ['merge-explicit', '---\ndescription: own\n<<: {description: merged}\n---\n', 'merge-explicit', 'own', false],
  ['tag-bool', '---\ndescription: !!bool "true"\nhide: !!bool "true"\n---\n', 'tag-bool', 'true', false],
  ['tag-int', '---\nname: !!int "7"\ndescription: !!binary aGk=\n---\n', '7', 'aGk=', false],
  ['tag-plain', '---\ndescription: !foo bar\ndisable-model-invocation: !!bool true\n---\n', 'tag-plain', 'bar', true],
  ['surrogate', '---\nname: surrogate\ndescription: "\\uD800 x"\n---\n', 'surrogate', '"\\uD800 x"', false],
  ['flow-text', '---\nname: [x]: suffix\ndescription: d\n---\n', '[x]: suffix', 'd', false],
  ['key-shape', '---\n1key: a: b\nname: key-shape\ndescription: >\n  folded\n---\n', 'key-shape', '', false],
  ['four-dash', '----\nname: four-dash\ndescription: d\n---\n', 'four-dash', 'd', false],
];

function records(body: JsonBody): unknown[] {
  return body.skills.map((skill: JsonBody) => ({
    name: skill.name,
    description: skill.description,
    hide: skill.hide,
    filePath: skill.filePath,
    baseDir: skill.baseDir,
  }));
}

describe('the agents’ reading on real trees (GET /skills)', () => {
  it('frontmatter: one skill per shape, read as the agents read it', async (t) => {
    const tree: Record<string, string> = {};
    for (const [dir, text] of ROWS) tree[`work/.claude/skills/${dir}/SKILL.md`] = text;
    // A native skill saved with a BOM keeps its frontmatter, so its description, so the skill itself.
    tree['work/.musepi/skills/bom/SKILL.md'] = '\ufeff---\nname: bom\ndescription: with a BOM\n---\n';
    const s = await startServer(t, { tree });
    const { status, body } = await getJson(`${s.base}/skills`);
    assert.equal(status, 200);
    const expected = [
      ...ROWS.map(([dir, , name, description, hide]) => ({
        name,
        description,
        hide,
        filePath: `${s.cwd}/.claude/skills/${dir}/SKILL.md`,
        baseDir: `${s.cwd}/.claude/skills/${dir}`,
      })),
      {
        name: 'bom',
        description: 'with a BOM',
        hide: false,
        filePath: `${s.cwd}/.musepi/skills/bom/SKILL.md`,
        baseDir: `${s.cwd}/.musepi/skills/bom`,
      },
    ];
    const byName = (a: { name: string }, b: { name: string }) =>
      a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;
    assert.deepEqual(records(body), expected.sort(byName));
    assert.deepEqual(body.warnings, []);
  });

  it('custom directories: "" finds nothing, text read as written, a relative entry stays relative', async (t) => {
    const s = await startServer(t, {
      tree: {
        'work/ws/SKILL.md': '---\ndescription: in the workspace itself\n---\n',
        'work/rel/r1/SKILL.md': '---\ndescription: relative\n---\nRelative body\n',
        'work/rel/r1/notes.md': 'notes',
        'work/T/C1/c1/SKILL.md': '---\ndescription: behind missing/..\n---\n',
        'work/bad-rel': 'a file',
      },
      settings: { skills: { customDirectories: ['', 'rel', 'T/missing/../C1', 'bad-rel'] } },
    });
    const { body } = await getJson(`${s.base}/skills`);
    assert.deepEqual(records(body), [
      { name: 'r1', description: 'relative', hide: false, filePath: 'rel/r1/SKILL.md', baseDir: 'rel/r1' },
    ]);
    assert.equal(body.skills[0].source.path, `${s.cwd}/rel/r1/SKILL.md`);
    assert.deepEqual(body.warnings, [
      {
        skillPath: 'bad-rel',
        message: "Failed to read skills directory: bad-rel (Error: ENOTDIR: not a directory, scandir 'bad-rel')",
      },
    ]);
    // The file routes resolve such a skill against the workspace.
    const file = await fetch(`${s.base}/skill/r1/notes.md`);
    assert.equal(file.status, 200);
    assert.equal(await file.text(), 'notes');
    const own = await fetch(`${s.base}/skill/r1`);
    assert.equal(own.status, 200);
    assert.match(await own.text(), /Relative body/);
  });

  it('custom directories: absolute text goes to readdir as written, and warnings quote it', async (t) => {
    const { dir: root, cleanup } = await makeTempDir();
    t.after(cleanup);
    await writeTree(root, { 'T/C1/c1/SKILL.md': '---\ndescription: d\n---\n', 'T/f': 'x' });
    const s = await startServer(t, {
      settings: { skills: { customDirectories: [`${root}/T/missing/../C1`, `${root}/T//f`, `${root}/T/C1/`] } },
    });
    const { body } = await getJson(`${s.base}/skills`);
    assert.deepEqual(records(body), [
      {
        name: 'c1',
        description: 'd',
        hide: false,
        filePath: `${root}/T/C1/c1/SKILL.md`,
        baseDir: `${root}/T/C1/c1`,
      },
    ]);
    assert.deepEqual(body.warnings, [
      {
        skillPath: `${root}/T//f`,
        message: `Failed to read skills directory: ${root}/T//f (Error: ENOTDIR: not a directory, scandir '${root}/T//f')`,
      },
    ]);
  });

  it('globs: [!a] negated, no POSIX classes, a/** needs the slash', async (t) => {
    const skill = (name: string) => `---\nname: ${JSON.stringify(name)}\n---\n`;
    const s = await startServer(t, {
      tree: {
        'work/.claude/skills/s1/SKILL.md': skill('alpha'),
        'work/.claude/skills/s2/SKILL.md': skill('a'),
        'work/.claude/skills/s3/SKILL.md': skill('a/x'),
        'work/.claude/skills/s4/SKILL.md': skill('beta'),
        'work/.claude/skills/s5/SKILL.md': skill('a]'),
        'work/.claude/skills/s6/SKILL.md': skill('g1'),
      },
      settings: { skills: { includeSkills: ['[!a]*', 'a/**', '[[:alpha:]]*'], ignoredSkills: ['[!b]eta'] } },
    });
    const { body } = await getJson(`${s.base}/skills`);
    // alpha and a: no pattern (`[[:alpha:]]` is the class `[:alph` followed by `]`; `a/**` needs `a/`); a/x: a/**;
    // a]: [[:alpha:]]*; beta and g1: [!a]*, and beta is not ignored ([!b] is "not b").
    assert.deepEqual(
      body.skills.map((skill: JsonBody) => skill.name),
      ['a/x', 'a]', 'beta', 'g1'],
    );
  });
});
