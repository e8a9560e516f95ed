// What one event of a root watch means to the skill watcher (skill-watcher.ts): a path under a skills directory's
// real path is named again under each logical skills directory that leads there, with the fingerprints it may have
// changed (the directory's listing, an entry, an entry's SKILL.md). Nothing deeper is read by discovery
// (docs/discovery.md §3), so nothing deeper means anything.

import { join, sep } from 'node:path';
import type { ChangeCoalescer } from './change-coalescer.js';
import type { RootEntry } from './root-watches.js';
import type { WatchKey } from './watch-signature.js';
import { SKILL_FILE } from './watch-skills-root.js';

/**
 * Notes in `changes` what `event` on `path` (under `entry.real`) changed; `skillsDirGone` is told of each logical
 * skills directory whose own directory was deleted or renamed away. An entry's event has the directory's listing
 * fingerprinted again too, unless the watch that saw it names every entry that comes or goes (at 50,000 skills,
 * listing the directory of 7,612 siblings again cost about 7 ms of every skill added or removed there).
 */
export function routeRootEvent(
  entry: Pick<RootEntry, 'real' | 'aliases' | 'watch'>,
  event: string,
  path: string,
  changes: Pick<ChangeCoalescer, 'note' | 'suspectEntry'>,
  skillsDirGone: (alias: string) => void,
): void {
  const relative = path === entry.real ? [] : path.slice(entry.real.length + 1).split(sep);
  const listingToo = entry.watch?.namesEntries !== true;
  for (const alias of entry.aliases) {
    const dirKey: WatchKey = { kind: 'dir', path: alias };
    if (relative.length === 0) {
      changes.note(alias, [dirKey]);
      if (event === 'unlinkDir') skillsDirGone(alias);
    } else if (relative.length === 1) {
      const entryPath = join(alias, relative[0]!);
      if (event === 'unlinkDir') changes.suspectEntry(entryPath);
      const entryKey: WatchKey = { kind: 'entry', path: entryPath };
      changes.note(entryPath, listingToo ? [dirKey, entryKey] : [entryKey]);
    } else if (relative.length === 2 && relative[1] === SKILL_FILE) {
      const entryPath = join(alias, relative[0]!);
      // `rm -rf <entry> && mkdir <entry>` shows up as this unlink alone, and the new directory may reuse the inode.
      if (event === 'unlink') changes.suspectEntry(entryPath);
      changes.note(join(entryPath, SKILL_FILE), [{ kind: 'entry', path: entryPath }]);
    }
  }
}
