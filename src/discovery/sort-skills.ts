// The order of skills (SKILLS.md §1): `name.toLowerCase()` in UTF-16 code-unit order (plain `<`, not
// localeCompare, so the order is the same on every machine and locale), then the exact name, then filePath.

import type { Skill } from './types.js';

export function compareSkills(a: Pick<Skill, 'name' | 'filePath'>, b: Pick<Skill, 'name' | 'filePath'>): number {
  return (
    compareCodeUnits(a.name.toLowerCase(), b.name.toLowerCase()) ||
    compareCodeUnits(a.name, b.name) ||
    compareCodeUnits(a.filePath, b.filePath)
  );
}

export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
