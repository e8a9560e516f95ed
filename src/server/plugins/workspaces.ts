// Gives routes their workspace: `?cwd=` (or the default workspace) → its index and current snapshot.
// A workspace opened a moment ago is waited for briefly; past that the answer is 503 `NotReady` with
// `Retry-After` (docs/api.md §Errors), so a slow first scan never holds a client forever.

import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Settings } from '../../discovery/types.js';
import type { AgentViewsState } from '../../live-index/agent-views-state.js';
import type { WorkspaceSnapshot } from '../../live-index/snapshot.js';
import type { WorkspaceIndex } from '../../live-index/workspace-index.js';
import type { WorkspaceRegistry } from '../../live-index/workspace-registry.js';

export interface WorkspacesOptions {
  registry: WorkspaceRegistry;
  /** The settings in force, read per request (symlink mode, skill commands): a config reload applies at once. */
  getSettings: () => Settings;
  /** How long a request waits for a workspace's first index before answering 503. */
  readyWaitMs: number;
}

export interface WorkspaceView {
  workspace: WorkspaceIndex;
  snapshot: WorkspaceSnapshot;
}

declare module 'fastify' {
  interface FastifyInstance {
    registry: WorkspaceRegistry;
    getSettings: () => Settings;
    /** The workspace of `cwd` and its current snapshot; throws `BadRequest` or `NotReady`. */
    workspaceView(cwd: string | undefined): Promise<WorkspaceView>;
    /**
     * The default workspace and its snapshot when `cwd` is absent and that workspace is open and indexed; otherwise
     * undefined (then `workspaceView` answers, or throws). Polls of the default workspace are the hot path: this
     * answers them without a promise.
     */
    readyDefaultView(cwd: string | undefined): WorkspaceView | undefined;
    /** The workspace of `cwd`, its snapshot and its agent views; throws `BadRequest` or `NotReady`. */
    /**
     * The workspace's agent views; `findings: false` for an answer that reads no diagnostics (the matrix, a catalog),
     * which then does not wait for the doctor's findings of the first views.
     */
    agentViewsOf(cwd: string | undefined, findings?: boolean): Promise<WorkspaceView & { agents: AgentViewsState }>;
  }
}

const workspaces: FastifyPluginAsync<WorkspacesOptions> = async (app, options) => {
  app.decorate('registry', options.registry);
  app.decorate('getSettings', options.getSettings);
  app.decorate('workspaceView', async (cwd: string | undefined): Promise<WorkspaceView> => {
    const workspace = await options.registry.get(cwd);
    const snapshot = await workspace.whenReady(options.readyWaitMs);
    return { workspace, snapshot };
  });
  app.decorate('agentViewsOf', async (cwd: string | undefined, findings = true) => {
    const workspace = await options.registry.get(cwd);
    const snapshot = await workspace.whenReady(options.readyWaitMs);
    const agents = await workspace.agentViews(options.readyWaitMs, findings);
    return { workspace, snapshot, agents };
  });
  app.decorate('readyDefaultView', (cwd: string | undefined): WorkspaceView | undefined => {
    if (cwd !== undefined && cwd !== '') return undefined;
    // A closed registry holds no workspace at all; `workspaceView` then answers NotReady.
    const workspace = options.registry.defaultWorkspace as WorkspaceIndex | undefined;
    const snapshot = workspace?.closed === false ? workspace.snapshot : undefined;
    if (workspace === undefined || snapshot === undefined) return undefined;
    workspace.touch();
    return { workspace, snapshot };
  });
};

export const workspacesPlugin = fp(workspaces, { name: 'skillsd-workspaces', fastify: '5.x' });
