import assert from 'node:assert/strict';
import type { Stats } from 'node:fs';
import { describe, it } from 'node:test';
import { isWatchedUnderSkillsRoot } from '../../src/index/watch-skills-root.js';

const dir = { isDirectory: () => true, isSymbolicLink: () => false } as Stats;
const link = { isDirectory: () => false, isSymbolicLink: () => true } as Stats;
const file = { isDirectory: () => false, isSymbolicLink: () => false } as Stats;

describe('isWatchedUnderSkillsRoot (SKILLS.md §3: entries one level deep and their SKILL.md)', () => {
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
