// The skill record (docs/discovery.md §1) one entry of a skills directory gives from its SKILL.md's frontmatter, the
// same whichever loader read the file (load-skill.ts, load-skill-now.ts).

import type { Skill } from '../types.js';
import type { ScanOptions } from './scan-options.js';

export const SKILL_FILE_NAME = 'SKILL.md';

export function toSkill(
  frontmatter: Record<string, unknown>,
  entryName: string,
  baseDir: string,
  filePath: string,
  readPath: string,
  options: ScanOptions,
): Skill | undefined {
  if (frontmatter.enabled === false) return undefined;
  if (options.requireDescription && !frontmatter.description) return undefined;
  const { name, description } = frontmatter;
  const ownName = typeof name === 'string' && name.trim() !== '' ? name.trim() : entryName;
  return {
    name: options.namePrefix === undefined ? ownName : `${options.namePrefix}${ownName}`,
    description: typeof description === 'string' ? description : '',
    filePath,
    baseDir,
    hide: options.profile !== 'xcsh' && (frontmatter.hide === true || frontmatter.disableModelInvocation === true),
    source: {
      id: `${options.provider}:${options.level}`,
      provider: options.provider,
      providerName: options.providerName,
      level: options.level,
      path: readPath,
      ...(options.plugin === undefined ? {} : { plugin: options.plugin }),
    },
    frontmatter,
  };
}
