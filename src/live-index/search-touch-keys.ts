// Which indexed skills a reported path touches, without a pass over all of them (docs/api.md §GET /search, "Updating,
// not rebuilding"): a path touches a skill when it is its SKILL.md, its directory, or the real file discovery read it
// through. The search index keeps these three keys per skill it holds, and sets them again whenever it takes a record.

export class SearchTouchKeys {
  /** Key → the indexed skills (by `filePath`) it touches. */
  private readonly byKey = new Map<string, Set<string>>();
  /** `filePath` → its keys, to take them back. */
  private readonly keysOf = new Map<string, readonly string[]>();

  /** Sets the keys of the skill at `filePath` (its directory and real path as the record and discovery give them). */
  set(filePath: string, baseDir: string, realPath: string | undefined): void {
    const real = realPath === filePath ? undefined : realPath;
    const known = this.keysOf.get(filePath);
    // Most records are taken again as they were: nothing is made for them.
    if (known !== undefined && known[1] === baseDir && known[2] === real) return;
    const keys = real === undefined ? [filePath, baseDir] : [filePath, baseDir, real];
    this.delete(filePath);
    this.keysOf.set(filePath, keys);
    for (const key of keys) {
      const paths = this.byKey.get(key);
      if (paths === undefined) this.byKey.set(key, new Set([filePath]));
      else paths.add(filePath);
    }
  }

  delete(filePath: string): void {
    const keys = this.keysOf.get(filePath);
    if (keys === undefined) return;
    this.keysOf.delete(filePath);
    for (const key of keys) {
      const paths = this.byKey.get(key);
      paths?.delete(filePath);
      if (paths?.size === 0) this.byKey.delete(key);
    }
  }

  /** The indexed skills (`filePath`) that `paths` touch. */
  touchedBy(paths: Iterable<string>): Set<string> {
    const touched = new Set<string>();
    for (const path of paths) for (const filePath of this.byKey.get(path) ?? []) touched.add(filePath);
    return touched;
  }
}
