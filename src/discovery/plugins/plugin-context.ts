// Where the plugin providers of docs/discovery.md §4a look, for one workspace: the Claude config dir, the agent's own plugin
// dir, and the project anchor (the nearest directory from CWD upward holding a `CFG/` directory, stopping before
// HOME; else REPO) that the project registry, the project settings and the scope binding hang off.

import { realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expandEnvPath, type WorkspaceContext } from '../workspace-context.js';

export interface PluginContext {
  ws: WorkspaceContext;
  /** `$CLAUDE_CONFIG_DIR` when set, else `HOME/.claude`. */
  claudeDir: string;
  /** `HOME/CFG/plugins`: the agent's registry, its installed packages and their lock file. */
  agentPluginsDir: string;
  /** The project anchor, or null (no `CFG/` below HOME and no repository). */
  anchor: string | null;
  /** realpath of the active project root (the anchor, else CWD) that project-bound installs must match. */
  activeProject: string | null;
  /** The `<d>/CFG` paths whose appearing or disappearing moves the anchor: watched for presence. */
  anchorMarkers: string[];
}

export async function resolvePluginContext(ws: WorkspaceContext): Promise<PluginContext> {
  const cfg = ws.profile.configDir;
  const { anchor, markers } = await findAnchor(ws);
  return {
    ws,
    claudeDir: claudeConfigDir(ws),
    agentPluginsDir: join(ws.home, cfg, 'plugins'),
    anchor,
    activeProject: await realpath(anchor ?? ws.cwd).catch(() => null),
    anchorMarkers: markers,
  };
}

/** `HOME/.claude`, or `$CLAUDE_CONFIG_DIR` when set (non-empty). */
export function claudeConfigDir(ws: WorkspaceContext): string {
  const override = ws.env.CLAUDE_CONFIG_DIR;
  if (override !== undefined && override !== '') return expandEnvPath(override, ws.home, ws.cwd);
  return join(ws.home, '.claude');
}

/**
 * The nearest directory from CWD upward with a `CFG/` directory, never HOME itself (`HOME/CFG` is the user's own
 * config, not a project); it may lie above the repository. None → REPO.
 */
async function findAnchor(ws: WorkspaceContext): Promise<{ anchor: string | null; markers: string[] }> {
  const markers: string[] = [];
  for (let dir = ws.cwd; dir !== ws.home; ) {
    const marker = join(dir, ws.profile.configDir);
    markers.push(marker);
    const info = await stat(marker).catch(() => null);
    if (info?.isDirectory() === true) return { anchor: dir, markers };
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { anchor: ws.repoRoot, markers };
}
