// Hand-built skill records for the pure index tests (diffs, snapshots), shaped exactly as discovery returns them.

import { join } from 'node:path';
import type { Collision, DiscoveryResult, Skill, SkillWarning } from '../../src/discovery/types.js';

export function skillRecord(name: string, overrides: Partial<Skill> = {}): Skill {
  const baseDir = `/w/.musepi/skills/${name}`;
  const filePath = `${baseDir}/SKILL.md`;
  return {
    name,
    description: `${name} tools`,
    filePath,
    baseDir,
    hide: false,
    source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: filePath },
    frontmatter: { name, description: `${name} tools` },
    ...overrides,
  };
}

export function collisionRecord(name: string, loserProvider = 'claude'): Collision {
  const winner = skillRecord(name);
  const loserPath = `/w/.${loserProvider}/skills/${name}/SKILL.md`;
  return {
    name,
    winner: { filePath: winner.filePath, source: winner.source },
    shadowed: [
      {
        filePath: loserPath,
        source: {
          id: `${loserProvider}:project`,
          provider: loserProvider,
          providerName: 'Claude Code',
          level: 'project',
          path: loserPath,
        },
        reason: 'precedence',
      },
    ],
  };
}

export function discoveryResult(
  skills: Skill[],
  warnings: SkillWarning[] = [],
  collisions: Collision[] = [],
): DiscoveryResult {
  return { skills, warnings, collisions, diagnostics: [], scannedDirs: ['/w/.musepi/skills'], repoRoot: '/w' };
}

/** A discovered skill record whose SKILL.md is `<baseDir>/SKILL.md` on disk (for resolution and invocation tests). */
export function skillAt(name: string, baseDir: string, hide = false): Skill {
  const filePath = join(baseDir, 'SKILL.md');
  return {
    name,
    description: `${name} tools`,
    filePath,
    baseDir,
    hide,
    source: { id: 'native:project', provider: 'native', providerName: 'MusePi', level: 'project', path: filePath },
    frontmatter: { name },
  };
}
