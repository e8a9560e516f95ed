// The skill record (docs/discovery.md §1) one entry of a skills directory gives from its SKILL.md's frontmatter, the
// same whichever loader read the file (load-skill.ts, load-skill-now.ts).

import { concatFlat } from '../flat-string.js';
import type { Level, Skill } from '../types.js';
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
    name: options.namePrefix === undefined ? ownName : concatFlat(options.namePrefix, ownName),
    description: typeof description === 'string' ? description : '',
    filePath,
    baseDir,
    hide: options.profile !== 'xcsh' && (frontmatter.hide === true || frontmatter.disableModelInvocation === true),
    source: {
      id: sourceId(options.provider, options.level),
      provider: options.provider,
      providerName: options.providerName,
      level: options.level,
      path: readPath,
      ...(options.plugin === undefined ? {} : { plugin: options.plugin }),
    },
    frontmatter,
  };
}

/** Source ids by provider and level: one string for every record of a source (docs/memory.md "Kept strings"). */
const sourceIds = new Map<string, string>();
/** Providers and levels are a short fixed list; a bound all the same, past which each id is built anew. */
const MAX_SOURCE_IDS = 64;

/** The last id given: a directory's records all ask for the same one, and building the key cost more than the rest. */
let last = { provider: '', level: '' as Level | '', id: '' };

function sourceId(provider: string, level: Level): string {
  if (provider === last.provider && level === last.level) return last.id;
  const id = knownSourceId(provider, level);
  last = { provider, level, id };
  return id;
}

function knownSourceId(provider: string, level: Level): string {
  const id = concatFlat(provider, ':', level);
  const known = sourceIds.get(id);
  if (known !== undefined) return known;
  if (sourceIds.size < MAX_SOURCE_IDS) sourceIds.set(id, id);
  return id;
}
