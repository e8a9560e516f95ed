import assert from 'node:assert/strict';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createSkillWatcher } from '../../src/watch/skill-watcher.js';
import type { SkillWatcher } from '../../src/watch/skill-watcher-types.js';
import { type SkillsRootWatch, watchSkillsRoot } from '../../src/watch/watch-skills-root.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { makeTempDir, SK, writeTree } from '../helpers/temp-tree.js';

const DEADLINE_MS = WAIT_MS;
/** A link whose target path runs through the regular file `file.txt`: resolving it fails with ENOTDIR. */
const THROUGH_FILE = { symlink: '../file.txt/x' };

/** `promise`, or a failure naming `label` once DEADLINE_MS has passed. */
async function withinDeadline<T>(label: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out: ${label}`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Collects reported paths; `waitFor` resolves once every given path was reported after `mark()`. */
class Reports {
  private readonly seen: string[] = [];
  private wake: (() => void) | null = null;

  readonly add = (paths: string[]): void => {
    this.seen.push(...paths);
    this.wake?.();
  };

  mark(): number {
    return this.seen.length;
  }

  async waitFor(mark: number, paths: string[]): Promise<void> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const since = new Set(this.seen.slice(mark));
      if (paths.every((path) => since.has(path))) return;
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`timed out waiting for ${paths.join(', ')}; seen ${JSON.stringify([...since])}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.wake?.(), left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
      });
    }
  }
}

/** A temp dir with `file.txt` (a regular file) and `skills/good/SKILL.md`, plus `entries` under `skills/`. */
async function workspace(t: TestContext, entries: Parameters<typeof writeTree>[1] = {}): Promise<string> {
  const { dir, cleanup } = await makeTempDir('skillsd-enotdir-');
  t.after(cleanup);
  await writeFile(join(dir, 'file.txt'), 'not a directory\n');
  await writeTree(join(dir, 'skills'), { 'good/SKILL.md': SK({ name: 'good', description: 'v1' }), ...entries });
  return dir;
}

async function startWatcher(t: TestContext, skills: string): Promise<{ watcher: SkillWatcher; reports: Reports }> {
  const reports = new Reports();
  const watcher = await withinDeadline(
    'watcher start',
    createSkillWatcher({ targets: { skillDirs: [skills], markerDirs: [] }, onChange: reports.add }),
  );
  t.after(() => watcher.close());
  return { watcher, reports };
}

describe('a link whose target runs through a regular file (ENOTDIR)', () => {
  for (const usePolling of [false, true]) {
    it(`does not keep a skills root from becoming ready, and its other entries are watched (${usePolling ? 'polling' : 'kernel watches'})`, async (t) => {
      const dir = await workspace(t, { bad: THROUGH_FILE });
      const skills = join(dir, 'skills');
      const events: string[] = [];
      const errors: Error[] = [];
      let wake: (() => void) | null = null;
      const watch: SkillsRootWatch = await withinDeadline(
        'skills root ready',
        watchSkillsRoot({
          root: skills,
          usePolling,
          pollIntervalMs: 250,
          onEvent: (event, path) => {
            events.push(`${event} ${path}`);
            wake?.();
          },
          onMissed: () => {},
          onError: (error) => errors.push(error),
        }),
      );
      t.after(() => watch.close());
      const edited = `change ${join(skills, 'good', 'SKILL.md')}`;
      await withinDeadline(
        'the edit event',
        (async () => {
          await writeFile(join(skills, 'good', 'SKILL.md'), SK({ name: 'good', description: 'v2' }));
          while (!events.includes(edited)) await new Promise<void>((resolve) => (wake = resolve));
        })(),
      );
      assert.deepEqual(errors, []);
    });
  }

  it('in a skills directory: edits, new entries, and the link becoming valid are all reported', async (t) => {
    const dir = await workspace(t, { bad: THROUGH_FILE });
    const skills = join(dir, 'skills');
    const { reports } = await startWatcher(t, skills);

    let mark = reports.mark();
    await writeFile(join(skills, 'good', 'SKILL.md'), SK({ name: 'good', description: 'v2' }));
    await reports.waitFor(mark, [join(skills, 'good', 'SKILL.md')]);

    mark = reports.mark();
    await writeTree(skills, { 'fresh/SKILL.md': SK({ name: 'fresh', description: 'new' }) });
    await reports.waitFor(mark, [join(skills, 'fresh'), join(skills, 'fresh', 'SKILL.md')]);

    // The file in the link's path becomes a directory holding the target: the link now leads to a skill.
    mark = reports.mark();
    await rm(join(dir, 'file.txt'));
    await writeTree(dir, { 'file.txt/x/SKILL.md': SK({ name: 'bad', description: 'now valid' }) });
    await reports.waitFor(mark, [join(skills, 'bad'), join(skills, 'bad', 'SKILL.md')]);
  });

  it('inside an entry (a symlinked SKILL.md): the other skills of that directory are still watched', async (t) => {
    const dir = await workspace(t, { 'linked/SKILL.md': { symlink: '../../file.txt/x/SKILL.md' } });
    const skills = join(dir, 'skills');
    const { reports } = await startWatcher(t, skills);
    const mark = reports.mark();
    await writeFile(join(skills, 'good', 'SKILL.md'), SK({ name: 'good', description: 'v2' }));
    await reports.waitFor(mark, [join(skills, 'good', 'SKILL.md')]);
  });

  it('created live in a watched skills directory: later entries and edits are still reported', async (t) => {
    const dir = await workspace(t);
    const skills = join(dir, 'skills');
    const { reports } = await startWatcher(t, skills);

    // A link that leads nowhere is not a skill (docs/discovery.md §3): nothing to report. The edit after it is reported once
    // the watcher has taken the new listing in.
    let mark = reports.mark();
    await symlink(THROUGH_FILE.symlink, join(skills, 'bad'));
    await writeFile(join(skills, 'good', 'SKILL.md'), SK({ name: 'good', description: 'v2' }));
    await reports.waitFor(mark, [join(skills, 'good', 'SKILL.md')]);

    // Several names, so that some are listed after the link whatever the directory's order.
    const names = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6'];
    mark = reports.mark();
    for (const name of names) await writeTree(skills, { [`${name}/SKILL.md`]: SK({ name, description: 'new' }) });
    await reports.waitFor(
      mark,
      names.map((name) => join(skills, name, 'SKILL.md')),
    );

    mark = reports.mark();
    await writeFile(join(skills, 'f6', 'SKILL.md'), SK({ name: 'f6', description: 'v2' }));
    await writeFile(join(skills, 'good', 'SKILL.md'), SK({ name: 'good', description: 'v3' }));
    await reports.waitFor(mark, [join(skills, 'f6', 'SKILL.md'), join(skills, 'good', 'SKILL.md')]);

    mark = reports.mark();
    await mkdir(join(skills, 'g7'));
    await rm(join(skills, 'a1'), { recursive: true });
    await reports.waitFor(mark, [join(skills, 'g7'), join(skills, 'a1'), join(skills, 'a1', 'SKILL.md')]);
  });
});
