// Where a skill's files are on disk. A record's `filePath` and `baseDir` are shown as discovered, which for a relative
// custom directory (docs/discovery.md §5 step 4) is relative to the workspace, not to the daemon's own working directory;
// `source.path` is always the absolute path of the SKILL.md read, so the file routes read through these.

import { dirname, isAbsolute } from 'node:path';
import type { Skill } from './types.js';

/** The absolute path of the skill's SKILL.md. */
export function skillFileOnDisk(skill: Skill): string {
  return isAbsolute(skill.filePath) ? skill.filePath : skill.source.path;
}

/** The absolute path of the skill's directory. */
export function skillDirOnDisk(skill: Skill): string {
  return isAbsolute(skill.baseDir) ? skill.baseDir : dirname(skill.source.path);
}
