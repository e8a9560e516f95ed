// Claude Code's plugin skills (docs/agents.md "Claude Code"): the plugins of the Claude registry alone, with
// `enabledPlugins` and the project binding as the daemon's claude-plugins provider applies them (docs/discovery.md
// §4a step 1), each plugin's skills directories placed by the same manifest rules. The agent's own registry and the
// project registry are the daemon's, not Claude Code's: they play no part here.

import { claudePluginSkillDirs, listClaudeRegistryRoots } from '../plugins/claude-plugins.js';
import { resolvePluginContext } from '../plugins/plugin-context.js';
import { emptyInputs } from '../plugins/plugin-root.js';
import { defaultSettings } from '../settings.js';
import type { Profile } from '../types.js';
import { resolveWorkspaceContext } from '../workspace-context.js';
import type { AgentContext, ClaudePluginDirs } from './types.js';

/**
 * `profile` is the daemon's: the project a project-bound install must belong to is the registry anchor of
 * docs/discovery.md §4a, which that profile's config directory places.
 */
export async function claudePluginDirs(ctx: AgentContext, profile: Profile): Promise<ClaudePluginDirs> {
  const configDir = ctx.env.CLAUDE_CONFIG_DIR;
  const ws = await resolveWorkspaceContext({
    home: ctx.home,
    cwd: ctx.cwd,
    env: configDir === undefined ? {} : { CLAUDE_CONFIG_DIR: configDir },
    settings: { ...defaultSettings(), profile },
  });
  const pc = await resolvePluginContext(ws);
  const inputs = emptyInputs();
  const registry = await listClaudeRegistryRoots(pc, inputs);
  // Two entries installed at one path are one plugin root (docs/discovery.md §4a).
  const seen = new Set<string>();
  const listed = {
    roots: registry.roots.filter((root) => !seen.has(root.path) && seen.add(root.path) !== undefined),
    warnings: registry.warnings,
  };
  const warnings = [...listed.warnings];
  // The install directories themselves: a plugin copied in after its registry entry was written.
  for (const root of listed.roots) inputs.files.add(root.path);
  const placed = await Promise.all(listed.roots.map((root) => claudePluginSkillDirs(root, inputs)));
  const dirs: ClaudePluginDirs['dirs'] = [];
  for (const [index, root] of listed.roots.entries()) {
    const { dirs: skillDirs, warnings: manifestWarnings } = placed[index] as (typeof placed)[number];
    warnings.push(...manifestWarnings);
    for (const path of skillDirs) dirs.push({ path, plugin: root.name });
  }
  return { dirs, installs: listed.roots.map((root) => root.path), files: [...inputs.files], warnings };
}
