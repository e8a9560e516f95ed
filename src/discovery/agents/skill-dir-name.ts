// The folder a SKILL.md names its skill after: the directory holding it.

import { basename, dirname } from 'node:path';

export function skillDirName(filePath: string): string {
  return basename(dirname(filePath));
}
