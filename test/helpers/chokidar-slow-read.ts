// chokidar loses entries created while it re-reads a large directory for more than a second (see GapCheck in
// src/watch/watch-skills-root.ts). A loaded machine does that by chance; this does it on purpose, by holding the event
// loop at the right moment.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Creates `count` entries with a SKILL.md under `root` while chokidar is busy emitting the entries of a read it
 * already listed, then holds the event loop past chokidar's one-second re-read window (see GapCheck in
 * watch-skills-root.ts): without the gap check those entries get no event and no watch. Call from the first `addDir`.
 */
export function createDuringSlowRead(root: string, count: number): string[] {
  const late = Array.from({ length: count }, (_, i) => join(root, `late-${i}`));
  for (const path of late) {
    mkdirSync(path);
    writeFileSync(join(path, 'SKILL.md'), '---\nname: late\ndescription: v1\n---\n');
  }
  // Two turns of the loop: the inotify events of the new entries reach chokidar first (it notes that the listing
  // changed during its read), then the loop is held until that note has expired, before the read ends.
  setImmediate(() =>
    setImmediate(() => {
      const start = Date.now();
      while (Date.now() - start < 1200) {
        // Busy on purpose.
      }
    }),
  );
  return late;
}
