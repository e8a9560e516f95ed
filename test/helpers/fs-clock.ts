// The file system's clock in tests of read times (watch-signature.ts ReadAt): waiting, on a condition rather than a
// sleep, until a timestamp the kernel gives a new file is past every timestamp a tree already holds.

import { lstat, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Waits until the file system's clock has moved past every ctime under `dir` (itself included) and answers that
 * clock's time: a read time after every timestamp of the tree and before any later change. The probe file is made
 * beside `dir`, not in it.
 */
export async function fsClockPast(dir: string): Promise<number> {
  let newest = (await lstat(dir)).ctimeMs;
  for (const entry of await readdir(dir, { recursive: true })) {
    newest = Math.max(newest, (await lstat(join(dir, entry))).ctimeMs);
  }
  const probe = join(dirname(dir), `.${basename(dir)}-clock-${process.pid}`);
  for (;;) {
    await writeFile(probe, 'x');
    const stamped = (await lstat(probe)).ctimeMs;
    await rm(probe);
    // A few writes until the kernel's coarse clock ticks.
    if (stamped > newest) return stamped;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
