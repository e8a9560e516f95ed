// From the head of a SKILL.md to its frontmatter (docs/discovery.md §2) and the notes of the read, remembered in the
// skill-file cache (skill-file-cache.ts) with the weight of what it keeps; shared by both loaders.

import { parseFrontmatter } from '../frontmatter/frontmatter.js';
import { NO_NOTES } from './entry-notes.js';
import { MAX_SKILL_FILE_BYTES, type SkillFileHead } from './read-skill-file.js';
import type { ScanOptions } from './scan-options.js';
import type { SkillFileStamp } from './skill-file-cache.js';

/** The frontmatter and notes of a SKILL.md's head, remembered in the cache under `stamp`. */
export function parsedHead(
  head: SkillFileHead,
  filePath: string,
  stamp: SkillFileStamp,
  options: ScanOptions,
): { frontmatter: Record<string, unknown> | undefined; notes: readonly string[] } {
  if (head.text === '') return { frontmatter: undefined, notes: NO_NOTES };
  const notes: string[] = [];
  if (head.truncated) {
    notes.push(
      `SKILL.md is ${head.size} bytes, more than the ${MAX_SKILL_FILE_BYTES}-byte read limit: only its first ` +
        `${MAX_SKILL_FILE_BYTES} bytes were read (the frontmatter must close within them)`,
    );
  }
  if (!head.validUtf8) notes.push('SKILL.md is not valid UTF-8: its invalid bytes were read as U+FFFD');
  const { frontmatter, anyDialect } = parseFrontmatter(head.text, options.profile, notes);
  // One string for a note many files earn alike (docs/memory.md "Repeated diagnostics").
  const kept = options.texts === undefined ? notes : options.texts.internAll(notes);
  options.cache?.set(filePath, stamp, options.profile, frontmatter, keptTextLength(head.text, kept), kept, anyDialect);
  return { frontmatter, notes: kept };
}

/**
 * What a cache entry really holds, in characters of source: the frontmatter block (up to its closing fence) and the
 * notes, never the body. Weighing by the whole file made 50,000 skills of 6.7 KiB outweigh the cache's bound while the
 * frontmatter it keeps is a few hundred bytes each, so the LRU evicted everything on every scan.
 */
export function keptTextLength(text: string, notes: readonly string[]): number {
  const close = text.startsWith('---') ? text.indexOf('\n---', 3) : -1;
  let length = close === -1 ? 0 : close;
  for (const note of notes) length += note.length;
  return length;
}
