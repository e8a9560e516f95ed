// Symlinked entries and SKILL.md files are watched where they really are: discovery reads through the links (a skill is
// a sub-directory or a link to one, docs/discovery.md §3) but the root watches do not follow them. One presence watch
// per link target, shared by every entry that leads there.

import type { PresenceWatcher } from './watch-presence.js';
import type { LinkTarget } from './watch-signature.js';

interface LinkWatch {
  unwatch: () => void;
  entryPaths: Set<string>;
}

export class LinkWatches {
  private readonly watches = new Map<string, LinkWatch>();
  /** Whether a watch went since the last `sync` (its target replaced, or all closed): the next `sync` must run. */
  private lost = true;

  /** `onTargetChanged` gets the entries whose link target changed, to fingerprint again. */
  constructor(private readonly onTargetChanged: (entryPaths: ReadonlySet<string>) => void) {}

  /** Watches exactly the targets of `links` (the fingerprints' current list), through `presence`. */
  sync(links: readonly LinkTarget[], presence: PresenceWatcher): void {
    const wanted = new Map<string, { dir: string; name: string; entryPaths: Set<string> }>();
    for (const link of links) {
      const id = `${link.dir}\0${link.name}`;
      const found = wanted.get(id);
      if (found !== undefined) found.entryPaths.add(link.entryPath);
      else wanted.set(id, { dir: link.dir, name: link.name, entryPaths: new Set([link.entryPath]) });
    }
    for (const [id, watch] of this.watches) {
      if (wanted.has(id)) continue;
      watch.unwatch();
      this.watches.delete(id);
    }
    for (const [id, { dir, name, entryPaths }] of wanted) {
      const existing = this.watches.get(id);
      if (existing !== undefined) {
        existing.entryPaths = entryPaths;
        continue;
      }
      const watch: LinkWatch = { unwatch: () => {}, entryPaths };
      watch.unwatch = presence.watch(dir, name, (dirGone) => {
        // The target directory was replaced: the flush this schedules subscribes again, to the new one.
        if (dirGone && this.watches.get(id) === watch) {
          this.watches.delete(id);
          this.lost = true;
        }
        this.onTargetChanged(watch.entryPaths);
      });
      this.watches.set(id, watch);
    }
    this.lost = false;
  }

  /** Whether `sync` with the same targets as last time would change nothing. */
  get current(): boolean {
    return !this.lost;
  }

  close(): void {
    for (const link of this.watches.values()) link.unwatch();
    this.watches.clear();
    this.lost = true;
  }
}
