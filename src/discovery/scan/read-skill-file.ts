// Reading a SKILL.md with bounded memory: discovery needs only its frontmatter, which is at the head, so a huge
// (or still growing) file costs at most MAX_SKILL_FILE_BYTES and still loads if its block closes within them.

import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { sliced } from '../files/sliced-fs.js';

export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** Non-blocking: a FIFO swapped in for the file would otherwise block the read forever. */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
/** The same, refusing a link in the last place: one swapped in after the path was checked (link-trust.ts). */
export const OPEN_FLAGS_NO_FOLLOW = OPEN_FLAGS | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * What `SkillFileHead.text` holds: `all` the bytes read, or, for discovery, `frontmatter`: only the bytes up to the
 * end of the frontmatter's closing fence when nothing past them can change how the block is read
 * (`frontmatterPrefixBytes`). `size`, `truncated` and `validUtf8` are always of every byte read.
 */
export type TextScope = 'all' | 'frontmatter';

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

/**
 * `readSkillFile`, also saying whether the cap cut the file and whether its bytes were valid UTF-8. `noFollow`: a
 * symbolic link at `path` itself is not followed (the open fails with ELOOP).
 *
 * Written with the callback API: a cold discovery reads every SKILL.md, and a FileHandle with a promise per step
 * (open, stat, read, close) cost about as much again as the system calls themselves (10,000 files: ≈ 1.6 s against
 * ≈ 0.9 s for the same calls through callbacks, measured on the benchmark fixture).
 */
export function readSkillFileHead(
  path: string,
  maxBytes = MAX_SKILL_FILE_BYTES,
  noFollow = false,
  scope: TextScope = 'all',
): Promise<SkillFileHead> {
  return new Promise((resolve, reject) => {
    fs.open(path, noFollow ? OPEN_FLAGS_NO_FOLLOW : OPEN_FLAGS, (openError, fd) => {
      if (openError) {
        reject(openError);
        return;
      }
      const finish = (error: Error | null, head?: SkillFileHead): void => {
        fs.close(fd, (closeError) => {
          const failure = error ?? closeError;
          if (failure) reject(failure);
          else resolve(head as SkillFileHead);
        });
      };
      fs.fstat(fd, (statError, stats) => {
        if (statError) {
          finish(statError);
        } else if (!stats.isFile()) {
          finish(new Error(`not a regular file: ${path}`));
        } else {
          // One byte past the size: a file that grew since the fstat is then seen as cut, not as complete.
          const buffer = Buffer.allocUnsafe(Math.min(maxBytes, stats.size + 1));
          readInto(fd, buffer, 0, stats.size, scope, finish);
        }
      });
    });
  });
}

/**
 * `readSkillFileHead` (links followed, the whole text) with synchronous calls made inside the shared slice
 * (files/sliced-fs.ts): the doctor's look at each SKILL.md.
 */
export function readSkillFileHeadSliced(path: string, maxBytes = MAX_SKILL_FILE_BYTES): Promise<SkillFileHead> {
  return sliced(() => {
    const fd = fs.openSync(path, OPEN_FLAGS);
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) throw new Error(`not a regular file: ${path}`);
      return readSkillFileHeadNow(fd, stats, 'all', maxBytes);
    } finally {
      fs.closeSync(fd);
    }
  });
}

/**
 * The head of the regular file open at `fd` whose `fstat` is `stats`, read with synchronous calls: the same bytes,
 * size and flags as `readSkillFileHead`'s. The caller opened the file and closes it.
 */
export function readSkillFileHeadNow(
  fd: number,
  stats: fs.Stats,
  scope: TextScope = 'all',
  maxBytes = MAX_SKILL_FILE_BYTES,
): SkillFileHead {
  const size = stats.size;
  // One byte past the size, and the same end-of-file rule as `readInto`.
  const length = Math.min(maxBytes, size + 1);
  // Read into one buffer kept for the next file: the text is decoded from it, so nothing of it outlives the call.
  const buffer = scratchBuffer(length);
  let filled = 0;
  while (filled < length) {
    const wanted = length - filled;
    const bytesRead = fs.readSync(fd, buffer, filled, wanted, filled);
    filled += bytesRead;
    if (bytesRead === 0 || (bytesRead < wanted && filled >= size)) break;
  }
  return headOf(buffer, length, filled, size, scope);
}

