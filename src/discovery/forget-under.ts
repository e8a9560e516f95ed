// Forgetting what a reported change touches (docs/agents.md "Live"): the watcher reports paths, files or directories,
// sometimes hundreds at once (a burst, a folder moved); what was kept by path is forgotten at and under each. Each
// kept key is checked once, by its ancestors, so a report of P paths over K keys costs K × depth, not K × P; a report
// of a few paths checks each key by prefix, K × P with P small.

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
  // A few paths (an edit reports one or two): each key is tested by prefix, one native comparison per path, instead of
  // a lookup per ancestor.
  const prefixes = dirs.size <= FEW_PATHS ? [...dirs].map((dir) => `${dir}/`) : undefined;
  for (const key of kept.keys()) {
    if (prefixes === undefined ? !hasAncestorIn(key, dirs) : !prefixes.some((prefix) => key.startsWith(prefix))) {
      continue;
    }
    kept.delete(key);
    forgot?.(key);
  }
}

/** Up to this many paths, keys are tested by prefix (`forgetAtOrUnder`). */
const FEW_PATHS = 4;

/** Whether a proper ancestor directory of `path` is in `dirs`. */
export function hasAncestorIn(path: string, dirs: ReadonlySet<string>): boolean {
  for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
    if (dirs.has(path.slice(0, end))) return true;
  }
  return false;
}
