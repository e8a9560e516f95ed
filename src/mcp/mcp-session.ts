// What one MCP session reads: its workspace (docs/mcp.md §Transports: `?cwd=`/`--cwd`, else the client's first `file://`
// root, else the daemon's default workspace), how its text names skill locations (`paths`), and the index events of
// that workspace, which drive its change notifications.

import { fileURLToPath } from 'node:url';
import { ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FileDigests } from '../discovery/files/file-digests.js';
import type { ResolveOptions } from '../discovery/files/resolve-skill-url.js';
import {
  LOCAL_LOCATIONS,
  type PathsChoice,
  SKILL_URI_LOCATIONS,
  type SkillLocations,
} from '../discovery/skill-locations.js';
import type { Settings, Skill } from '../discovery/types.js';
import type { EventListener } from '../live-index/event-log.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import type { WorkspaceIndex } from '../live-index/workspace-index.js';
import type { IndexLogger } from '../live-index/workspace-index-options.js';
import type { WorkspaceRegistry } from '../live-index/workspace-registry.js';
import { DEFAULT_PAGE_SIZE } from './pagination.js';
import type { SubscriptionBudget } from './subscription-budget.js';

/** The daemon's parts an MCP server reads; shared by every session. */
export interface McpDependencies {
  registry: WorkspaceRegistry;
  /** The settings in force, read per request (symlink mode, skill commands). */
  getSettings: () => Settings;
  digests: FileDigests;
  /** How long a request waits for a workspace's first index. */
  readyWaitMs: number;
  logger: IndexLogger;
  /** Items per page of the list methods (default 100). */
  pageSize?: number;
  /** Server version reported in `initialize`. */
  version: string;
  /** The subscriptions all sessions may hold together (default: a budget of this session's own). */
  subscriptions?: SubscriptionBudget;
  /** How long the client gets to answer `roots/list` (default 10 s). */
  rootsTimeoutMs?: number;
}

export interface McpSessionOptions {
  /** `?cwd=` or `--cwd`: the workspace, fixed for the session; undefined lets the client's roots choose. */
  cwd?: string;
  /** `local`: text names local paths; `url`: it names `skill://` URIs. */
  paths: PathsChoice;
}

/** Sends a request to the client within the request being handled (the SDK's `extra.sendRequest`). */
export type AskClient = (request: { method: 'roots/list' }, schema: typeof ListRootsResultSchema) => Promise<unknown>;

/** How long the client gets to answer `roots/list` before the default workspace answers instead. */
const ROOTS_TIMEOUT_MS = 10_000;

export class McpSession {
  readonly deps: McpDependencies;
  readonly paths: PathsChoice;
  readonly pageSize: number;
  private readonly explicitCwd: string | undefined;
  /** The first `file://` root, once asked; undefined when the client has none (or none is allowed). */
  private rootCwd: string | undefined;
  private rootsKnown = false;
  private clientHasRoots: () => boolean = () => false;
  private attached: { workspace: WorkspaceIndex; unsubscribe: () => void } | undefined;
  private readonly listeners = new Set<EventListener>();
  private closed = false;

  constructor(deps: McpDependencies, options: McpSessionOptions) {
    this.deps = deps;
    this.paths = options.paths;
    this.explicitCwd = options.cwd;
    this.pageSize = Math.max(1, deps.pageSize ?? DEFAULT_PAGE_SIZE);
  }

  /** The locations text names: local paths, or `skill://` URIs. */
  get locations(): SkillLocations {
    return this.paths === 'url' ? SKILL_URI_LOCATIONS : LOCAL_LOCATIONS;
  }

  /**
   * Whether the client offers roots: read when a request needs the workspace, since its capabilities are known from
   * `initialize` on (the `initialized` notification may be handled after the next request).
   */
  setClientRoots(supported: () => boolean): void {
    this.clientHasRoots = supported;
  }

  /** `notifications/roots/list_changed`: the next request asks for the roots again. */
  rootsChanged(): void {
    this.rootsKnown = false;
  }

  /**
   * The session's workspace and its current snapshot. Without an explicit cwd, the client's roots are asked once
   * (within the request being handled, so the question travels on that request's own stream).
   */
  async view(ask?: AskClient): Promise<{ workspace: WorkspaceIndex; snapshot: WorkspaceSnapshot }> {
    if (this.explicitCwd === undefined && !this.rootsKnown && this.clientHasRoots() && ask !== undefined) {
      this.rootsKnown = true;
      this.rootCwd = await this.firstAllowedRoot(ask);
    }
    const workspace = await this.deps.registry.get(this.explicitCwd ?? this.rootCwd);
    this.attach(workspace);
    const snapshot = await workspace.whenReady(this.deps.readyWaitMs);
    return { workspace, snapshot };
  }

  /** Resolution options for this snapshot, as the file route builds them. */
  resolveOptions(snapshot: WorkspaceSnapshot): ResolveOptions {
    return {
      profile: snapshot.profile,
      symlinks: this.deps.getSettings().symlinks,
      knownRealPath: (filePath) => snapshot.knownRealPath(filePath),
    };
  }

  skills(snapshot: WorkspaceSnapshot): Skill[] {
    return snapshot.skills as Skill[];
  }

  /** Index events of the session's workspace, whichever it is at the time. */
  onIndexEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Subscribes to the session's workspace now, so changes are heard before the first request. */
  async start(): Promise<void> {
    const workspace = await this.deps.registry.get(this.explicitCwd ?? this.rootCwd);
    this.attach(workspace);
  }

  close(): void {
    this.closed = true;
    this.attached?.unsubscribe();
    this.attached = undefined;
    this.listeners.clear();
  }

  private attach(workspace: WorkspaceIndex): void {
    if (this.closed || this.attached?.workspace === workspace) return;
    this.attached?.unsubscribe();
    // Observed, not subscribed: a session does not keep its workspace open (docs/mcp.md "Session bounds"). Sessions
    // on 31 distinct `?cwd=` used to hold every workspace slot, and each new `?cwd=` answered 400. A workspace closed
    // as idle is reopened by the session's next request (`view`).
    const stopEvents = workspace.events.observe((event) => {
      for (const listener of [...this.listeners]) listener(event);
    });
    const stopClose = workspace.onClose(() => {
      if (this.attached?.workspace === workspace) this.attached = undefined;
    });
    this.attached = {
      workspace,
      unsubscribe: () => {
        stopEvents();
        stopClose();
      },
    };
  }

  private async firstAllowedRoot(ask: AskClient): Promise<string | undefined> {
    let roots: Array<{ uri: string }>;
    try {
      const answer = (await Promise.race([
        ask({ method: 'roots/list' }, ListRootsResultSchema),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no answer')), this.deps.rootsTimeoutMs ?? ROOTS_TIMEOUT_MS).unref(),
        ),
      ])) as { roots: Array<{ uri: string }> };
      roots = answer.roots;
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'MCP client did not list its roots; serving the default workspace');
      return undefined;
    }
    const root = roots.find((candidate) => candidate.uri.startsWith('file://'));
    if (root === undefined) return undefined;
    try {
      const cwd = fileURLToPath(root.uri);
      // Validated like `?cwd=` (absolute, a directory, `server.allowedWorkspaces`).
      await this.deps.registry.get(cwd);
      return cwd;
    } catch (error) {
      this.deps.logger.warn({ err: error, root: root.uri }, 'MCP root refused; serving the default workspace');
      return undefined;
    }
  }
}
