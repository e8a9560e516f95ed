// What watching one skills directory takes and gives, in either mode (the kernel's watches in
// watch-skills-root-native.ts, chokidar's polling in watch-skills-root.ts): its own file, so the two modes share it
// without importing each other.

export interface SkillsRootWatchOptions {
  /** Absolute real path of an existing skills directory. */
  root: string;
  usePolling: boolean;
  pollIntervalMs: number;
  onEvent: (event: string, path: string) => void;
  /**
   * Entry directories present on disk that chokidar does not track, found once the root's listing is quiet (see
   * GapCheck). chokidar cannot be trusted to take them in itself: a read it still has in flight drops entries that
   * read did not list, so the caller should start the root again.
   */
  onMissed: (paths: string[]) => void;
  onError: (error: Error) => void;
}

export interface SkillsRootWatch {
  readonly root: string;
  /**
   * Whether every entry that comes or goes is reported by its own name (the kernel's watches: a listing lost to a
   * queue overflow is compared again and reported as a change of the root). chokidar's may drop some in a burst, so
   * an entry's event there has the whole listing fingerprinted again.
   */
  readonly namesEntries: boolean;
  /** Paths chokidar tracks for this root (the root, entries, SKILL.md files). */
  watchedPaths(): number;
  close(): Promise<void>;
}
