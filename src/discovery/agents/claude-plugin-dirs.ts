// Claude Code's plugin skills (docs/agents.md "Claude Code"): the plugins of the Claude registry alone, with
// `enabledPlugins` and the project binding as the daemon's claude-plugins provider applies them (docs/discovery.md
// §4a step 1), each plugin's skills directories placed by the same manifest rules. The agent's own registry and the
// project registry are the daemon's, not Claude Code's: they play no part here.

import { isAbsolute, join, resolve } from 'node:path';
import { claudePluginSkillDirs, listClaudeRegistryRoots } from '../plugins/claude-plugins.js';
import { resolvePluginContext } from '../plugins/plugin-context.js';
import { emptyInputs, type PluginInputs, type PluginRoot } from '../plugins/plugin-root.js';
import { defaultSettings } from '../settings.js';
import type { Profile } from '../types.js';
import { resolveWorkspaceContext } from '../workspace-context.js';
import { envPath } from './agent-context.js';
import { readSideFile } from './side-file.js';
import type { AgentContext, ClaudePluginDirs } from './types.js';

/** Marketplace files are a few KiB; 1 MiB is the cap of the daemon's own settings files. */
const MAX_MARKETPLACE_BYTES = 1024 * 1024;

/**
 * A JSON file's value, or undefined when it is missing, fails a guard of the one guarded reader (a FIFO, a link to
 * /dev/zero: never waited on, never read whole) or does not parse. It is watched either way.
 */
async function readJson(path: string, inputs: PluginInputs): Promise<unknown> {
  inputs.files.add(path);
  const read = await readSideFile(path, MAX_MARKETPLACE_BYTES);
  if (read.status !== 'ok') return undefined;
  try {
    return JSON.parse(read.text);
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The root Claude Code reads a plugin from: for a marketplace of source `directory` (known_marketplaces.json), the
 * plugin's folder in that directory as its marketplace.json places it; else the install directory.
 */
async function directorySourced(root: PluginRoot, pluginsDir: string, inputs: PluginInputs): Promise<PluginRoot> {
  const at = root.id.lastIndexOf('@');
  if (at < 0) return root;
  const marketplace = field(await readJson(join(pluginsDir, 'known_marketplaces.json'), inputs), root.id.slice(at + 1));
  const source = field(marketplace, 'source');
  const dir = field(source, 'path');
  if (field(source, 'source') !== 'directory' || typeof dir !== 'string' || !isAbsolute(dir)) return root;
  const manifest = await readJson(join(dir, '.claude-plugin', 'marketplace.json'), inputs);
  const plugins = field(manifest, 'plugins');
  const entry = Array.isArray(plugins) ? plugins.find((p) => field(p, 'name') === root.name) : undefined;
  const from = field(entry, 'source');
  if (typeof from !== 'string') return root;
  return { ...root, path: resolve(dir, from) };
}

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
  // A plugin of a marketplace whose source is a local directory is read from that directory, not its install copy.
  const pluginsDir =
    configDir === undefined ? join(ctx.home, '.claude', 'plugins') : join(envPath(configDir, ctx), 'plugins');
  listed.roots = await Promise.all(listed.roots.map((root) => directorySourced(root, pluginsDir, inputs)));
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
