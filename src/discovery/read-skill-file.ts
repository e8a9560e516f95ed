// Reading a SKILL.md with bounded memory: discovery needs only its frontmatter, which is at the head, so a huge
// (or still growing) file costs at most MAX_SKILL_FILE_BYTES and still loads if its block closes within them.

import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/**
 * The first `maxBytes` bytes of the file at `path` (symlinks followed), decoded as UTF-8 (a character cut at the
 * cap becomes U+FFFD). Throws when it cannot be opened or is not a regular file: a FIFO swapped in would otherwise
 * block the read forever, hence O_NONBLOCK and the fstat.
 */
export async function readSkillFile(path: string, maxBytes = MAX_SKILL_FILE_BYTES): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`not a regular file: ${path}`);
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, stats.size + 1));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.toString('utf8', 0, filled);
  } finally {
    await handle.close();
  }
}
