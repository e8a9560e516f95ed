// The watcher's targets (docs/discovery.md §3 and §0: skills directories, `.git` markers, single files), what each
// one's watches are, and which fingerprint keys belong to the current set: the bookkeeping the skill watcher
// (skill-watcher.ts) re-arms on every change of the target list.

import { dirname, resolve } from 'node:path';
import type { WatchTargets } from './skill-watcher-types.js';
import type { Resolution } from './watch-resolve.js';
import type { WatchKey } from './watch-signature.js';

export type TargetKind = 'skills' | 'marker' | 'file';

export interface Target {
  kind: TargetKind;
  /** The logical path: a skills directory, a `<dir>/.git` marker, a file. */
  path: string;
  key: WatchKey;
  resolution: Resolution | null;
  unwatchPresence: (() => void) | null;
  /** A symlink target that leads nowhere yet: the watch on where its target would appear. */
  unwatchLink: (() => void) | null;
  /** Real path of the root watch this skills directory is attached to. */
  root: string | null;
}

/** The targets `next` asks for, by id (`<kind>:<absolute path>`): a marker directory stands for its `.git` entry. */
export function wantedTargets(next: WatchTargets): Map<string, { kind: TargetKind; path: string }> {
  const wanted = new Map<string, { kind: TargetKind; path: string }>();
  for (const dir of next.skillDirs) wanted.set(`skills:${resolve(dir)}`, { kind: 'skills', path: resolve(dir) });
  for (const dir of next.markerDirs) {
    const path = resolve(dir, '.git');
    wanted.set(`marker:${path}`, { kind: 'marker', path });
  }
  for (const file of next.files ?? []) wanted.set(`file:${resolve(file)}`, { kind: 'file', path: resolve(file) });
  for (const marker of next.markerPaths ?? []) {
    wanted.set(`marker:${resolve(marker)}`, { kind: 'marker', path: resolve(marker) });
  }
  return wanted;
}

/** A target not resolved nor watched yet. */
export function newTarget(kind: TargetKind, path: string): Target {
  const keyKind = kind === 'skills' ? 'dir' : kind;
  return {
    kind,
    path,
    key: { kind: keyKind, path },
    resolution: null,
    unwatchPresence: null,
    unwatchLink: null,
    root: null,
  };
}

/** Whether `key` is the fingerprint of one of `targets` (an entry's, of its skills directory). */
export function isTargetKey(targets: ReadonlyMap<string, Target>, key: WatchKey): boolean {
  switch (key.kind) {
    case 'dir':
      return targets.has(`skills:${key.path}`);
    case 'entry':
      return targets.has(`skills:${dirname(key.path)}`);
    default:
      return targets.has(`${key.kind}:${key.path}`);
  }
}

/** Skills directories and files that do not exist yet: each is armed on its nearest existing ancestor. */
export function countPendingAncestors(targets: Iterable<Target>): number {
  let pendingAncestors = 0;
  for (const target of targets) {
    const resolution = target.resolution;
    if (resolution === null) continue;
    if (target.kind === 'skills' && !resolution.isDir) pendingAncestors++;
    if (target.kind === 'file' && !resolution.exists) pendingAncestors++;
  }
  return pendingAncestors;
}
