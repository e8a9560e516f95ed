import assert from 'node:assert/strict';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type WatchKey, WatchSignature } from '../../src/watch/watch-signature.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

describe('WatchSignature', () => {
  it('gives way to the work it is told to wait for between slices, and still finishes', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-signature-yield-');
    t.after(cleanup);
    const tree: Parameters<typeof writeTree>[1] = {};
    for (let i = 0; i < 20; i++) tree[`skills/s${i}/SKILL.md`] = SK({ description: `s${i}` });
    await writeTree(dir, tree);
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = 0;
    let done = false;
    const refreshing = new WatchSignature()
      .refresh([{ kind: 'dir', path: join(dir, 'skills') }], {
        deep: true,
        // Every entry is a slice: the gate is asked for after the first one.
        sliceMs: 0,
        yieldTo: () => {
          asked++;
          return gate;
        },
      })
      .then((result) => {
        done = true;
        return result;
      });
    // Many turns of the event loop: the refresh stays parked on the gate, asked once.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(done, false);
    assert.equal(asked, 1);
    release();
    const result = await refreshing;
    assert.equal(result.changed.filter((path) => path.endsWith('SKILL.md')).length, 20);
    assert.ok(asked >= 20, `asked ${asked} times`);
  });

  it('reports exactly what changed since the last refresh', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-signature-');
    t.after(cleanup);
    const skills = join(dir, 'skills');
    await writeTree(dir, {
      'skills/a/SKILL.md': SK({ description: 'a' }),
      'skills/empty': { dir: true },
      'skills/loose.md': 'ignored\n',
      'skills/.hidden/SKILL.md': SK({ description: 'hidden' }),
      'real/b/SKILL.md': SK({ description: 'b' }),
      'real/c/SKILL.md': SK({ description: 'c' }),
    });
    const keys: WatchKey[] = [
      { kind: 'dir', path: skills },
      { kind: 'marker', path: join(dir, '.git') },
    ];
    const signature = new WatchSignature();
    const first = await signature.refresh(keys, { deep: true });
    assert.deepEqual(first.changed.sort(), [
      skills,
      join(skills, 'a'),
      join(skills, 'a', 'SKILL.md'),
      join(skills, 'empty'),
    ]);

    const a = join(skills, 'a');
    const steps: Array<[string, () => Promise<unknown>, string[]]> = [
      ['nothing', async () => {}, []],
      [
        'a SKILL.md edited',
        () => writeFile(join(a, 'SKILL.md'), SK({ description: 'longer text' })),
        [join(a, 'SKILL.md')],
      ],
      [
        'a SKILL.md added to an entry',
        () => writeFile(join(skills, 'empty', 'SKILL.md'), SK({ d: 'e' })),
        [join(skills, 'empty', 'SKILL.md')],
      ],
      ['a file beside SKILL.md', () => writeFile(join(a, 'notes.txt'), 'x'), []],
      [
        'a symlinked entry',
        () => symlink(join(dir, 'real', 'b'), join(skills, 'b')),
        [join(skills, 'b'), join(skills, 'b', 'SKILL.md')],
      ],
      [
        'the symlink pointed elsewhere',
        async () => {
          await rm(join(skills, 'b'));
          await symlink(join(dir, 'real', 'c'), join(skills, 'b'));
        },
        [join(skills, 'b'), join(skills, 'b', 'SKILL.md')],
      ],
      [
        'an entry renamed',
        () => rename(a, join(skills, 'a2')),
        [a, join(a, 'SKILL.md'), join(skills, 'a2'), join(skills, 'a2', 'SKILL.md')],
      ],
      ['a .git directory', () => mkdir(join(dir, '.git')), [join(dir, '.git')]],
      ['files inside .git', () => writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n'), []],
      [
        'the skills directory removed',
        () => rm(skills, { recursive: true }),
        [
          skills,
          join(skills, 'a2'),
          join(skills, 'a2', 'SKILL.md'),
          join(skills, 'b'),
          join(skills, 'b', 'SKILL.md'),
          join(skills, 'empty'),
          join(skills, 'empty', 'SKILL.md'),
        ],
      ],
    ];
    for (const [label, step, expected] of steps) {
      await step();
      const { changed } = await signature.refresh(keys, { deep: true });
      assert.deepEqual(changed.sort(), expected.sort(), label);
    }
  });

  it('tells a missing skills directory from one that is a file or lies under a file (docs/discovery.md §3 warns)', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-signature-');
    t.after(cleanup);
    const skills = join(dir, 'skills');
    const nested = join(dir, 'tool', 'skills');
    const keys: WatchKey[] = [
      { kind: 'dir', path: skills },
      { kind: 'dir', path: nested },
    ];
    const signature = new WatchSignature();
    assert.deepEqual((await signature.refresh(keys)).changed, []);
    const steps: Array<[string, () => Promise<unknown>, string[]]> = [
      ['the skills directory appears as a file', () => writeFile(skills, 'x'), [skills]],
      ['a parent appears as a file', () => writeFile(join(dir, 'tool'), 'x'), [nested]],
      ['nothing', async () => {}, []],
      ['the file goes', () => rm(skills), [skills]],
      ['the parent file goes', () => rm(join(dir, 'tool')), [nested]],
    ];
    for (const [label, step, expected] of steps) {
      await step();
      assert.deepEqual((await signature.refresh(keys)).changed, expected, label);
    }
  });

  it('names the real targets of symlinked entries and SKILL.md files, and forgets dropped keys', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-signature-');
    t.after(cleanup);
    const skills = join(dir, 'skills');
    await writeTree(dir, {
      'skills/linked': { symlink: '../real/linked' },
      'real/linked/SKILL.md': SK({ description: 'l' }),
      'skills/file-link/SKILL.md': { symlink: '../../notes/file-link.md' },
      'notes/file-link.md': SK({ description: 'f' }),
    });
    const signature = new WatchSignature();
    await signature.refresh([{ kind: 'dir', path: skills }], { deep: true });
    const targets = signature.linkTargets().sort((x, y) => x.entryPath.localeCompare(y.entryPath));
    assert.deepEqual(targets, [
      { dir: join(dir, 'notes'), name: 'file-link.md', entryPath: join(skills, 'file-link') },
      { dir: join(dir, 'real', 'linked'), name: 'SKILL.md', entryPath: join(skills, 'linked') },
    ]);
    signature.drop({ kind: 'dir', path: skills });
    assert.deepEqual(signature.linkTargets(), []);
  });

  it('moves its links version exactly when the link targets it names may have changed', async (t) => {
    const { dir, cleanup } = await makeTempDir('skillsd-signature-links-');
    t.after(cleanup);
    const skills = join(dir, 'skills');
    await writeTree(dir, {
      'skills/plain/SKILL.md': SK({ description: 'p' }),
      'skills/linked': { symlink: '../real/one' },
      'real/one/SKILL.md': SK({ description: 'one' }),
      'real/two/SKILL.md': SK({ description: 'two' }),
    });
    const signature = new WatchSignature();
    const keys: WatchKey[] = [{ kind: 'dir', path: skills }];
    await signature.refresh(keys, { deep: true });
    const steps: Array<[string, () => Promise<unknown>, boolean]> = [
      ['nothing changed', async () => {}, false],
      ['a plain skill edited', () => writeFile(join(skills, 'plain/SKILL.md'), SK({ description: 'p2' })), false],
      ['a plain skill added', () => writeTree(dir, { 'skills/more/SKILL.md': SK({ description: 'm' }) }), false],
      ['a plain skill removed', () => rm(join(skills, 'more'), { recursive: true }), false],
      ['the linked target edited', () => writeFile(join(dir, 'real/one/SKILL.md'), SK({ description: 'o' })), false],
      [
        'the link retargeted',
        async () => {
          await rm(join(skills, 'linked'));
          await symlink('../real/two', join(skills, 'linked'));
        },
        true,
      ],
      ['another link added', () => symlink('../real/one', join(skills, 'again')), true],
      ['a link removed', () => rm(join(skills, 'again')), true],
      ['a plain SKILL.md removed', () => rm(join(skills, 'plain/SKILL.md')), false],
    ];
    for (const [label, step, moves] of steps) {
      const before = signature.linksVersion;
      await step();
      await signature.refresh(keys, { deep: true });
      assert.equal(signature.linksVersion !== before, moves, label);
    }
    await symlink('../../real/two/SKILL.md', join(skills, 'plain/SKILL.md'));
    const before = signature.linksVersion;
    await signature.refresh(keys, { deep: true });
    assert.notEqual(signature.linksVersion, before, 'a SKILL.md that is a link');
    const dropped = signature.linksVersion;
    signature.drop({ kind: 'dir', path: skills });
    assert.notEqual(signature.linksVersion, dropped, 'dropped');
    assert.deepEqual(signature.linkTargets(), []);
  });
});
