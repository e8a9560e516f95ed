import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSkillWatcher } from '../../src/watch/skill-watcher.js';
import type {
  SkillWatcher,
  SkillWatcherOptions,
  WatcherLogger,
  WatchTargets,
} from '../../src/watch/skill-watcher-types.js';
import { createDuringSlowRead } from '../helpers/chokidar-slow-read.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const DEADLINE_MS = WAIT_MS;
/** Re-checks out of the way: a test that a watch is still alive must not pass thanks to the re-check of an edit. */
const NO_RECHECK = { rereadDelayMs: 600_000 };
/** No change is seen but by reconciliation: polling whose first poll is ten minutes away. */
const BLIND = { usePolling: true, pollIntervalMs: 600_000 };

/** Records onChange calls and lets a test wait, with a deadline, for a condition on them. */
class Recorder {
  readonly calls: string[][] = [];
  private waiters: Array<() => void> = [];

  readonly onChange = (paths: string[]): void => {
    this.calls.push(paths);
    for (const wake of this.waiters) wake();
  };

  /** Index of the next call: `since(mark)` gives what was reported after it. */
  mark(): number {
    return this.calls.length;
  }

  since(mark: number): Set<string> {
    return new Set(this.calls.slice(mark).flat());
  }

  /**
   * Asserts that what was reported after `mark` is exactly `expected`. A path an earlier step reported may come
   * again: that is the re-check of an earlier write (its fingerprint was taken mid-write), not noise from this step.
   */
  assertReported(mark: number, expected: string[], label?: string): void {
    const earlier = new Set(this.calls.slice(0, mark).flat());
    const seen = [...this.since(mark)].filter((path) => expected.includes(path) || !earlier.has(path));
    assert.deepEqual(seen.sort(), [...expected].sort(), label);
  }

