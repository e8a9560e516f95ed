// What a workspace's live index is built from (workspace-index.ts): the options its owner passes and the shapes of the
// parts it may swap (the logger, discovery itself, the watcher's tuning). A file of its own so that the files the index
// is made of (its watcher, its agent views, its live doctor) name these types without importing the index back.

import type { BaseLogger } from 'pino';
import type { WalkGate } from '../discovery/files/walk-gate.js';
import type { ScanMemo } from '../discovery/scan/scan-memo.js';
import type { SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type { DiscoveryContext, DiscoveryEnv, Settings, SkillDiscovery } from '../discovery/types.js';
import type { SkillWatcher } from '../watch/skill-watcher-types.js';

export type IndexLogger = Pick<BaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

export type DiscoverFn = (
  ctx: DiscoveryContext,
  options?: { cache?: SkillFileCache; scans?: ScanMemo; blocking?: boolean; sliced?: boolean },
) => Promise<SkillDiscovery>;

/** Tuning passed through to the file watcher (tests shorten the delays). */
export interface WatcherTuning {
  coalesceMs?: number;
  rereadDelayMs?: number;
  reconcileIntervalMs?: number;
  usePolling?: boolean;
  pollIntervalMs?: number;
  /** How much older than the views' read a change may look and still count (skill-watcher-types.ts). */
  readAtSlackMs?: number;
}

export type WatcherStatus = ReturnType<SkillWatcher['status']>;

export interface WorkspaceIndexOptions {
  home: string;
  cwd: string;
  env: DiscoveryEnv;
  settings: Settings;
  logger?: IndexLogger;
  /** Parsed SKILL.md files shared across rebuilds, so a reload re-reads only what changed. */
  cache?: SkillFileCache;
  /** Watch the skill directories (default true). Without it the index only changes on `rebuild()`. */
  watch?: boolean;
  watcher?: WatcherTuning;
  eventLogCapacity?: number;
  /** Discovery itself; the pipeline of docs/discovery.md unless a caller wraps it. */
  discover?: DiscoverFn;
  /** Delay before retrying a first discovery that threw. */
  retryDelayMs?: number;
  /** Live doctor findings (SSE `diagnostic`) up to this many loaded skills (default 2000; 0: never). */
  diagnosticsMaxSkills?: number;
  /** Told after every completed build: how long it took and whether the answer changed (the daemon's metrics). */
  onBuild?: (seconds: number, changed: boolean) => void;
  /**
   * The first discovery (until one succeeds) reads SKILL.md files with synchronous calls (`DiscoverOptions.blocking`):
   * the same answer, several times sooner, while nothing else runs. Only for an owner that waits for `firstIndex`
   * before it serves; later builds never block the event loop.
   */
  blockingFirstIndex?: boolean;
  /**
   * The first watcher is armed once this resolves (the skills directories' own listings are watched from the first
   * index on, as during the arming): a server lets its first answers go out before the watcher's arming takes the event
   * loop. Absent: armed right after the first index.
   */
  armAfter?: Promise<unknown>;
  /** Per-agent views nobody used for this long are dropped (default 10 minutes; docs/agents.md "Live"). */
  agentViewsIdleMs?: number;
  /**
   * Turns for first computations of the views, shared by the workspaces of one registry (docs/agents.md "Live"):
   * absent, a workspace computes its first views whenever they are asked for.
   */
  firstViewsGate?: WalkGate;
}
