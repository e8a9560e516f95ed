// Every workspace the daemon serves: the default one (`--cwd`) and those selected with `?cwd=` (docs/api.md §Endpoints).
// Each has its own index, watcher and event stream. Workspaces opened by `?cwd=` cost inotify watches and memory,
// so their number is capped and idle ones are closed:
// - at most `maxWorkspaces` (default 32) live at once; opening one more closes the least recently used idle one;
// - a workspace unused for `idleTimeoutMs` (default 10 minutes) is closed;
// - "idle" = no open event stream; the default workspace is never closed.
// The agent views of a workspace cost far more than its index (every agent's view of every skill), so fewer workspaces
// keep them: at most `server.maxViewWorkspaces` (default 4) at once, the default one included; when one more computes
// its views, the least recently used workspace's views are dropped as idleness drops them, unless a stream follows
// them (docs/api.md "Agent views", SECURITY.md "The views").
// Whose directories may be opened (SECURITY.md, "Links and workspaces"): the daemon reads for a workspace as its own
// user, so a `?cwd=` directory must be its user's own, or named by `server.allowedWorkspaces`; both are judged on the
// directory's real path, and the path given may not go through another user's link.

import { realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { SkillsdError } from '../discovery/errors.js';
import { WalkGate } from '../discovery/files/walk-gate.js';
import { DAEMON_UID, untrustedLinkOnPath, untrustedLinkText } from '../discovery/link-trust.js';
import type { SkillFileCache } from '../discovery/scan/skill-file-cache.js';
import { createSkillFileCache } from '../discovery/scan/skill-file-cache.js';
import type { DiscoveryEnv, Settings } from '../discovery/types.js';
import { WorkspaceIndex } from './workspace-index.js';
import type { DiscoverFn, IndexLogger, WatcherTuning, WorkspaceIndexOptions } from './workspace-index-options.js';

export const DEFAULT_MAX_WORKSPACES = 32;
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_MAX_VIEW_WORKSPACES = 4;
/** First computations of agent views running at once, whatever the number of workspaces (SECURITY.md "The views"). */
export const MAX_FIRST_VIEW_COMPUTATIONS = 2;

export interface WorkspaceRegistryOptions {
  home: string;
  env: DiscoveryEnv;
  /** The default workspace (absolute). */
  defaultCwd: string;
  settings: Settings;
  logger?: IndexLogger;
  maxWorkspaces?: number;
  idleTimeoutMs?: number;
  /** Watch skill directories (default true). */
  watch?: boolean;
  watcher?: WatcherTuning;
  eventLogCapacity?: number;
  discover?: DiscoverFn;
  /**
   * The default workspace's first discovery reads with synchronous calls (`WorkspaceIndexOptions.blockingFirstIndex`):
   * for a caller that waits for it before doing anything else (`serve`, before it listens).
   */
  blockingFirstIndex?: boolean;
  /** The default workspace's first watcher is armed once this resolves (`WorkspaceIndexOptions.armAfter`). */
  armAfter?: Promise<unknown>;
}

export interface RegistryHealth {
  status: 'ok' | 'starting';
  /** Generation of the workspace (0 before its first build). */
  generation: number;
  /** Loaded skills of the workspace. */
  skills: number;
  /** The workspace's discovery diagnostics (`GET /skills` lists them). */
  diagnostics: number;
  uptimeS: number;
  /** Live workspaces, the default one included. */
  workspaces: number;
  /** Live file watchers. */
  watchers: number;
  /** How the workspace's watcher sees changes: file events, polling (watches exhausted), or not watching. */
  watchMode: 'events' | 'polling' | 'off';
}

const SILENT_LOGGER: IndexLogger = { debug() {}, info() {}, warn() {}, error() {} };

export class WorkspaceRegistry {
  readonly home: string;
  readonly defaultCwd: string;
  readonly maxWorkspaces: number;
  readonly idleTimeoutMs: number;
  private readonly env: DiscoveryEnv;
  private currentSettings: Settings;
  private allowWorkspace: (realCwd: string, owned: boolean) => boolean;
  /** What each open `?cwd=` workspace was admitted as: a new allow-list re-judges it without touching the disk. */
  private readonly admitted = new Map<string, { real: string; owned: boolean }>();
  private readonly logger: IndexLogger;
  private readonly options: WorkspaceRegistryOptions;
  private readonly cache: SkillFileCache;
  private readonly workspaces = new Map<string, WorkspaceIndex>();
  /**
   * First computations of agent views run at most {@link MAX_FIRST_VIEW_COMPUTATIONS} at once for all workspaces:
   * many `?cwd=` asked at once wait their turn (answered NotReady meanwhile) instead of all computing side by side.
   */
  readonly firstViewsGate = new WalkGate(MAX_FIRST_VIEW_COMPUTATIONS);
  private readonly buildListeners = new Set<(seconds: number, changed: boolean) => void>();
  private readonly startedAt = Date.now();
  private readonly sweepTimer: NodeJS.Timeout;
  private isClosed = false;

  constructor(options: WorkspaceRegistryOptions) {
    if (!isAbsolute(options.defaultCwd)) {
      throw new SkillsdError('BadRequest', `cwd must be an absolute path: ${options.defaultCwd}`);
    }
    this.options = options;
    this.home = options.home;
    this.env = options.env;
    this.defaultCwd = resolve(options.defaultCwd);
    this.currentSettings = options.settings;
    this.allowWorkspace = workspaceMatcher(options.settings);
    this.logger = options.logger ?? SILENT_LOGGER;
    this.maxWorkspaces = Math.max(1, options.maxWorkspaces ?? DEFAULT_MAX_WORKSPACES);
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    // One cache for every workspace: user-level skill directories are shared by all of them.
    this.cache = createSkillFileCache();
    this.workspaces.set(
      this.defaultCwd,
      this.open(this.defaultCwd, {
        ...(options.blockingFirstIndex === true ? { blockingFirstIndex: true } : {}),
        ...(options.armAfter === undefined ? {} : { armAfter: options.armAfter }),
      }),
    );
    this.sweepTimer = setInterval(() => this.sweepIdle(), Math.max(10, Math.min(this.idleTimeoutMs, 60_000)));
    this.sweepTimer.unref();
  }

  get settings(): Settings {
    return this.currentSettings;
  }

  /** SKILL.md files looked at so far by every workspace's scans (read or found unchanged): a long scan's progress. */
  get skillFilesRead(): number {
    const { hits, misses } = this.cache.stats;
    return hits + misses;
  }

  /** The default workspace's index. */
  get defaultWorkspace(): WorkspaceIndex {
    return this.workspaces.get(this.defaultCwd)!;
  }

  /** Number of live workspaces. */
  get size(): number {
    return this.workspaces.size;
  }

  /** How many workspaces may hold agent views at once (`server.maxViewWorkspaces`; a config reload applies at once). */
  get maxViewWorkspaces(): number {
    return this.currentSettings.server.maxViewWorkspaces ?? DEFAULT_MAX_VIEW_WORKSPACES;
  }

  /** How many live workspaces hold agent views. */
  get viewWorkspaces(): number {
    return this.viewWorkspaceDirs().length;
  }

  /** The directories of the live workspaces that hold agent views, in the order they were opened. */
  viewWorkspaceDirs(): string[] {
    return [...this.workspaces].filter(([, workspace]) => workspace.agentViewsHeld).map(([cwd]) => cwd);
  }

  /** Live workspaces' directories, default first. */
  list(): string[] {
    return [...this.workspaces.keys()];
  }

  /**
   * The index of `cwd` (the default workspace when absent), opened on first use.
   * Throws `BadRequest` for a relative, missing or non-directory path, or one outside a non-empty
   * `server.allowedWorkspaces`; `ForbiddenWorkspace` for a directory another user owns that the list does not name,
   * or a path through another user's link.
   */
  async get(cwd?: string): Promise<WorkspaceIndex> {
    if (this.isClosed) throw new SkillsdError('NotReady', 'The daemon is shutting down');
    const given = cwd !== undefined && cwd !== '';
    if (given) checkCwdSyntax(cwd);
    const key = given ? resolve(cwd) : this.defaultCwd;
    const admitted = key === this.defaultCwd || this.workspaces.has(key) ? undefined : await this.admit(key);
    let workspace = this.workspaces.get(key);
    if (workspace === undefined) {
      if (this.isClosed) throw new SkillsdError('NotReady', 'The daemon is shutting down');
      this.makeRoom();
      workspace = this.open(key);
      this.workspaces.set(key, workspace);
      if (admitted !== undefined) this.admitted.set(key, admitted);
      this.logger.info({ cwd: key, workspaces: this.workspaces.size }, 'workspace opened');
    }
    workspace.touch();
    return workspace;
  }

  /** Re-applies settings to every workspace (config file reload), each logging a `settings` event. */
  async applySettings(settings: Settings, source: string): Promise<void> {
    this.currentSettings = settings;
    this.allowWorkspace = workspaceMatcher(settings);
    // A workspace the new allow-list refuses is closed: its clients must not keep reading it.
    for (const [cwd, workspace] of this.workspaces) {
      const admitted = this.admitted.get(cwd);
      if (cwd === this.defaultCwd || admitted === undefined) continue;
      if (!this.allowWorkspace(admitted.real, admitted.owned)) this.closeWorkspace(cwd, workspace, 'not allowed');
    }
    this.boundViews(undefined);
    await Promise.all([...this.workspaces.values()].map((workspace) => workspace.applySettings(settings, source)));
  }

  /** A refused config edit: every stream hears of it; the last good settings stay in force. */
  reportSettingsError(source: string, message: string): void {
    for (const workspace of this.workspaces.values()) workspace.reportSettingsError(source, message);
  }

  /** The daemon's health, with the generation and skill count of `workspace` (default: the default workspace). */
  health(workspace: WorkspaceIndex = this.defaultWorkspace): RegistryHealth {
    const snapshot = workspace.snapshot;
    let watchers = 0;
    for (const workspace of this.workspaces.values()) if (workspace.watching) watchers++;
    return {
      status: snapshot === undefined ? 'starting' : 'ok',
      generation: snapshot?.generation ?? 0,
      skills: snapshot?.skills.length ?? 0,
      diagnostics: snapshot?.diagnostics.length ?? 0,
      uptimeS: Math.floor((Date.now() - this.startedAt) / 1000),
      workspaces: this.workspaces.size,
      watchers,
      watchMode: workspace.watchMode(),
    };
  }

  /** Calls `listener` after every index build of any workspace (duration in seconds, whether the answer changed). */
  onBuild(listener: (seconds: number, changed: boolean) => void): () => void {
    this.buildListeners.add(listener);
    return () => {
      this.buildListeners.delete(listener);
    };
  }

  /**
   * Whether this daemon should get traffic (docs/deploy.md §Probes): the default workspace has its first index and,
   * when watching, its watcher is armed. Undefined when ready, else the reason.
   */
  notReadyReason(): string | undefined {
    const workspace = this.defaultWorkspace;
    if (this.isClosed || workspace === undefined) return 'the daemon is closing';
    if (workspace.snapshot === undefined) return 'the first index of the default workspace is still being built';
    if (this.options.watch !== false && workspace.watcherStatus() === undefined) {
      return 'the file watcher of the default workspace is starting';
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    clearInterval(this.sweepTimer);
    const all = [...this.workspaces.values()];
    this.workspaces.clear();
    await Promise.all(all.map((workspace) => workspace.close()));
  }

  private open(
    cwd: string,
    first: Pick<WorkspaceIndexOptions, 'blockingFirstIndex' | 'armAfter'> = {},
  ): WorkspaceIndex {
    const workspace = new WorkspaceIndex({
      ...first,
      home: this.home,
      cwd,
      env: this.env,
      settings: this.currentSettings,
      logger: this.logger,
      cache: this.cache,
      watch: this.options.watch,
      watcher: this.options.watcher,
      eventLogCapacity: this.options.eventLogCapacity,
      discover: this.options.discover,
      firstViewsGate: this.firstViewsGate,
      onBuild: (seconds, changed) => {
        for (const listener of this.buildListeners) listener(seconds, changed);
      },
    });
    workspace.onViewsKept = () => this.boundViews(workspace);
    return workspace;
  }

  /**
   * Checks a `?cwd=` directory that is not open yet: what it is (its real path, whether the daemon's user owns it), or
   * an error. An open one was checked when opened, and polling it must not cost a stat per request; a new allow-list
   * re-judges it (`applySettings`).
   */
  private async admit(key: string): Promise<{ real: string; owned: boolean }> {
    const real = await realpath(key).catch(() => undefined);
    const info = real === undefined ? undefined : await stat(real).catch(() => undefined);
    if (real === undefined || info === undefined) throw new SkillsdError('BadRequest', `cwd does not exist: ${key}`);
    if (!info.isDirectory()) throw new SkillsdError('BadRequest', `cwd is not a directory: ${key}`);
    // `/tmp/theirs/link -> /home/<you>/project`: another user's link is not followed, here as in every read.
    const untrusted = await untrustedLinkOnPath(key, real);
    if (untrusted !== undefined) {
      throw new SkillsdError('ForbiddenWorkspace', `cwd is not an allowed workspace: ${untrustedLinkText(untrusted)}`);
    }
    const owned = DAEMON_UID === undefined || info.uid === DAEMON_UID;
    if (!this.allowWorkspace(real, owned)) {
      if (!owned) {
        throw new SkillsdError(
          'ForbiddenWorkspace',
          `cwd is not an allowed workspace: ${real} is owned by uid ${info.uid}, not by the daemon's user ` +
            `(uid ${DAEMON_UID}), and server.allowedWorkspaces does not name it`,
        );
      }
      throw new SkillsdError('BadRequest', `cwd is not an allowed workspace (server.allowedWorkspaces): ${key}`);
    }
    return { real, owned };
  }

  /** Closes the least recently used idle workspace when the cap is reached. */
  private makeRoom(): void {
    if (this.workspaces.size < this.maxWorkspaces) return;
    let oldest: [string, WorkspaceIndex] | undefined;
    for (const entry of this.workspaces) {
      const [cwd, workspace] = entry;
      if (cwd === this.defaultCwd || workspace.events.subscriberCount > 0) continue;
      if (oldest === undefined || workspace.lastUsed < oldest[1].lastUsed) oldest = entry;
    }
    if (oldest === undefined) {
      throw new SkillsdError(
        'BadRequest',
        `Too many open workspaces (${this.maxWorkspaces}), each with an open event stream; close one and retry`,
      );
    }
    this.closeWorkspace(oldest[0], oldest[1], 'evicted');
  }

  /**
   * While more than `server.maxViewWorkspaces` workspaces hold agent views, drops those of the least recently used,
   * `kept` (whose views were just computed) excepted and those a stream follows skipped. Each dropped view is computed
   * again on its next request, to the same answers.
   */
  private boundViews(kept: WorkspaceIndex | undefined): void {
    const holding = [...this.workspaces.entries()].filter(([, workspace]) => workspace.agentViewsHeld);
    let count = holding.length;
    if (count <= this.maxViewWorkspaces) return;
    holding.sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [cwd, workspace] of holding) {
      if (count <= this.maxViewWorkspaces) break;
      if (workspace === kept || !workspace.dropAgentViews()) continue;
      count--;
      this.logger.info({ cwd, viewWorkspaces: count }, 'agent views dropped: server.maxViewWorkspaces');
    }
  }

  private sweepIdle(): void {
    const now = Date.now();
    for (const [cwd, workspace] of this.workspaces) {
      if (cwd === this.defaultCwd || workspace.events.subscriberCount > 0) continue;
      if (now - workspace.lastUsed >= this.idleTimeoutMs) this.closeWorkspace(cwd, workspace, 'idle');
    }
  }

  private closeWorkspace(cwd: string, workspace: WorkspaceIndex, reason: string): void {
    this.workspaces.delete(cwd);
    this.admitted.delete(cwd);
    this.logger.info({ cwd, reason }, 'workspace closed');
    workspace.close().catch((error: unknown) => this.logger.error({ err: error, cwd }, 'closing a workspace failed'));
  }
}

function checkCwdSyntax(cwd: string): void {
  if (!isAbsolute(cwd)) throw new SkillsdError('BadRequest', `cwd must be an absolute path: ${cwd}`);
  if (cwd.includes('\0')) throw new SkillsdError('BadRequest', 'cwd must not contain a NUL byte');
}

/**
 * `server.allowedWorkspaces` (picomatch globs, `dot` on), matched on a directory's real path: `allowed/link ->
 * /elsewhere` is judged as `/elsewhere`. A glob is also tried with the real path of its fixed leading part, so a glob
 * written through the user's own link (`/tmp/…` where `/tmp` is a link) still names what it meant. An empty list
 * admits the daemon's user's own directories only; a non-empty one admits exactly what it names.
 */
function workspaceMatcher(settings: Settings): (realCwd: string, owned: boolean) => boolean {
  const globs = settings.server.allowedWorkspaces;
  if (globs.length === 0) return (_realCwd, owned) => owned;
  const isMatch = picomatch([...new Set(globs.flatMap((glob) => [glob, ...realGlob(glob)]))], { dot: true });
  return (realCwd) => isMatch(realCwd);
}

/** `glob` with its fixed leading directories replaced by their real path, when that differs; else nothing. */
function realGlob(glob: string): string[] {
  const { base, glob: rest, isGlob } = picomatch.scan(glob);
  if (base === '' || !isAbsolute(base)) return [];
  let real: string;
  try {
    real = realpathSync(base);
  } catch {
    return [];
  }
  if (real === base) return [];
  return [isGlob ? join(real, rest) : real];
}
