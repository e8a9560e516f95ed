// Reading a SKILL.md with bounded memory: discovery needs only its frontmatter, which is at the head, so a huge
// (or still growing) file costs at most MAX_SKILL_FILE_BYTES and still loads if its block closes within them.

import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** The head of a SKILL.md and what a user should know about how it was read. */
export interface SkillFileHead {
  /** The bytes read, decoded as UTF-8 (invalid sequences and a character cut at the cap become U+FFFD). */
  text: string;
  /** The file's size when it was opened. */
  size: number;
  /** True when the file is larger than the bytes read: only its head was read. */
  truncated: boolean;
  /** False when the bytes read are not valid UTF-8 (a character cut by the cap itself does not count). */
  validUtf8: boolean;
}

/**
 * The first `maxBytes` bytes of the file at `path` (symlinks followed), decoded as UTF-8 (a character cut at the
 * cap becomes U+FFFD). Throws when it cannot be opened or is not a regular file: a FIFO swapped in would otherwise
 * block the read forever, hence O_NONBLOCK and the fstat.
 */
export async function readSkillFile(path: string, maxBytes = MAX_SKILL_FILE_BYTES): Promise<string> {
  return (await readSkillFileHead(path, maxBytes)).text;
}

/** `readSkillFile`, also saying whether the cap cut the file and whether its bytes were valid UTF-8. */
export async function readSkillFileHead(path: string, maxBytes = MAX_SKILL_FILE_BYTES): Promise<SkillFileHead> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`not a regular file: ${path}`);
    // One byte past the size: a file that grew since the fstat is then seen as cut, not as complete.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, stats.size + 1));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // Cut: the buffer filled up and the file holds more (larger than the cap, or grown since the fstat).
    const truncated = filled === buffer.length && filled !== stats.size;
    const read = buffer.subarray(0, filled);
    return {
      text: read.toString('utf8'),
      size: Math.max(stats.size, filled),
      truncated,
      validUtf8: isUtf8(truncated ? withoutCutCharacter(read) : read),
    };
  } finally {
    await handle.close();
  }
}

/** `bytes` without a UTF-8 sequence left incomplete at its end (the cap cut it, the file may be fine). */
function withoutCutCharacter(bytes: Buffer): Buffer {
  // Walk back over at most 3 continuation bytes (10xxxxxx) to the lead byte of the last sequence.
  let start = bytes.length - 1;
  while (start > 0 && bytes.length - start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  const lead = bytes[start] ?? 0;
  const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < expected ? bytes.subarray(0, start) : bytes;
}