  async waitFor(label: string, predicate: () => boolean, timeoutMs = DEADLINE_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`timed out waiting for ${label}; calls: ${JSON.stringify(this.calls)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.push(done);
      });
      this.waiters = [];
    }
  }

  /** Waits until every path of `paths` was reported after `mark`. */
  waitForPaths(mark: number, paths: string[], timeoutMs = DEADLINE_MS): Promise<void> {
    return this.waitFor(
      `${paths.join(', ')}`,
      () => {
        const seen = this.since(mark);
        return paths.every((path) => seen.has(path));
      },
      timeoutMs,
    );
  }
}

/** A fresh temp dir; every watcher started through it is closed before the dir is removed. */
class Sandbox {
  private readonly watchers: SkillWatcher[] = [];

  private constructor(readonly dir: string) {}

  static async create(t: TestContext): Promise<Sandbox> {
    const { dir, cleanup } = await makeTempDir('skillsd-watch-');
    const sandbox = new Sandbox(dir);
    t.after(async () => {
      await Promise.all(sandbox.watchers.map((watcher) => watcher.close()));
      await cleanup();
    });
    return sandbox;
  }

  /** Starts a watcher; `read` runs first on every onChange (a stand-in for the index re-reading files). */
  async watch(
    targets: WatchTargets,
    options: Partial<SkillWatcherOptions> = {},
    read?: (paths: string[]) => void,
  ): Promise<{ watcher: SkillWatcher; rec: Recorder }> {
    const rec = new Recorder();
    const watcher = await createSkillWatcher({
      targets,
      onChange: (paths) => {
        read?.(paths);
        rec.onChange(paths);
      },
      ...options,
    });
    this.watchers.push(watcher);
    return { watcher, rec };
  }

  /** Writes `<dir>/skills/<entries>` and watches it as one skills directory. */
  async watchSkills(
    entries: Parameters<typeof writeTree>[1],
    options: Partial<SkillWatcherOptions> = {},
    read?: (paths: string[]) => void,
  ): Promise<{ skills: string; watcher: SkillWatcher; rec: Recorder }> {
    const skills = join(this.dir, 'skills');
    await mkdir(skills, { recursive: true });
    await writeTree(skills, entries);
    return { skills, ...(await this.watch({ skillDirs: [skills], markerDirs: [] }, options, read)) };
  }
}

describe('createSkillWatcher', () => {
  it('reports a SKILL.md created, changed and deleted in <dir>/<entry>/', async (t) => {
    const { skills, rec } = await (await Sandbox.create(t)).watchSkills({ pdf: { dir: true } });
    const skill = join(skills, 'pdf', 'SKILL.md');

    let mark = rec.mark();
    await writeFile(skill, SK({ description: 'one' }));
    await rec.waitForPaths(mark, [skill]);
    rec.assertReported(mark, [skill]);

    mark = rec.mark();
    await writeFile(skill, SK({ description: 'two, longer' }));
    await rec.waitForPaths(mark, [skill]);
    rec.assertReported(mark, [skill]);

    mark = rec.mark();
    await rm(skill);
    await rec.waitForPaths(mark, [skill]);
    rec.assertReported(mark, [skill]);
  });

  it('reports entry directories added, renamed and removed', async (t) => {
    const { skills, rec } = await (await Sandbox.create(t)).watchSkills({ 'old/SKILL.md': SK({ description: 'old' }) });
    const added = join(skills, 'added');
    const renamed = join(skills, 'renamed');

    let mark = rec.mark();
    await writeTree(skills, { 'added/SKILL.md': SK({ description: 'new' }) });
    await rec.waitForPaths(mark, [added, join(added, 'SKILL.md')]);
    rec.assertReported(mark, [added, join(added, 'SKILL.md')]);

    mark = rec.mark();
    await rename(added, renamed);
    const renamedPaths = [added, join(added, 'SKILL.md'), renamed, join(renamed, 'SKILL.md')];
    await rec.waitForPaths(mark, renamedPaths);
    rec.assertReported(mark, renamedPaths.sort());

    mark = rec.mark();
    await rm(renamed, { recursive: true });
    await rec.waitForPaths(mark, [renamed, join(renamed, 'SKILL.md')]);
    rec.assertReported(mark, [renamed, join(renamed, 'SKILL.md')]);
  });

  it('reports a symlinked entry added and removed', async (t) => {
    const box = await Sandbox.create(t);
    const { skills, rec } = await box.watchSkills({});
    const dir = box.dir;
    await writeTree(dir, { 'elsewhere/linked/SKILL.md': SK({ description: 'through a link' }) });
    const link = join(skills, 'linked');
    const expected = [link, join(link, 'SKILL.md')];

    let mark = rec.mark();
    await symlink(join(dir, 'elsewhere', 'linked'), link);
    await rec.waitForPaths(mark, expected);
    rec.assertReported(mark, expected);

    mark = rec.mark();
    await rm(link);
    await rec.waitForPaths(mark, expected);
    rec.assertReported(mark, expected);
  });

  it('sees SKILL.md edits through a symlinked entry and through a symlinked skills directory', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    await writeTree(dir, {
      'real-skill/SKILL.md': SK({ description: 'one' }),
      'skills/linked': { symlink: '../real-skill' },
      'real-skills/a/SKILL.md': SK({ description: 'one' }),
      'linked-skills': { symlink: 'real-skills' },
    });
    const skills = join(dir, 'skills');
    const linkedSkills = join(dir, 'linked-skills');
    const { rec } = await box.watch({ skillDirs: [skills, linkedSkills], markerDirs: [] }, NO_RECHECK);

    let mark = rec.mark();
    await writeFile(join(dir, 'real-skill', 'SKILL.md'), SK({ description: 'edited at the target' }));
    await rec.waitForPaths(mark, [join(skills, 'linked', 'SKILL.md')]);
    rec.assertReported(mark, [join(skills, 'linked', 'SKILL.md')]);

    mark = rec.mark();
    await writeFile(join(skills, 'linked', 'SKILL.md'), SK({ description: 'edited through the link' }));
    await rec.waitForPaths(mark, [join(skills, 'linked', 'SKILL.md')]);
    rec.assertReported(mark, [join(skills, 'linked', 'SKILL.md')]);

    mark = rec.mark();
    await writeFile(join(dir, 'real-skills', 'a', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(linkedSkills, 'a', 'SKILL.md')]);
    rec.assertReported(mark, [join(linkedSkills, 'a', 'SKILL.md')]);

    // The link's target directory deleted and recreated (possibly with the same inode number): still watched.
    const realSkill = join(dir, 'real-skill');
    mark = rec.mark();
    await rm(realSkill, { recursive: true });
    await mkdir(realSkill);
    await rec.waitForPaths(mark, [join(skills, 'linked', 'SKILL.md')]);
    mark = rec.mark();
    await writeFile(join(realSkill, 'SKILL.md'), SK({ description: 'recreated' }));
    await rec.waitForPaths(mark, [join(skills, 'linked', 'SKILL.md')]);
    mark = rec.mark();
    await writeFile(join(realSkill, 'SKILL.md'), SK({ description: 'recreated and edited' }));
    await rec.waitForPaths(mark, [join(skills, 'linked', 'SKILL.md')]);
    rec.assertReported(mark, [join(skills, 'linked', 'SKILL.md')]);

    // The skills directory's link is pointed elsewhere: the watch follows it.
    await writeTree(dir, { 'other-skills/z/SKILL.md': SK({ description: 'z' }) });
    mark = rec.mark();
    await rm(linkedSkills);
    await symlink('other-skills', linkedSkills);
    await rec.waitForPaths(mark, [
      join(linkedSkills, 'a'),
      join(linkedSkills, 'z'),
      join(linkedSkills, 'z', 'SKILL.md'),
    ]);
    mark = rec.mark();
    await writeFile(join(dir, 'other-skills', 'z', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(linkedSkills, 'z', 'SKILL.md')]);
    rec.assertReported(mark, [join(linkedSkills, 'z', 'SKILL.md')]);
  });

  it('watches single files, even under directories that do not exist yet', async (t) => {
    const box = await Sandbox.create(t);
    const file = join(box.dir, 'config', 'nested', 'settings.json');
    const { watcher, rec } = await box.watch({ skillDirs: [], markerDirs: [], files: [file] });
    assert.equal(watcher.status().pendingAncestors, 1);
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['created', () => writeTree(box.dir, { 'config/nested/settings.json': '{}' })],
      ['changed', () => writeFile(file, '{"a":1}')],
      ['deleted', () => rm(file)],
    ];
    for (const [label, step] of steps) {
      const mark = rec.mark();
      await step();
      await rec.waitFor(label, () => rec.since(mark).has(file));
      rec.assertReported(mark, [file], label);
    }
  });

  it('arms a skills directory created after start whose parent and grandparent did not exist', async (t) => {
    const box = await Sandbox.create(t);
    const skills = join(box.dir, 'home', '.claude', 'skills');
    const { watcher, rec } = await box.watch({ skillDirs: [skills], markerDirs: [] }, NO_RECHECK);
    assert.equal(watcher.status().pendingAncestors, 1);

    let mark = rec.mark();
    await mkdir(skills, { recursive: true });
    await rec.waitForPaths(mark, [skills]);
    rec.assertReported(mark, [skills]);
    assert.equal(watcher.status().pendingAncestors, 0);

    mark = rec.mark();
    await writeTree(skills, { 'late/SKILL.md': SK({ description: 'late' }) });
    await rec.waitForPaths(mark, [join(skills, 'late'), join(skills, 'late', 'SKILL.md')]);

    mark = rec.mark();
    await writeFile(join(skills, 'late', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(skills, 'late', 'SKILL.md')]);
    rec.assertReported(mark, [join(skills, 'late', 'SKILL.md')]);
  });

  it('keeps watching a skills directory deleted and recreated', async (t) => {
    const { skills, watcher, rec } = await (await Sandbox.create(t)).watchSkills(
      { 'a/SKILL.md': SK({ description: 'a' }) },
      NO_RECHECK,
    );
    const a = join(skills, 'a');

    let mark = rec.mark();
    await rm(skills, { recursive: true });
    await rec.waitForPaths(mark, [skills, a, join(a, 'SKILL.md')]);
    // The watch moves to the parent with the next event on the directory's name, maybe just after that onChange.
    await waitUntil('the watch to move to the parent', () => watcher.status().pendingAncestors === 1);

    mark = rec.mark();
    await writeTree(skills, { 'b/SKILL.md': SK({ description: 'b' }) });
    await rec.waitForPaths(mark, [skills, join(skills, 'b', 'SKILL.md')]);

    mark = rec.mark();
    await writeFile(join(skills, 'b', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(skills, 'b', 'SKILL.md')]);

    // Deleted and recreated at once, before the watcher could look: the new directory is a new inode.
    mark = rec.mark();
    await rm(skills, { recursive: true });
    await mkdir(skills);
    await rec.waitForPaths(mark, [join(skills, 'b')]);
    mark = rec.mark();
    await writeTree(skills, { 'c/SKILL.md': SK({ description: 'c' }) });
    await rec.waitForPaths(mark, [join(skills, 'c'), join(skills, 'c', 'SKILL.md')]);
    mark = rec.mark();
    await writeFile(join(skills, 'c', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(skills, 'c', 'SKILL.md')]);

    // The same for one entry: the new directory may even get the old inode number back.
    const c = join(skills, 'c');
    mark = rec.mark();
    await rm(c, { recursive: true });
    await mkdir(c);
    await rec.waitForPaths(mark, [join(c, 'SKILL.md')]);
    mark = rec.mark();
    await writeFile(join(c, 'SKILL.md'), SK({ description: 'back' }));
    await rec.waitForPaths(mark, [join(c, 'SKILL.md')]);
    mark = rec.mark();
    await writeFile(join(c, 'SKILL.md'), SK({ description: 'edited again' }));
    await rec.waitForPaths(mark, [join(c, 'SKILL.md')]);
  });

  it('reports a .git directory or file appearing and disappearing in a marker directory', async (t) => {
    const box = await Sandbox.create(t);
    const project = join(box.dir, 'project');
    const nested = join(project, 'src', 'lib');
    await mkdir(nested, { recursive: true });
    const { rec } = await box.watch({ skillDirs: [], markerDirs: [nested, join(project, 'src'), project] });
    const marker = join(project, '.git');
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['.git directory created', () => mkdir(marker)],
      ['.git directory removed', () => rm(marker, { recursive: true })],
      ['.git file created', () => writeFile(marker, 'gitdir: /elsewhere\n')],
      ['.git file removed', () => rm(marker)],
    ];
    for (const [label, step] of steps) {
      const mark = rec.mark();
      await step();
      await rec.waitFor(label, () => rec.since(mark).has(marker));
      rec.assertReported(mark, [marker], label);
    }
  });

  it('watches only entries and SKILL.md, not deep trees inside skills', async (t) => {
    const references: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) references[`big/references/r${i}.md`] = `# ${i}\n`;
    const { skills, watcher, rec } = await (await Sandbox.create(t)).watchSkills({
      'big/SKILL.md': SK({ description: 'big' }),
      'big/scripts/run.sh': 'echo\n',
      'small/SKILL.md': SK({ description: 'small' }),
      ...references,
    });
    // skills, big and small (each entry's watch sees its SKILL.md), and the parent directory watched for `skills`
    // itself: nothing under big/references or big/scripts.
    assert.equal(watcher.status().watchedPaths, 4);

    const mark = rec.mark();
    for (let i = 0; i < 50; i++) await writeFile(join(skills, 'big', 'references', `r${i}.md`), 'changed\n');
    await writeFile(join(skills, 'big', 'notes.txt'), 'not a skill file\n');
    await writeFile(join(skills, 'small', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(skills, 'small', 'SKILL.md')]);
    rec.assertReported(mark, [join(skills, 'small', 'SKILL.md')]);
  });

  it('sees the final content of two writes 10 ms apart', async (t) => {
    const box = await Sandbox.create(t);
    const skill = join(box.dir, 'skills', 'quick', 'SKILL.md');
    // Stand-in for the index: every onChange re-reads the file.
    const reads: string[] = [];
    const { rec } = await box.watchSkills({ 'quick/SKILL.md': SK({ description: 'zero' }) }, {}, () => {
      reads.push(readFileSync(skill, 'utf8'));
    });
    const second = SK({ description: 'second' });
    await writeFile(skill, SK({ description: 'first' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await writeFile(skill, second);
    await rec.waitFor('the second write to be read', () => reads.at(-1) === second);
  });

  it('coalesces a burst of 2,000 files into few onChange calls and ends on the final state', async (t) => {
    const box = await Sandbox.create(t);
    // Stand-in for the index: the content it last read for every SKILL.md it was told about.
    const lastRead = new Map<string, string>();
    const { skills, rec } = await box.watchSkills({}, {}, (paths) => {
      for (const path of paths) {
        if (!path.endsWith('SKILL.md')) continue;
        try {
          lastRead.set(path, readFileSync(path, 'utf8'));
        } catch {
          lastRead.delete(path);
        }
      }
    });

    const final = new Map<string, string>();
    const files: Array<[string, string]> = [];
    for (let i = 0; i < 300; i++) {
      const entry = join(skills, `s${i}`);
      files.push([join(entry, 'SKILL.md'), SK({ description: `v1 ${i}` })]);
      for (let j = 0; j < 5; j++) files.push([join(entry, 'references', `r${j}.md`), `${i}/${j}\n`]);
    }
    // …and 200 second writes to SKILL.md files already written in the burst: 2,000 writes in all.
    for (let i = 0; i < 200; i++) files.push([join(skills, `s${i}`, 'SKILL.md'), SK({ description: `v2 ${i}` })]);
    assert.equal(files.length, 2000);
    for (let i = 0; i < files.length; i += 50) {
      await Promise.all(
        files.slice(i, i + 50).map(async ([path, content]) => {
          await mkdir(join(path, '..'), { recursive: true });
          await writeFile(path, content);
        }),
      );
    }
    for (const [path, content] of files) if (path.endsWith('SKILL.md')) final.set(path, content);

    await rec.waitFor(
      'every SKILL.md read with its final content',
      () => [...final].every(([path, content]) => lastRead.get(path) === content),
      DEADLINE_MS,
    );
    assert.ok(rec.calls.length < 50, `${rec.calls.length} onChange calls`);
  });

  it('watches the entries created while a burst of 2,000 is being taken in, well before reconciliation', async (t) => {
    const box = await Sandbox.create(t);
    const skills = join(box.dir, 'skills');
    let late: string[] | null = null;
    // The watcher logs each chokidar event as it arrives: the first `addDir` is the moment to strike.
    const logger = {
      debug(fields: unknown, msg?: string): void {
        const event = (fields as { event?: string }).event;
        if (late === null && msg === 'skill watcher event' && event === 'addDir') {
          late = createDuringSlowRead(skills, 20);
        }
      },
      warn(): void {},
    };
    const { rec } = await box.watchSkills({}, { ...NO_RECHECK, logger: logger as unknown as WatcherLogger });
    let mark = rec.mark();
    // At once: chokidar's next read lists all of them, and is still emitting them when the late ones are created.
    for (let i = 0; i < 2000; i++) mkdirSync(join(skills, `early-${i}`));
    await rec.waitFor('the late entries to be created', () => late !== null, DEADLINE_MS);
    const skillFiles = (late as unknown as string[]).map((path) => join(path, 'SKILL.md'));
    await rec.waitForPaths(mark, skillFiles, DEADLINE_MS);
    // Settled: no onChange for a while (the root is started again once chokidar's loss is seen).
    for (let calls = -1; calls !== rec.calls.length; ) {
      calls = rec.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    // Their SKILL.md edits are events, not left to the 30 s reconciliation (re-checks are off).
    mark = rec.mark();
    for (const path of skillFiles) await writeFile(path, SK({ description: 'v2' }));
    await rec.waitForPaths(mark, skillFiles);
  });

  it('reconciliation reports a change no event announced', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    // Polling far too slow to notice anything within the test: only reconciliation can see the target appear.
    await writeTree(dir, { 'skills/late': { symlink: '../elsewhere/late' } });
    const skills = join(dir, 'skills');
    const { watcher, rec } = await box.watch({ skillDirs: [skills], markerDirs: [] }, BLIND);
    assert.equal(await watcher.reconcileNow(), false);

    await writeTree(dir, { 'elsewhere/late/SKILL.md': SK({ description: 'late' }) });
    const mark = rec.mark();
    assert.equal(await watcher.reconcileNow(), true);
    assert.deepEqual(rec.calls.slice(mark), [[join(skills, 'late'), join(skills, 'late', 'SKILL.md')]]);
    assert.equal(await watcher.reconcileNow(), false);
    assert.equal(watcher.status().reconciliations, 3);
  });

  it('reports an edit made during a reconciliation before that reconciliation ends', async (t) => {
    // At 10,000 skills with every agent's view followed, a reconciliation takes about half a second; an edit's flush
    // used to wait for it in the watcher's queue, and the edit's event came that much later.
    const box = await Sandbox.create(t);
    const skills = join(box.dir, 'skills');
    for (let i = 0; i < 5000; i++) {
      mkdirSync(join(skills, `s${i}`), { recursive: true });
      writeFileSync(join(skills, `s${i}`, 'SKILL.md'), SK({ description: `skill ${i}` }));
    }
    const edited = join(skills, 's4999', 'SKILL.md');
    let reconciledAtReport: number | undefined;
    let watching: SkillWatcher | undefined;
    const { watcher, rec } = await box.watch({ skillDirs: [skills], markerDirs: [] }, NO_RECHECK, (paths) => {
      if (paths.includes(edited)) reconciledAtReport ??= watching?.status().reconciliations;
    });
    watching = watcher;
    const reconciling = watcher.reconcileNow();
    // The reconciliation has started (its first step waits on the file system): the edit comes after it began, and
    // its 5,000 entries take many 4 ms slices to fingerprint, where the event's flush is due 3 ms after it arrives.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const mark = rec.mark();
    writeFileSync(edited, SK({ description: 'edited while reconciling' }));
    await rec.waitForPaths(mark, [edited]);
    await reconciling;
    assert.equal(reconciledAtReport, 0);
    assert.equal(watcher.status().reconciliations, 1);
  });

  it('runs the reconciliation scan periodically', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    await writeTree(dir, { 'skills/late': { symlink: '../elsewhere/late' } });
    const skills = join(dir, 'skills');
    const { watcher, rec } = await box.watch(
      { skillDirs: [skills], markerDirs: [] },
      { ...BLIND, reconcileIntervalMs: 50 },
    );
    await writeTree(dir, { 'elsewhere/late/SKILL.md': SK({ description: 'late' }) });
    await rec.waitForPaths(0, [join(skills, 'late', 'SKILL.md')]);
    assert.ok(watcher.status().reconciliations >= 1);
  });

  it('in polling mode sees skills, new directories and markers change', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    await writeTree(dir, { 'skills/a/SKILL.md': SK({ description: 'a' }) });
    const skills = join(dir, 'skills');
    const later = join(dir, 'later', 'skills');
    const { watcher, rec } = await box.watch(
      { skillDirs: [skills, later], markerDirs: [dir] },
      { usePolling: true, pollIntervalMs: 20 },
    );
    assert.equal(watcher.status().mode, 'polling');
    await assertSeesChanges(rec, dir, skills, later);
  });

  it('switches to polling on request and keeps seeing changes', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    await writeTree(dir, { 'skills/a/SKILL.md': SK({ description: 'a' }) });
    const skills = join(dir, 'skills');
    const later = join(dir, 'later', 'skills');
    const { watcher, rec } = await box.watch({ skillDirs: [skills, later], markerDirs: [dir] }, { pollIntervalMs: 20 });
    assert.equal(watcher.status().mode, 'events');
    await watcher.switchToPolling('test');
    assert.equal(watcher.status().mode, 'polling');
    assert.equal(watcher.status().lastError, null);
    await assertSeesChanges(rec, dir, skills, later);
  });

  const unshareWorks =
    spawnSync('unshare', ['-U', '-r', 'sh', '-c', 'echo 5 > /proc/sys/user/max_inotify_watches'], { stdio: 'ignore' })
      .status === 0;
  for (const [label, limit] of [
    ['fs.watch throws', 0],
    ['an entry of the skills directory cannot be watched', 3],
  ] as const) {
    it(`switches to polling when inotify watches run out (${label}, ENOSPC in a user namespace)`, {
      // The limit is lowered only inside a new user namespace, so no other process is affected.
      skip: unshareWorks ? false : 'unshare -U -r with /proc/sys/user/max_inotify_watches is not available here',
    }, async (t) => {
      const dir = (await Sandbox.create(t)).dir;
      await writeTree(dir, { 'skills/a/SKILL.md': SK({ description: 'a' }), 'skills/b/SKILL.md': SK({ d: 'b' }) });
      const editPath = join(dir, 'skills', 'b', 'SKILL.md');
      const child = fileURLToPath(new URL('./skill-watcher-child.ts', import.meta.url));
      const config = JSON.stringify({ skillDir: join(dir, 'skills'), markerDir: dir, editPath });
      const script = `echo ${limit} > /proc/sys/user/max_inotify_watches && exec "$0" --import tsx "$1" "$2"`;
      const output = await runChild('unshare', ['-U', '-r', 'sh', '-c', script, process.execPath, child, config]);
      const result = JSON.parse(output) as { modeAfterStart: string; lastError: string; sawEdit: boolean };
      assert.equal(result.modeAfterStart, 'polling');
      assert.match(result.lastError, /^ENOSPC/);
      assert.equal(result.sawEdit, true);
    });
  }

  it('update() re-arms for a new target list', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    await writeTree(dir, { 'one/a/SKILL.md': SK({ description: 'a' }), 'two/b/SKILL.md': SK({ description: 'b' }) });
    const one = join(dir, 'one');
    const two = join(dir, 'two');
    const { watcher, rec } = await box.watch({ skillDirs: [one], markerDirs: [] });

    await watcher.update({ skillDirs: [one, two], markerDirs: [dir] });
    let mark = rec.mark();
    await writeFile(join(two, 'b', 'SKILL.md'), SK({ description: 'edited' }));
    await rec.waitForPaths(mark, [join(two, 'b', 'SKILL.md')]);
    mark = rec.mark();
    await mkdir(join(dir, '.git'));
    await rec.waitForPaths(mark, [join(dir, '.git')]);

    await watcher.update({ skillDirs: [two], markerDirs: [] });
    mark = rec.mark();
    await writeFile(join(one, 'a', 'SKILL.md'), SK({ description: 'not watched any more' }));
    await writeFile(join(two, 'b', 'SKILL.md'), SK({ description: 'edited again' }));
    await rec.waitForPaths(mark, [join(two, 'b', 'SKILL.md')]);
    rec.assertReported(mark, [join(two, 'b', 'SKILL.md')]);
  });

  it('update() reports the targets it adds once they are armed: a change made before they were watched is read', async (t) => {
    const box = await Sandbox.create(t);
    const dir = box.dir;
    await writeTree(dir, {
      'one/a/SKILL.md': SK({ description: 'a' }),
      'two/b/SKILL.md': SK({ description: 'b' }),
      'plugin/plugin.json': '{"name":"p"}',
    });
    const one = join(dir, 'one');
    const two = join(dir, 'two');
    const manifest = join(dir, 'plugin', 'plugin.json');
    const { watcher, rec } = await box.watch({ skillDirs: [one], markerDirs: [] }, NO_RECHECK);
    // The caller read `two` and the manifest, then they changed, then it asked for them to be watched.
    await writeFile(manifest, '{"name":"Bad Name"}');
    await writeFile(join(two, 'b', 'SKILL.md'), SK({ description: 'edited before the watch' }));
    const mark = rec.mark();
    await watcher.update({ skillDirs: [one, two], markerDirs: [], files: [manifest] });
    rec.assertReported(mark, [manifest, two]);
    // Targets already watched are not reported again.
    const again = rec.mark();
    await watcher.update({ skillDirs: [one, two], markerDirs: [], files: [manifest] });
    rec.assertReported(again, []);
  });

  it('close() releases every watch and timer', async (t) => {
    const dir = (await Sandbox.create(t)).dir;
    await writeTree(dir, {
      'skills/a/SKILL.md': SK({ description: 'a' }),
      'skills/linked': { symlink: '../real' },
      'real/SKILL.md': SK({ description: 'r' }),
    });
    const handles = (): string[] =>
      process
        .getActiveResourcesInfo()
        .filter((name) => name === 'FSEventWrap' || name === 'StatWatcher' || name === 'Timeout')
        .sort();
    const before = handles();
    for (const usePolling of [false, true]) {
      const rec = new Recorder();
      const watcher = await createSkillWatcher({
        targets: { skillDirs: [join(dir, 'skills'), join(dir, 'missing', 'skills')], markerDirs: [dir] },
        onChange: rec.onChange,
        usePolling,
        pollIntervalMs: 20,
      });
      assert.ok(handles().length > before.length);
      await writeFile(join(dir, 'skills', 'a', 'SKILL.md'), SK({ description: 'edited' }));
      await rec.waitForPaths(0, [join(dir, 'skills', 'a', 'SKILL.md')]);
      await watcher.close();
      // A closed handle leaves the list on a later turn of the event loop, and chokidar's own throttle timers
      // (at most 1 s) run out by themselves: wait for the list to come back, with a deadline.
      await waitUntil('handles released', () => handles().join() === before.join());
      const calls = rec.calls.length;
      await writeFile(join(dir, 'skills', 'a', 'SKILL.md'), SK({ description: 'after close' }));
      assert.equal(await watcher.reconcileNow(), false);
      assert.equal(rec.calls.length, calls);
    }
  });
});

/** Create, change and delete a SKILL.md; a skills directory appearing; a `.git` marker appearing. */
async function assertSeesChanges(rec: Recorder, dir: string, skills: string, later: string): Promise<void> {
  const skill = join(skills, 'a', 'SKILL.md');
  let mark = rec.mark();
  await writeFile(skill, SK({ description: 'changed' }));
  await rec.waitForPaths(mark, [skill]);
  rec.assertReported(mark, [skill]);

  mark = rec.mark();
  await writeTree(skills, { 'b/SKILL.md': SK({ description: 'b' }) });
  await rec.waitForPaths(mark, [join(skills, 'b'), join(skills, 'b', 'SKILL.md')]);

  mark = rec.mark();
  await rm(skill);
  await rec.waitForPaths(mark, [skill]);

  mark = rec.mark();
  await writeTree(later, { 'x/SKILL.md': SK({ description: 'x' }) });
  await rec.waitForPaths(mark, [later, join(later, 'x', 'SKILL.md')]);

  mark = rec.mark();
  await mkdir(join(dir, '.git'));
  await rec.waitForPaths(mark, [join(dir, '.git')]);
}

async function waitUntil(label: string, predicate: () => boolean, timeoutMs = DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function runChild(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout.trim());
      else reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}