/** Kept up to this size: every real SKILL.md fits; a larger one gets a buffer of its own, dropped after it. */
const SCRATCH_KEPT_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

function scratchBuffer(length: number): Buffer {
  if (length > SCRATCH_KEPT_BYTES) return Buffer.allocUnsafeSlow(length);
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_KEPT_BYTES);
  return scratch;
}

/** Reads into `buffer` from `filled` on, until it is full or the file ends; then `finish` with the head. */
function readInto(
  fd: number,
  buffer: Buffer,
  filled: number,
  size: number,
  scope: TextScope,
  finish: (error: Error | null, head?: SkillFileHead) => void,
): void {
  if (filled === buffer.length) {
    finish(null, headOf(buffer, buffer.length, filled, size, scope));
    return;
  }
  const wanted = buffer.length - filled;
  fs.read(fd, buffer, filled, wanted, filled, (readError, bytesRead) => {
    const total = filled + bytesRead;
    // A short read that brought every byte the fstat announced is the end of a regular file: no further read just
    // to be told 0. Short of the announced size (shrunk meanwhile, or an odd file system), read on.
    if (readError) finish(readError);
    else if (bytesRead === 0 || (bytesRead < wanted && total >= size)) {
      finish(null, headOf(buffer, buffer.length, total, size, scope));
    } else readInto(fd, buffer, total, size, scope, finish);
  });
}

/**
 * The head read into the first `filled` of `capacity` bytes of `buffer` (the scratch buffer may be longer: one view
 * of it is made here, not one per step, as a first discovery makes one per SKILL.md).
 */
function headOf(buffer: Buffer, capacity: number, filled: number, size: number, scope: TextScope): SkillFileHead {
  // Cut: the buffer filled up and the file holds more (larger than the cap, or grown since the fstat).
  const truncated = filled === capacity && filled !== size;
  const read = buffer.subarray(0, filled);
  return {
    text: read.toString('utf8', 0, scope === 'frontmatter' ? frontmatterPrefixBytes(read) : filled),
    size: Math.max(size, filled),
    truncated,
    validUtf8: isUtf8(truncated ? withoutCutCharacter(read) : read),
  };
}

const CR = 0x0d;
const CLOSING_FENCE = Buffer.from('\n---', 'latin1');
const COMMENT_OPEN = Buffer.from('<!--', 'latin1');
const DASH = 0x2d;

/**
 * How many leading bytes of `bytes` decode to a text whose frontmatter reads exactly as the whole text's
 * (frontmatter.ts, docs/discovery.md §2): through the first `\n---` after offset 3, when the text starts with `---` and no
 * byte order mark, no CR and no `<!--` comes before that point. Then the line-break normalisation and the comment
 * removal leave that prefix as it is, the block ends at the same `\n---`, and the decoding of a prefix that ends on an
 * ASCII byte is the prefix of the whole decoding (an invalid sequence never takes in the ASCII byte that follows
 * it). Otherwise all of `bytes`. A 6.7 KiB SKILL.md then costs a string of its few hundred bytes of frontmatter: the
 * body was decoded only to be dropped (a first discovery of 10,000 skills spent 438 ms in the garbage collector
 * with it, 200 ms without).
 */
export function frontmatterPrefixBytes(bytes: Uint8Array): number {
  const all = bytes.length;
  const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (all < 7 || view[0] !== DASH || view[1] !== DASH || view[2] !== DASH) return all;
  const close = view.indexOf(CLOSING_FENCE, 3);
  if (close === -1) return all;
  const end = close + CLOSING_FENCE.length;
  // Searched backwards from the end of the prefix: nothing past it is looked at, and no view of it is made.
  if (view.lastIndexOf(CR, end - 1) !== -1 || view.lastIndexOf(COMMENT_OPEN, end - COMMENT_OPEN.length) !== -1) {
    return all;
  }
  return end;
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
