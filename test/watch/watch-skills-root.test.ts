import assert from 'node:assert/strict';
import { mkdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isWatchedUnderSkillsRoot, watchSkillsRoot } from '../../src/watch/watch-skills-root.js';
import { createDuringSlowRead } from '../helpers/chokidar-slow-read.js';
import { WAIT_MS } from '../helpers/deadlines.js';
import { makeTempDir } from '../helpers/temp-tree.js';

const dir = { isDirectory: () => true, isSymbolicLink: () => false } as Stats;
const link = { isDirectory: () => false, isSymbolicLink: () => true } as Stats;
const file = { isDirectory: () => false, isSymbolicLink: () => false } as Stats;

describe('isWatchedUnderSkillsRoot (docs/discovery.md §3: entries one level deep and their SKILL.md)', () => {
  const root = '/p/.claude/skills';
  const cases: Array<[string, Stats | undefined, boolean]> = [
    ['/p/.claude/skills', dir, true],
    ['/p/.claude/skills/pdf', dir, true],
    ['/p/.claude/skills/pdf', link, true],
    ['/p/.claude/skills/pdf', undefined, true],
    ['/p/.claude/skills/loose.md', file, false],
    ['/p/.claude/skills/.hidden', dir, false],
    ['/p/.claude/skills/pdf/SKILL.md', file, true],
    ['/p/.claude/skills/pdf/skill.md', file, false],
    ['/p/.claude/skills/pdf/references', dir, false],
    ['/p/.claude/skills/pdf/references/a.md', file, false],
    ['/p/.claude/skills/team/internal/SKILL.md', file, false],
    ['/p/.claude/skills-other/pdf', dir, false],
    ['/p/.claude', dir, false],
  ];
  for (const [path, stats, expected] of cases) {
    const kind = stats === undefined ? 'unknown' : stats === dir ? 'dir' : stats === link ? 'link' : 'file';
    it(`${expected ? 'watches' : 'ignores'} ${path} (${kind})`, () => {
      assert.equal(isWatchedUnderSkillsRoot(root, path, stats), expected);
    });
  }
});

describe('watchSkillsRoot: entries created in a burst while the event loop is held', () => {
  // With the kernel's watches each late entry has its own listing event; chokidar (polling mode) can lose them in a
  // read it had in flight, hence its gap check. Either way every late entry must be reported.
  for (const usePolling of [false, true]) {
    it(`reports every late entry (${usePolling ? 'polling' : 'kernel watches'})`, async (t) => {
      const { dir, cleanup } = await makeTempDir('skillsd-root-gap-');
      const root = join(dir, 'skills');
      mkdirSync(root);
      const missed = new Set<string>();
      const evented = new Set<string>();
      let late: string[] | null = null;
      const watch = await watchSkillsRoot({
        root,
        usePolling,
        pollIntervalMs: 100,
        onEvent: (event, path) => {
          if (late === null && event === 'addDir') late = createDuringSlowRead(root, 20);
          else if (event === 'addDir') evented.add(path);
        },
        onMissed: (paths) => {
          for (const path of paths) missed.add(path);
        },
        onError: (error) => assert.fail(error),
      });
      try {
        for (let i = 0; i < 2000; i++) mkdirSync(join(root, `early-${i}`));
        const end = Date.now() + WAIT_MS;
        while (late === null || !(late as string[]).every((path) => missed.has(path) || evented.has(path))) {
          if (Date.now() > end) assert.fail(`not reported within the bound: ${JSON.stringify([...missed])}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const byGapCheck = (late as unknown as string[]).filter((path) => missed.has(path)).length;
        t.diagnostic(`${byGapCheck} of 20 late entries reported by the gap check, the rest by their own events`);
      } finally {
        await watch.close();
        await cleanup();
      }
    });
  }
});
