// What the skill watcher takes and gives (docs/architecture.md, step 1 "Watch"): its own file, so that the index,
// which only holds a watcher, names these shapes without loading the watching code.

import type { BaseLogger } from 'pino';
import type { WatchMode } from './watch-presence.js';

export interface WatchTargets {
  /** Skills directories as discovery scans them; may not exist yet, may be symlinks. */
  skillDirs: string[];
  /** Directories whose `.git` entry appearing or disappearing changes REPO (CWD and its ancestors). */
  markerDirs: string[];
  /** Single files to watch. */
  files?: string[];
  /** Paths watched for presence and type only, like a `.git` marker (a `CFG/` directory that moves an anchor). */
  markerPaths?: string[];
  /**
   * Skills directories and files the caller already read, each with the wall-clock time (ms) it read them at or
   * after. Once armed, a new target listed here is reported only where something changed since (watch-signature.ts
   * ReadAt); any other new target is reported whole (`update`).
   */
  readAt?: ReadonlyMap<string, number>;
}

export interface WatcherStatus {
  mode: WatchMode;
  /**
   * Paths under watch: skills directories and their entry directories (each entry's watch sees its SKILL.md), or,
   * polling, chokidar's tracked paths; plus the directories (or, polling, the names) watched for presence.
   */
  watchedPaths: number;
  /** Skills directories and files that do not exist yet, armed on their nearest existing ancestor. */
  pendingAncestors: number;
  /** Reconciliation scans completed. */
  reconciliations: number;
  lastError: string | null;
}

/** The logger methods used (a pino Logger fits). */
export type WatcherLogger = Pick<BaseLogger, 'debug' | 'warn'>;

export interface SkillWatcherOptions {
  targets: WatchTargets;
  /** Coalesced: the changed paths (sorted, unique) since the last call. */
  onChange: (paths: string[]) => void;
  /** Debug lines for events and timings; a warning when switching to polling. */
  logger?: WatcherLogger;
  /** Delay before the first onChange of a quiet period (default 3). Bursts stretch it up to 300 ms. */
  coalesceMs?: number;
  /** Re-check of what an onChange reported (default 75): catches the second of two quick writes. */
  rereadDelayMs?: number;
  /** Reconciliation scan period (default 30 000). */
  reconcileIntervalMs?: number;
  /** Start in polling mode. */
  usePolling?: boolean;
  /** Poll period in polling mode (default 250). */
  pollIntervalMs?: number;
  /**
   * Work that goes first while the watcher arms (a rebuild in flight): the arming's fingerprints pause between slices
   * until it is done. Only the arming: later operations may be what such work waits for (`update`).
   */
  yieldTo?: () => Promise<unknown> | null;
  /**
   * How much older than its read time a target's change may look and still count as made since (default 2,000 ms;
   * `WatchTargets.readAt`): timestamps of some file systems are whole seconds, and the kernel's clock for them runs a
   * tick behind.
   */
  readAtSlackMs?: number;
}

export interface SkillWatcher {
  /**
   * Re-arms for a new target list; targets present before and after keep their watches (no event is lost). The new
   * targets are reported to onChange once armed (those with a read time only where they changed since it).
   */
  update(targets: WatchTargets): Promise<void>;
  /** Runs the reconciliation scan now; true if it found a difference (and called onChange). */
  reconcileNow(): Promise<boolean>;
  /** Drops every event watch and polls instead (what a watcher error such as ENOSPC does by itself). */
  switchToPolling(reason: string): Promise<void>;
  status(): WatcherStatus;
  close(): Promise<void>;
}
