// Forgetting what a reported change touches (docs/agents.md "Live"): the watcher reports paths, files or directories,
// sometimes hundreds at once (a burst, a folder moved); what was kept by path is forgotten at and under each. Each
// kept key is checked once, by its ancestors, so a report of P paths over K keys costs K × depth, not K × P.

/**
 * Deletes from `kept` the key equal to each of `paths`, and the keys under those paths. `keysHoldNothing`: a path
 * that is itself a key has nothing kept below it (keys are files), so only the other paths are looked under.
 */
export function forgetAtOrUnder(
  kept: Map<string, unknown> | Set<string>,
  paths: Iterable<string>,
  keysHoldNothing = false,
  /** Told each key forgotten. */
  forgot?: (key: string) => void,
): void {
  const dirs = new Set<string>();
  for (const path of paths) {
    const dir = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const deleted = kept.delete(dir);
    if (deleted) forgot?.(dir);
    if (deleted && keysHoldNothing) continue;
    dirs.add(dir);
  }
  if (dirs.size === 0 || kept.size === 0) return;
  if (dirs.has('/')) {
    if (forgot !== undefined) for (const key of kept.keys()) forgot(key);
    kept.clear();
    return;
  }
  for (const key of kept.keys()) {
    if (!hasAncestorIn(key, dirs)) continue;
    kept.delete(key);
    forgot?.(key);
  }
}

/** Whether a proper ancestor directory of `path` is in `dirs`. */
export function hasAncestorIn(path: string, dirs: ReadonlySet<string>): boolean {
  for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
    if (dirs.has(path.slice(0, end))) return true;
  }
  return false;
}
